/// The recursive XY-cut partition of an occupancy grid (reference: docs/reference-pipelines.md §1.4 A,
/// "Recursive cut"). Nodes are kept in one array; `children` hold indices into it.
struct XYCutPartition {
    struct Node {
        var x0: Int, y0: Int, x1: Int, y1: Int
        var children: [Int] = []
        var lines: [Int] = []
    }

    private(set) var nodes: [Node]

    init(grid: XYCutGrid) {
        nodes = [Node(x0: 0, y0: 0, x1: grid.width, y1: grid.height)]
        var pending = [0]
        while let index = pending.popLast() {
            let children = Self.cut(nodes[index], grid: grid)
            for child in children {
                nodes.append(child)
                nodes[index].children.append(nodes.count - 1)
                pending.append(nodes.count - 1)
            }
        }
    }

    /// A minimal run of a histogram: the first longest run equal to the minimum, and its score
    /// (−min/max, 0 when max is 0; a histogram of length 1 scores its raw sum).
    private static func minimalSpan(_ hist: [Int]) -> (begin: Int, end: Int, score: Double) {
        if hist.count == 1 { return (0, 1, Double(hist[0])) }
        guard let minValue = hist.min(), let maxValue = hist.max() else { return (0, 0, 0) }
        var best = (begin: 0, end: 0)
        var i = 0
        while i < hist.count {
            guard hist[i] == minValue else {
                i += 1
                continue
            }
            var j = i
            while j < hist.count, hist[j] == minValue { j += 1 }
            if j - i > best.end - best.begin { best = (i, j) }
            i = j
        }
        let score = maxValue > 0 ? Double(-minValue) / Double(maxValue) : 0
        return (best.begin, best.end, score)
    }

    /// The children of one node, in reading-independent order (before, the run, after);
    /// empty when the node is a leaf.
    private static func cut(_ node: Node, grid: XYCutGrid) -> [Node] {
        let (columns, rows) = grid.histograms(x0: node.x0, y0: node.y0, x1: node.x1, y1: node.y1)
        let xs = minimalSpan(columns)
        let ys = minimalSpan(rows)
        let xBegin = xs.begin + node.x0, xEnd = xs.end + node.x0
        let yBegin = ys.begin + node.y0, yEnd = ys.end + node.y0
        if (node.x0, node.x1, node.y0, node.y1) == (xBegin, xEnd, yBegin, yEnd) { return [] }
        let alongX: Bool
        if ys.score < xs.score {
            alongX = true
        } else if xs.score < ys.score {
            alongX = false
        } else {
            alongX = !((xEnd - xBegin) < (yEnd - yBegin))
        }
        let pieces: [(Int, Int)]
        if alongX {
            pieces = [(node.x0, xBegin), (xBegin, xEnd), (xEnd, node.x1)]
        } else {
            pieces = [(node.y0, yBegin), (yBegin, yEnd), (yEnd, node.y1)]
        }
        return pieces.compactMap { lo, hi in
            let child = alongX
                ? Node(x0: lo, y0: node.y0, x1: hi, y1: node.y1)
                : Node(x0: node.x0, y0: lo, x1: node.x1, y1: hi)
            guard child.x0 < child.x1, child.y0 < child.y1 else { return nil }
            if (child.x0, child.y0, child.x1, child.y1) == (node.x0, node.y0, node.x1, node.y1) { return nil }
            return child
        }
    }

    /// Node indices in depth-first pre-order, following the current child order.
    func preOrder() -> [Int] {
        var order: [Int] = []
        var stack = [0]
        while let index = stack.popLast() {
            order.append(index)
            stack.append(contentsOf: nodes[index].children.reversed())
        }
        return order
    }

    mutating func assign(line: Int, to node: Int) { nodes[node].lines.append(line) }
    mutating func setLines(_ lines: [Int], of node: Int) { nodes[node].lines = lines }
    mutating func reverseChildren(of node: Int) { nodes[node].children.reverse() }
}
