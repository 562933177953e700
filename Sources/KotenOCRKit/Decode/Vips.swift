import CVipsShim
import Foundation

/// libvips, started once per process with its operation cache off and bounded worker threads
/// (docs/native-dependencies.md, "Memory settings": the defaults inflate memory in a long-running process).
package enum Vips {
    private static let started: Bool = {
        kv_init(CommandLine.arguments.first ?? "koten-ocr", 1) == 0
    }()

    /// Forgets libvips' last warning, so that the next failure's message carries only its own.
    package static func forgetWarning() { _ = kv_take_warning(nil, 0) }

    /// Starts libvips if needed. Returns false if it could not start.
    @discardableResult
    package static func start() -> Bool { started }

    /// What a pixel decode that failed says when libvips' error buffer holds nothing: the buffer is process-wide,
    /// so another thread's failure may have read and cleared this one's message (`ImageSource.describe`).
    package static let noDecodeMessage = "could not decode pixels"

    /// The last libvips error as one short line (libvips may leave it empty: a fallback is given). Each of
    /// libvips' lines appears once (its loaders may repeat one cause many times), and the line is cut at
    /// `maxLength` characters.
    /// A decoder's warning logged before the failure (libpng's "IDAT: CRC error") comes first: it is the cause.
    package static func lastError(fallback: String, maxLength: Int = 300) -> String {
        var buf = [CChar](repeating: 0, count: 2048)
        let n = kv_last_error(&buf, buf.count)
        var warningBuffer = [CChar](repeating: 0, count: 512)
        let w = kv_take_warning(&warningBuffer, warningBuffer.count)
        let warning = String(decoding: warningBuffer.prefix(w).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let bytes = buf.prefix(n).map { UInt8(bitPattern: $0) }
        var seen = Set<String>()
        let text = (warning + "\n" + String(decoding: bytes, as: UTF8.self))
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && seen.insert($0).inserted }.joined(separator: "; ")
        guard !text.isEmpty else { return fallback }
        return text.count > maxLength ? String(text.prefix(maxLength - 1)) + "…" : text
    }
}

/// An owned `VipsImage*` (released on deinit), and the memory it reads from, if any (an image opened from
/// bytes in memory, and every image made from it, keeps them alive).
package final class VipsHandle: @unchecked Sendable {
    package let pointer: OpaquePointer
    let owner: AnyObject?

    package init(_ pointer: OpaquePointer) {
        self.pointer = pointer
        owner = nil
    }

    init(_ pointer: OpaquePointer, owner: AnyObject?) {
        self.pointer = pointer
        self.owner = owner
    }
    deinit { kv_unref(pointer) }

    var width: Int { Int(kv_width(pointer)) }
    var height: Int { Int(kv_height(pointer)) }
    var bands: Int { Int(kv_bands(pointer)) }

    /// Runs a libvips operation producing a new image; `describe` turns its error text into an `Error`.
    func apply(_ describe: (String) -> Error,
               _ op: (OpaquePointer, UnsafeMutablePointer<OpaquePointer?>) -> Int32) throws -> VipsHandle {
        var out: OpaquePointer?
        guard op(pointer, &out) == 0, let out else { throw describe(Vips.lastError(fallback: "libvips operation failed")) }
        return VipsHandle(out, owner: owner)
    }

    /// Decodes all pixels (8-bit, `bands` per pixel) into a new array, in strips of rows.
    func readPixels(_ describe: (String) -> Error) throws -> [UInt8] {
        let count = width * height * bands
        var failed = false
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialised in
            if kv_read_pixels(pointer, buffer.baseAddress, count) != 0 {
                failed = true
                buffer.initialize(repeating: 0)
            }
            initialised = count
        }
        if failed { throw describe(Vips.lastError(fallback: Vips.noDecodeMessage)) }
        return pixels
    }
}
