import Foundation

/// A path as the file system holds it: its bytes, compared and hashed as bytes. Swift's `String` compares by
/// canonical equivalence (the NFC and NFD spellings of one Japanese name are equal) and cannot hold a name that
/// is not valid UTF-8 (a Shift_JIS name from an old archive), so inputs are carried as bytes and shown with
/// `display` (issue 17).
package struct FileSystemPath: Sendable, Hashable, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    package let bytes: [UInt8]

    package init(_ string: String) { bytes = Array(string.utf8) }
    package init(bytes: some Sequence<UInt8>) { self.bytes = Array(bytes) }

    /// The path as text: UTF-8 as it is, each byte that is not part of valid UTF-8 written `\xNN`.
    package var display: String { Self.escaped(bytes) }
    package var description: String { display }

    /// Whether the bytes are valid UTF-8 (`display` then gives them back exactly).
    package var isValidUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// `self/component` (one slash between them).
    package func appending(_ component: FileSystemPath) -> FileSystemPath {
        if bytes.isEmpty { return component }
        return FileSystemPath(bytes: bytes.last == 0x2F ? bytes + component.bytes : bytes + [0x2F] + component.bytes)
    }

    /// The last component (the path itself when it has no slash; trailing slashes ignored).
    package var lastComponent: FileSystemPath {
        var end = bytes.endIndex
        while end > bytes.startIndex + 1, bytes[end - 1] == 0x2F { end -= 1 }
        let start = bytes[..<end].lastIndex(of: 0x2F).map { $0 + 1 } ?? bytes.startIndex
        return FileSystemPath(bytes: bytes[start..<end])
    }

    /// The path with `.` and empty components removed and `..` taken back lexically, as
    /// `URL.standardizedFileURL` does, on the bytes.
    package var standardized: FileSystemPath {
        var parts: [ArraySlice<UInt8>] = []
        for part in bytes.split(separator: 0x2F, omittingEmptySubsequences: true) {
            if part.elementsEqual([0x2E]) { continue }
            if part.elementsEqual([0x2E, 0x2E]), let last = parts.last, !last.elementsEqual([0x2E, 0x2E]) {
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        let joined = parts.joined(separator: [0x2F])
        return FileSystemPath(bytes: (bytes.first == 0x2F ? [0x2F] : []) + joined)
    }

    /// `body` with the path as a NUL-terminated C string.
    package func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return try "".withCString(body) }
            return try body(base)
        }
    }

    /// UTF-8 `bytes` as text, each byte outside a valid UTF-8 sequence written `\xNN` (uppercase hex).
    package static func escaped(_ bytes: [UInt8]) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var text = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var index = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                index += encoded.count
            case .error(let length):
                for byte in bytes[index..<index + length] { text += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(2) }
                index += length
            case .emptyInput:
                return text
            }
        }
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
