/// The reading-order stage seam of the `ppocr` pipeline: puts a page's lines in reading order and says which of
/// them are ruby of which. (A stage seam in `Core/` beside `PageDetector` and `LineReader`; `StageOverrides` holds
/// one.) The mode's own is `PageFrameOrder` (`Modes/PPOCR/`, over `Order/`'s passes; `OCRConfiguration.ReadingOrderStyle.page` or
/// `.ndl`); `OCRConfiguration.stages[.ppocr]` supplies another (`StageOverrides.orderer`). The `ndl` and `koten` modes
/// order NDL's page tree instead (`ReadingOrder`, with the configuration's `readingOrder` style), so that NDL's
/// own formats follow the order.
public protocol PageOrderer: Sendable {
    /// The reading order of `lines` (of one upright page). Must return a permutation of `lines.indices`.
    func order(_ lines: [PageOrder.Line]) -> PageOrder.Ordering
}

/// What the order stage (`PageOrderer`) is given and what it gives back.
public enum PageOrder {
    /// A line as the order stage sees it: where it is on the upright page, which way it reads, what was read.
    public struct Line: Sendable {
        /// Outline in upright-page pixels, corners clockwise from its top-left.
        public var quad: Quad
        /// Where reading starts and ends along the line (the middles of its first and last edges).
        public var start: Point
        public var end: Point
        /// The reading: its characters and, where the recogniser tells, their centres along the line.
        public var text: RecognisedText

        public init(quad: Quad, start: Point, end: Point, text: RecognisedText) {
            self.quad = quad
            self.start = start
            self.end = end
            self.text = text
        }
    }

    /// What the order stage decided.
    public struct Ordering: Sendable, Equatable {
        /// Indices of the input lines in reading order (a ruby line right after the line it annotates).
        public var order: [Int]
        /// For each ruby line (by input index): the line it annotates (`line` is that line's input index) and the
        /// characters `start..<end` of it.
        public var ruby: [Int: PageResult.RubyTarget]
        /// The skew undone, radians in image coordinates (`SkewEstimate`); 0 when none.
        public var skew: Double

        public init(order: [Int], ruby: [Int: PageResult.RubyTarget] = [:], skew: Double = 0) {
            self.order = order
            self.ruby = ruby
            self.skew = skew
        }
    }
}
