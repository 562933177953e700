import CVipsShim
import Foundation

/// SHA-256 digests as 64 lowercase hex digits, computed by GLib's GChecksum (through CVipsShim).
///
/// Used for the batch manifest (each output's digest, checked on `--resume`) and for the shard partition.
enum SHA256 {
    /// The digest of `data`.
    static func hex(_ data: Data) -> String {
        let state = kv_sha256_new()
        data.withUnsafeBytes { kv_sha256_update(state, $0.baseAddress, $0.count) }
        return finish(state)
    }

    /// The digest of the file at `url`, read in 1 MiB chunks (the file is never held whole).
    /// Throws the read error (e.g. `CocoaError.fileReadNoSuchFile`) naming the path.
    static func hex(fileAt url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let state = kv_sha256_new()
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                chunk.withUnsafeBytes { kv_sha256_update(state, $0.baseAddress, $0.count) }
            }
        } catch {
            _ = finish(state)
            throw error
        }
        return finish(state)
    }

    private static func finish(_ state: UnsafeMutableRawPointer?) -> String {
        var hex = [CChar](repeating: 0, count: 65)
        kv_sha256_finish(state, &hex)
        return String(decoding: hex.prefix(64).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
