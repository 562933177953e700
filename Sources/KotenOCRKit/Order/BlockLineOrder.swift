/// The lines of one block (an XY-cut leaf) in reading order by the block's writing direction: the `page` reading
/// order's leaf sort (`XYCut.LeafOrder.byOrientation`).
///
/// The block is vertical when fewer than twice as many lines as vertical ones (NDL's rule, a line being vertical
/// when narrower than tall). Horizontal: lines grouped into rows, rows top to bottom, each row left to right.
/// Vertical: lines grouped into columns, columns right to left, each column top to bottom. A line joins a row
/// (column) when it overlaps the row's first line across the writing direction by more than half the thinner
/// of the two, so lines of one row split at a gap stay together and a slightly taller neighbour does not chain
/// rows. Boxes are in the frame the order is made in (upright, deskewed), xyxy pixels.
enum BlockLineOrder {
    /// `lines` (indices into `boxes`) in reading order.
    static func sorted(_ lines: [Int], boxes: [PixelBox]) -> [Int] {
        let vertical = lines.filter { boxes[$0].width < boxes[$0].height }.count
        return lines.count < 2 * vertical ? columns(lines, boxes) : rows(lines, boxes)
    }

    /// Rows top to bottom, each left to right.
    private static func rows(_ lines: [Int], _ boxes: [PixelBox]) -> [Int] {
        groups(lines, across: { (boxes[$0].y1, boxes[$0].y2) }, along: { (boxes[$0].x1, boxes[$0].x2) }, acrossAscending: true)
    }

    /// Columns right to left, each top to bottom.
    private static func columns(_ lines: [Int], _ boxes: [PixelBox]) -> [Int] {
        groups(lines, across: { (boxes[$0].x1, boxes[$0].x2) }, along: { (boxes[$0].y1, boxes[$0].y2) }, acrossAscending: false)
    }

    /// Lines grouped by their extent `across` the writing direction, groups ordered by centre (ascending or
    /// descending), each group ordered by its lines' start `along` the writing direction.
    private static func groups(_ lines: [Int], across: (Int) -> (Int, Int), along: (Int) -> (Int, Int),
                               acrossAscending: Bool) -> [Int] {
        func centre(_ span: (Int, Int)) -> Int { span.0 + span.1 }  // twice the centre: integers stay exact
        let byCentre = lines.sorted { a, b in
            let ca = centre(across(a)), cb = centre(across(b))
            if ca != cb { return acrossAscending ? ca < cb : ca > cb }
            return along(a).0 < along(b).0
        }
        var groups: [(anchor: (Int, Int), members: [Int])] = []
        for line in byCentre {
            let span = across(line)
            if let last = groups.last {
                let overlap = min(span.1, last.anchor.1) - max(span.0, last.anchor.0)
                let thinner = min(span.1 - span.0, last.anchor.1 - last.anchor.0)
                if 2 * overlap > thinner {
                    groups[groups.count - 1].members.append(line)
                    continue
                }
            }
            groups.append((span, [line]))
        }
        return groups.flatMap { group in
            group.members.sorted { a, b in
                let sa = along(a), sb = along(b)
                return sa.0 != sb.0 ? sa.0 < sb.0 : (sa.1, a) < (sb.1, b)
            }
        }
    }
}
