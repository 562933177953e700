/// `sort_lines` of the reference: lines inside each TEXTBLOCK/WARICHUBLOCK sorted by centre
/// (non-transitive margin comparator, CPython sort), page-level items sorted by key (a block's
/// upper-median ORDER, a line's ORDER), BLOCK children sorted recursively and kept last, and
/// adjacent duplicates removed after every sort. (parity README R2, R3, R4)
enum LineSorting {
    /// Sorts the children of a PAGE or BLOCK element in place.
    static func sortChildren(of parent: inout PageNode, dedup: DuplicateFilter) {
        var keyed: [(key: Double, node: PageNode)] = []
        var unsorted: [PageNode] = []
        for var child in parent.children {
            switch child.tag {
            case "TEXTBLOCK":
                for i in child.children.indices where child.children[i].tag == "WARICHUBLOCK" {
                    _ = sortBlockLines(&child.children[i], dedup: dedup)
                }
                let median = sortBlockLines(&child, dedup: dedup)
                keyed.append((median, child))
            case "LINE":
                keyed.append((child.double("ORDER") ?? .nan, child))
            case "WARICHUBLOCK":
                let median = sortBlockLines(&child, dedup: dedup)
                keyed.append((median, child))
            case "BLOCK", "PAGE":
                sortChildren(of: &child, dedup: dedup)
                unsorted.append(child)
            default:
                unsorted.append(child)
            }
        }
        let sorted = PythonSort.sorted(keyed) { $0.key < $1.key }.map(\.node)
        parent.children = dedup.filter(sorted) + unsorted
    }

    /// Sorts the LINE/WARICHUBLOCK children of a block by centre (`sort_lines_local`) and
    /// returns the upper median of their ORDER values (-1 when the block has no lines, NaN when
    /// none has an ORDER). Other children (SHAPE) go after the lines.
    static func sortBlockLines(_ block: inout PageNode, dedup: DuplicateFilter) -> Double {
        struct Item {
            let cx: Double, cy: Double, order: Double
            let node: PageNode
        }
        var items: [Item] = []
        var others: [PageNode] = []
        var widths: [Double] = [], heights: [Double] = []
        var vertical = 0
        for child in block.children {
            guard DuplicateFilter.isLineLike(child) else {
                others.append(child)
                continue
            }
            let w = child.double("WIDTH") ?? -1, h = child.double("HEIGHT") ?? -1
            let x = child.double("X") ?? -1, y = child.double("Y") ?? -1
            if w < h { vertical += 1 }
            widths.append(w)
            heights.append(h)
            items.append(Item(cx: x + w / 2, cy: y + h / 2, order: child.double("ORDER") ?? .nan, node: child))
        }
        guard !items.isEmpty else { return -1 }
        let isVertical = items.count < vertical * 2
        let margin = PythonArithmetic.median(isVertical ? widths : heights) * 0.3
        let sorted = PythonSort.sorted(items) { a, b in
            if isVertical {
                if margin < b.cx - a.cx { return false }
                if margin < a.cx - b.cx { return true }
                return a.cy - b.cy < 0
            }
            if margin < a.cy - b.cy { return false }
            if margin < b.cy - a.cy { return true }
            return a.cx - b.cx < 0
        }
        let orders = sorted.map(\.order).filter { !$0.isNaN }.sorted()
        block.children = dedup.filter(sorted.map(\.node)) + others
        return orders.isEmpty ? .nan : orders[orders.count / 2]
    }
}
