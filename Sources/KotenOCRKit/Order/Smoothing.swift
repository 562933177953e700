import Foundation

/// `smooth_order` of the NDL reference (parity README R6): the page-level TEXTBLOCKs and LINEs
/// (and, recursively, the lines of each BLOCK) are reordered along the minimum-weight
/// Hamiltonian path from the first to the last item, over edges to the next and previous item
/// (and the ones two away when there are fewer than 20 items). Weight = distance from an item's
/// end point to the next item's begin point / page diagonal + |ΔORDER| / ORDER range.
/// A TEXTBLOCK's begin point is the top centre of its *last* line (the reference never clears
/// its "first line" flag), its end the bottom centre of its last line, its key the ORDER of its
/// middle line; a TEXTBLOCK without LINEs is dropped whenever a path is found.
enum Smoothing {
    private struct Item {
        let order: Double
        let begin: (x: Double, y: Double)
        let end: (x: Double, y: Double)
        let node: PageNode
    }

    static func apply(to page: inout PageNode) {
        let w = page.double("WIDTH") ?? .nan, h = page.double("HEIGHT") ?? .nan
        reorder(&page, diagonal: (w * w + h * h).squareRoot())
    }

    private static func reorder(_ parent: inout PageNode, diagonal: Double) {
        var items: [Item] = []
        var unsorted: [PageNode] = []
        for var child in parent.children {
            switch child.tag {
            case "TEXTBLOCK":
                let lines = child.children.filter { $0.tag == "LINE" }
                guard let last = lines.last else { continue }
                let (begin, end) = endpoints(last)
                items.append(Item(order: lines[lines.count / 2].double("ORDER") ?? .nan,
                                  begin: begin, end: end, node: child))
            case "LINE":
                let (begin, end) = endpoints(child)
                items.append(Item(order: child.double("ORDER") ?? .nan, begin: begin, end: end, node: child))
            case "BLOCK":
                reorder(&child, diagonal: diagonal)
                unsorted.append(child)
            default:
                unsorted.append(child)
            }
        }
        guard !items.isEmpty, let path = minimumPath(items, diagonal: diagonal) else { return }
        parent.children = path.map { items[$0].node } + unsorted
    }

    private static func endpoints(_ line: PageNode) -> ((x: Double, y: Double), (x: Double, y: Double)) {
        let x = line.double("X") ?? .nan, y = line.double("Y") ?? .nan
        let w = line.double("WIDTH") ?? .nan, h = line.double("HEIGHT") ?? .nan
        return ((x + w / 2, y), (x + w / 2, y + h))
    }

    /// The first simple path 0 → n−1 through all items with a weight strictly below the best so
    /// far (starting at 99999), enumerated depth first with neighbours in the order the
    /// reference's graph lists them (i−1, i+1, then i−2, i+2).
    private static func minimumPath(_ items: [Item], diagonal: Double) -> [Int]? {
        let n = items.count
        let orders = items.map(\.order)
        let range = (orders.max() ?? 0) - (orders.min() ?? 0)
        func weight(_ i: Int, _ j: Int) -> Double {
            let orderTerm = abs(items[i].order - items[j].order) / range
            let dx = items[j].begin.x - items[i].end.x, dy = items[j].begin.y - items[i].end.y
            return (dx * dx + dy * dy).squareRoot() / diagonal + orderTerm
        }
        let steps = n < 20 ? [-1, 1, -2, 2] : [-1, 1]
        var best: [Int]?
        var bestWeight = 99999.0
        var path = [0]
        var visited = [Bool](repeating: false, count: n)
        visited[0] = true
        func visit(_ u: Int) {
            if u == n - 1 {
                if path.count == n {
                    var total = 0.0
                    for k in 1..<max(1, path.count) { total += weight(path[k - 1], path[k]) }
                    if total < bestWeight {
                        bestWeight = total
                        best = path
                    }
                }
                return
            }
            for step in steps {
                let v = u + step
                guard v >= 0, v < n, !visited[v] else { continue }
                visited[v] = true
                path.append(v)
                visit(v)
                path.removeLast()
                visited[v] = false
            }
        }
        visit(0)
        return best
    }
}
