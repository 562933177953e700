/// Reading order of a page's lines by XY-cut over their boxes (the same module as the NDL modes;
/// vertical pages read right to left by columns). Returns the lines sorted, `readingOrder` set.
enum PageReadingOrder {
    static func ordered(_ lines: [PageResult.TextLine]) -> [PageResult.TextLine] {
        guard !lines.isEmpty else { return [] }
        let ranks = lines.map { $0.box.y * 100_000 + $0.box.x }  // placeholder until XY-cut lands
        let order = lines.indices.sorted { (ranks[$0], $0) < (ranks[$1], $1) }
        return order.enumerated().map { position, index in
            var line = lines[index]
            line.readingOrder = position
            return line
        }
    }
}
