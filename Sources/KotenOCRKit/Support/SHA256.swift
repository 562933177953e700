import CVipsShim
import Foundation

/// SHA-256 digests as lowercase hex (64 characters), computed by GLib's GChecksum (linked with libvips;
/// CryptoKit does not exist on Linux).
///
/// Used to identify model files and to compare tensors with the parity fixtures' `sha256_*` fields.
/// One-shot (`hex(_:)`), streaming (`update` then `finalize`), or a file read in chunks (`hex(fileAt:)`),
/// so a 100 MB model is never held in memory to be hashed.
package final class SHA256 {
    private let state: OpaquePointer?
    private var digest: String?

    /// A fresh streaming hash.
    public init() { state = kv_sha256_new() }
    deinit { kv_sha256_free(state) }

    /// Adds `bytes` to the hash. Ignored after `finalize()`.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard digest == nil else { return }
        kv_sha256_update(state, bytes.baseAddress, bytes.count)
    }

    /// Adds the bytes of `data`.
    public func update<D: ContiguousBytes>(_ data: D) {
        data.withUnsafeBytes { update($0) }
    }

    /// The hex digest of everything added so far; later calls return the same value.
    public func finalize() -> String {
        if let digest { return digest }
        let hex = Self.readDigest { kv_sha256_finish(state, $0) }
        digest = hex
        return hex
    }

    /// The hex digest of `bytes`.
    public static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        readDigest { kv_sha256_hex(bytes.baseAddress, bytes.count, $0) }
    }

    /// The hex digest of `data` (e.g. `Data`, `[UInt8]`).
    public static func hex<D: ContiguousBytes>(_ data: D) -> String {
        data.withUnsafeBytes { hex($0) }
    }

    /// The hex digest of the little-endian bytes of `values` (the `sha256_float32_le_*` fields of the
    /// parity fixtures). All supported platforms are little-endian.
    public static func hex(float32LittleEndian values: [Float]) -> String {
        values.withUnsafeBytes { hex($0) }
    }

    /// The hex digest of the file at `url`, read in chunks of `chunkSize` bytes (never whole).
    /// Throws the file system's error (not found, unreadable) for `url`.
    public static func hex(fileAt url: URL, chunkSize: Int = 1 << 20) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let hash = SHA256()
        while let chunk = try handle.read(upToCount: max(1, chunkSize)), !chunk.isEmpty {
            hash.update(chunk)
        }
        return hash.finalize()
    }

    private static func readDigest(_ write: (UnsafeMutablePointer<CChar>) -> Void) -> String {
        var buffer = [CChar](repeating: 0, count: 65)
        buffer.withUnsafeMutableBufferPointer { b in
            if let base = b.baseAddress { write(base) }
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
