extension PageResult {
    /// What a ruby line annotates: a body line and its characters `start..<end` (indices into its characters). In a
    /// page's result (`PageResult.TextLine.annotates`) `line` is the body line's `readingOrder`; out of the order
    /// stage (`PageOrder.Ordering.ruby`), its index among the lines ordered.
    public struct RubyTarget: Sendable, Codable, Equatable, Hashable {
        public var line: Int
        public var start: Int
        public var end: Int

        public init(line: Int, start: Int, end: Int) {
            self.line = line
            self.start = start
            self.end = end
        }
    }
}
