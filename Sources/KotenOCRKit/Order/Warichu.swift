/// 割注 (warichu) grouping of the NDL reference: LINEs of TYPE 割注 are widened by 10 % across
/// the line, grouped greedily and non-transitively by intersection with the group's first line,
/// and each group is placed as a temporary WARICHUBLOCK (ORDER = median of its lines) before its
/// first member that sits in a TEXTBLOCK (else its first member). (parity README R5)
enum Warichu {
    static let type = "割注"
    private static let key = "\u{1}warichu-id"

    static func group(in page: inout PageNode) {
        let paths = page.paths(of: "LINE").filter { page[path: $0][attribute: "TYPE"] == type }
        guard !paths.isEmpty else { return }
        struct Member {
            let id: String
            let box: (Double, Double, Double, Double)
            let original: PixelBox
            let order: Double
            let parentIsTextBlock: Bool
        }
        var members: [Member] = []
        for (n, path) in paths.enumerated() {
            let id = String(n)
            page[path: path][attribute: key] = id
            let line = page[path: path]
            let b = line.lineBox
            let (w, h) = (Double(b.width), Double(b.height))
            let box = b.width < b.height
                ? (Double(b.x1) - w * 0.1 / 2, Double(b.y1), Double(b.x2) + w * 0.1 / 2, Double(b.y2))
                : (Double(b.x1), Double(b.y1) - h * 0.1 / 2, Double(b.x2), Double(b.y2) + h * 0.1 / 2)
            let parentTag = page[path: Array(path.dropLast())].tag
            members.append(Member(id: id, box: box, original: b, order: line.double("ORDER") ?? .nan,
                                  parentIsTextBlock: parentTag == "TEXTBLOCK"))
        }
        var grouped = Set<String>()
        var groups: [[Member]] = []
        for w0 in members where !grouped.contains(w0.id) {
            var g = [w0]
            grouped.insert(w0.id)
            for w1 in members where !grouped.contains(w1.id) && intersection(w0.box, w1.box) > 0 {
                g.append(w1)
                grouped.insert(w1.id)
            }
            groups.append(g)
        }
        for g in groups { place(g.map(\.id), bounds: g.map(\.original), order: PythonArithmetic.median(g.map(\.order)),
                                anchor: (g.first { $0.parentIsTextBlock } ?? g[0]).id, in: &page) }
        removeKeys(&page)
    }

    /// Moves the WARICHUBLOCK children back into their parents, in place of the block.
    static func ungroup(in node: inout PageNode) {
        var children: [PageNode] = []
        for var child in node.children {
            ungroup(in: &child)
            if child.tag == "WARICHUBLOCK" { children += child.children } else { children.append(child) }
        }
        node.children = children
    }

    private static func place(_ ids: [String], bounds: [PixelBox], order: Double, anchor: String, in page: inout PageNode) {
        let x0 = bounds.map(\.x1).min() ?? 0, y0 = bounds.map(\.y1).min() ?? 0
        let x1 = bounds.map(\.x2).max() ?? 0, y1 = bounds.map(\.y2).max() ?? 0
        var block = PageNode(tag: "WARICHUBLOCK", attributes: [
            .init(name: "X", value: String(x0)), .init(name: "Y", value: String(y0)),
            .init(name: "WIDTH", value: String(x1 - x0)), .init(name: "HEIGHT", value: String(y1 - y0)),
            .init(name: "ORDER", value: String(order)),
        ])
        block.children = ids.compactMap { id in path(of: id, in: page).map { page[path: $0] } }
        guard let anchorPath = path(of: anchor, in: page) else { return }
        let parentPath = Array(anchorPath.dropLast())
        page[path: parentPath].children.insert(block, at: anchorPath[anchorPath.count - 1])
        for id in ids {
            guard let p = path(of: id, in: page) else { continue }
            page[path: Array(p.dropLast())].children.remove(at: p[p.count - 1])
        }
    }

    /// Path of the LINE with a given id outside any WARICHUBLOCK.
    private static func path(of id: String, in node: PageNode, prefix: [Int] = []) -> [Int]? {
        for (i, child) in node.children.enumerated() {
            if child[attribute: key] == id { return prefix + [i] }
            if child.tag != "WARICHUBLOCK", let p = path(of: id, in: child, prefix: prefix + [i]) { return p }
        }
        return nil
    }

    private static func removeKeys(_ node: inout PageNode) {
        node[attribute: key] = nil
        for i in node.children.indices { removeKeys(&node.children[i]) }
    }

    private static func intersection(_ a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double)) -> Double {
        overlap1D((a.0, a.2), (b.0, b.2)) * overlap1D((a.1, a.3), (b.1, b.3))
    }

    /// The reference's 1-D overlap (cases by the position of segment b against segment a).
    private static func overlap1D(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        if b.1 < a.0 { return 0 }
        if b.0 < a.0 { return b.1 - a.0 }
        if b.1 < a.1 { return b.1 - b.0 }
        if b.0 < a.1 { return a.1 - b.0 }
        return 0
    }
}
