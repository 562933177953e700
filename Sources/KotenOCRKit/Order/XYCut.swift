/// XY-cut reading order of the NDL reference pipelines, shared by every mode.
///
/// reference: docs/reference-pipelines.md §1.4 A; parity README R1; NDL `reading_order/xy_cut/block_xy_cut.py`
/// (`solve`). The boxes are scaled onto a grid of `100·√N` bins on the shorter page side, the
/// occupancy grid is cut recursively at its longest minimal runs, every box goes to the first leaf
/// with the highest (non-standard) overlap score, leaves order their boxes by x descending then y,
/// and a node whose children are side by side is read right to left when its boxes are mostly
/// vertical. `LeafOrder.byOrientation` (the `page` reading order) replaces the leaf sort and breaks ties between
/// two clean cuts across the page's lines (`XYCutPartition`).
package enum XYCut {
    /// How the lines inside one leaf are ordered.
    public enum LeafOrder: Sendable {
        /// NDL's: left edge descending, then top (`is_vertical` is referenced, not called), for every leaf.
        case reference
        /// By the leaf's writing direction (`BlockLineOrder`): horizontal rows top to bottom, vertical columns
        /// right to left.
        case byOrientation
    }

    /// The reading rank (0-based, a permutation of `0..<boxes.count`) of every box.
    ///
    /// - Parameters:
    ///   - boxes: line boxes in image pixels (xyxy), in document order. An inverted box
    ///     (x2 < x1 or y2 < y1) is treated as zero-width/zero-height, as the reference does.
    ///   - leafOrder: the reference's leaf sort (default) or the one by writing direction.
    /// - Returns: `ranks[i]` is the position of `boxes[i]` in reading order; `[]` for no boxes.
    public static func readingRanks(of boxes: [PixelBox], leafOrder: LeafOrder = .reference) -> [Int] {
        guard !boxes.isEmpty else { return [] }
        let grid = XYCutGrid(boxes: boxes)
        var tree = XYCutPartition(grid: grid, across: leafOrder == .reference ? nil : acrossAxis(of: boxes))
        let order = tree.preOrder()
        let leaves = order.filter { tree.nodes[$0].children.isEmpty }
        for (i, box) in grid.boxes.enumerated() {
            tree.assign(line: i, to: bestLeaf(for: box, leaves: leaves, tree: tree))
        }
        // Post-order: children before parents (reverse of the pre-order).
        var counts = [(lines: Int, vertical: Int)](repeating: (0, 0), count: tree.nodes.count)
        for index in order.reversed() {
            let node = tree.nodes[index]
            if !node.lines.isEmpty {
                let vertical = node.lines.filter { grid.boxes[$0].width < grid.boxes[$0].height }.count
                counts[index] = (node.lines.count, vertical)
                if node.lines.count > 1, leafOrder == .byOrientation {
                    tree.setLines(BlockLineOrder.sorted(node.lines, boxes: boxes), of: index)
                } else if node.lines.count > 1 {
                    // `is_vertical` is referenced, not called: always x0 descending, then y0.
                    let sorted = node.lines.enumerated().sorted { a, b in
                        let ba = grid.boxes[a.element], bb = grid.boxes[b.element]
                        if ba.x1 != bb.x1 { return ba.x1 > bb.x1 }
                        if ba.y1 != bb.y1 { return ba.y1 < bb.y1 }
                        return a.offset < b.offset
                    }
                    tree.setLines(sorted.map(\.element), of: index)
                }
            } else {
                var total = (lines: 0, vertical: 0)
                for child in node.children {
                    total.lines += counts[child].lines
                    total.vertical += counts[child].vertical
                }
                counts[index] = total
                let sideBySide = node.children.allSatisfy {
                    tree.nodes[$0].y0 == node.y0 && tree.nodes[$0].y1 == node.y1
                }
                if sideBySide && total.lines < total.vertical * 2 { tree.reverseChildren(of: index) }
            }
        }
        var ranks = [Int](repeating: -1, count: boxes.count)
        var rank = 0
        for index in tree.preOrder() {
            for line in tree.nodes[index].lines {
                ranks[line] = rank
                rank += 1
            }
        }
        return ranks
    }

    /// The axis across most lines (`XYCutPartition`'s `across`): y when the boxes are mostly vertical (NDL's rule:
    /// fewer than twice as many boxes as vertical ones), else x.
    private static func acrossAxis(of boxes: [PixelBox]) -> XYCutPartition.Axis {
        let vertical = boxes.filter { $0.width < $0.height }.count
        return boxes.count < 2 * vertical ? .y : .x
    }

    /// The first leaf (depth-first) with the highest reference "IoU"; NaN scores never win.
    private static func bestLeaf(for box: PixelBox, leaves: [Int], tree: XYCutPartition) -> Int {
        var best = leaves.first ?? 0
        var bestScore = -Double.infinity
        for leaf in leaves {
            let score = overlapScore(box, tree.nodes[leaf])
            if score > bestScore {
                best = leaf
                bestScore = score
            }
        }
        return best
    }

    /// The reference's `calc_iou`: intersection with +1 terms over a union built from the
    /// cross extents (line end − leaf start, leaf end − line start). Not a true IoU.
    private static func overlapScore(_ b: PixelBox, _ leaf: XYCutPartition.Node) -> Double {
        let ix0 = max(b.x1, leaf.x0), iy0 = max(b.y1, leaf.y0)
        let ix1 = min(b.x2, leaf.x1), iy1 = min(b.y2, leaf.y1)
        let inter = max(0, ix1 - ix0 + 1) * max(0, iy1 - iy0 + 1)
        let a = (b.x2 - leaf.x0 + 1) * (b.y2 - leaf.y0 + 1)
        let c = (leaf.x1 - b.x1 + 1) * (leaf.y1 - b.y1 + 1)
        return Double(inter) / Double(a + c - inter)
    }
}
