/// Reading order of a page's lines by XY-cut over their boxes (the same module as the NDL modes;
/// vertical pages read right to left by columns). Returns the lines sorted, `readingOrder` set.
enum PageReadingOrder {
    static func ordered(_ lines: [PageResult.TextLine]) -> [PageResult.TextLine] {
        guard !lines.isEmpty else { return [] }
        let boxes = lines.map { PixelBox(x1: $0.box.x, y1: $0.box.y, x2: $0.box.x + $0.box.width, y2: $0.box.y + $0.box.height) }
        let ranks = XYCut.readingRanks(of: boxes)
        let order = lines.indices.sorted { (ranks[$0], $0) < (ranks[$1], $1) }
        return order.enumerated().map { position, index in
            var line = lines[index]
            line.readingOrder = position
            return line
        }
    }
}
