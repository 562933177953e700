/// `remove_dup` of the reference: of two adjacent LINE/WARICHUBLOCK elements that overlap by
/// more than the threshold (intersection / smaller area), the one with the higher CONF (the
/// 3-decimal string as a float; -1 when absent) stays; on a tie the earlier one stays.
/// Other elements pass through and break adjacency. (parity README R4)
struct DuplicateFilter {
    let threshold: Double
    let needsPositiveArea: Bool

    static func isLineLike(_ n: PageNode) -> Bool { n.tag == "LINE" || n.tag == "WARICHUBLOCK" }

    private static func value(_ n: PageNode, _ name: String) -> Double { n.double(name) ?? -1 }

    func filter(_ nodes: [PageNode]) -> [PageNode] {
        var kept: [PageNode] = []
        var last: (box: [Double], conf: Double)?
        for node in nodes {
            guard Self.isLineLike(node) else {
                kept.append(node)
                continue
            }
            let x = Self.value(node, "X"), y = Self.value(node, "Y")
            let entry = (box: [x, y, x + Self.value(node, "WIDTH"), y + Self.value(node, "HEIGHT")],
                         conf: Self.value(node, "CONF"))
            if let previous = last, let tail = kept.last, Self.isLineLike(tail), overlaps(previous.box, entry.box) {
                if previous.conf >= entry.conf { continue }
                kept.removeLast()
            }
            kept.append(node)
            last = entry
        }
        return kept
    }

    private func overlaps(_ a: [Double], _ b: [Double]) -> Bool {
        let areaA = (a[2] - a[0]) * (a[3] - a[1])
        let areaB = (b[2] - b[0]) * (b[3] - b[1])
        let w = max(0, min(a[2], b[2]) - max(a[0], b[0]))
        let h = max(0, min(a[3], b[3]) - max(a[1], b[1]))
        let minArea = min(areaA, areaB)
        if needsPositiveArea && !(minArea > 0) { return false }
        return w * h / minArea > threshold
    }
}
