import Foundation

/// Shard `index` of `count` (`--shard K/N`, K from 1 to N): a deterministic partition of a batch's pages
/// so that N independent processes, given the same inputs, read every page exactly once.
///
/// A page belongs to shard `1 + (h mod N)`, where `h` is the first 64 bits (big-endian) of the SHA-256 of
/// its shard key `relativePath#page` (see `BatchInput.relativePath`; page 1-based). The partition depends
/// only on the page's own key: adding, removing or re-ordering other inputs never moves a page to another
/// shard, and it is the same on every machine and every run.
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1-based.
    public let index: Int
    public let count: Int

    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(index: Int, count: Int) throws(ParseError) {
        guard count >= 1, index >= 1, index <= count else {
            throw ParseError(description: "--shard takes K/N with 1 ≤ K ≤ N, e.g. 1/4, not '\(index)/\(count)'")
        }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`.
    public init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let n = Int(parts[1].trimmingCharacters(in: .whitespaces)) else {
            throw ParseError(description: "--shard takes K/N with 1 ≤ K ≤ N, e.g. 1/4, not '\(text)'")
        }
        try self.init(index: k, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    /// The shard (1-based) a shard key belongs to among `count`.
    public static func owner(of key: String, count: Int) -> Int {
        let digest = SHA256.hex(Data(key.utf8))
        let h = UInt64(digest.prefix(16), radix: 16) ?? 0
        return Int(h % UInt64(max(1, count))) + 1
    }

    /// Whether the page (or input) with shard key `key` is this shard's.
    public func contains(_ key: String) -> Bool { Self.owner(of: key, count: count) == index }
}
