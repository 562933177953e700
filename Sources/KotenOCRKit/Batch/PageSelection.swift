/// Which pages of each multi-page input to read, as `--pages` gives them: 1-based numbers and ranges
/// separated by commas, e.g. `1-10,15` or `3-` (page 3 to the end). A single-page input is a file of one page: a
/// selection past it fails as past the end of any file (issue 25).
package struct PageSelection: Sendable, Equatable, CustomStringConvertible {
    /// 1-based inclusive ranges; `upper == nil` runs to the last page.
    public struct Range: Sendable, Equatable {
        public let lower: Int
        public let upper: Int?
    }

    public let ranges: [Range]
    /// The text it was parsed from.
    public let description: String

    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Parses `text`. Throws `ParseError` (one line) for an empty item, a page 0, a reversed range or
    /// anything that is not a number.
    public init(parsing text: String) throws {
        var ranges: [Range] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let part = item.trimmingCharacters(in: .whitespaces)
            let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = bounds.first, let lower = Int(first), lower >= 1 else {
                throw ParseError(description: "--pages takes page numbers from 1 and ranges such as 1-10,15 or 3-, not '\(text)'")
            }
            if bounds.count == 1 {
                ranges.append(Range(lower: lower, upper: lower))
            } else if bounds[1].isEmpty {
                ranges.append(Range(lower: lower, upper: nil))
            } else if let upper = Int(bounds[1]), upper >= lower {
                ranges.append(Range(lower: lower, upper: upper))
            } else {
                throw ParseError(description: "--pages: '\(part)' is not a range from a page to a later one")
            }
        }
        self.ranges = ranges
        self.description = text
    }

    /// The 0-based pages selected from a file of `pageCount` pages, ascending, each once. Throws
    /// `PageSelection.PastEnd` with the first page asked for that the file does not have.
    public func pages(of pageCount: Int) throws(PastEnd) -> [Int] {
        var selected = Set<Int>()
        for range in ranges {
            let upper = range.upper ?? max(pageCount, range.lower)
            if upper > pageCount { throw PastEnd(page: max(range.lower, pageCount + 1), pageCount: pageCount) }
            for page in range.lower...upper { selected.insert(page - 1) }
        }
        return selected.sorted()
    }

    /// A selection asks for a page past the end of a file.
    public struct PastEnd: Error, Equatable, CustomStringConvertible {
        /// The first missing page, 1-based.
        public let page: Int
        public let pageCount: Int

        /// The one message for every kind of input: "--pages asks for page 5, but the file has 1 page".
        public var description: String { reason(of: "file") }

        /// The message naming the input as `what` ("file", "image").
        public func reason(of what: String) -> String {
            "--pages asks for page \(page), but the \(what) has \(pageCount) page\(pageCount == 1 ? "" : "s")"
        }
    }
}
