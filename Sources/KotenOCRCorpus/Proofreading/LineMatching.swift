/// How a line keeps its id across re-reads (docs/corpus.md, "Line ids"): a line of a new reading takes the id
/// of the known line whose box it overlaps most, when their intersection over union is at least `minimumOverlap`;
/// pairs are taken greedily from the largest overlap down, each line at most once. The known lines are those
/// of the page's latest reading and those a re-read lost that still carry a correction. A new line left without
/// a partner gets a new id (`l<n>`, never reused on the page).
enum LineMatching {
    static let minimumOverlap = 0.5

    struct Known {
        let id: String
        let box: CorpusBox
    }

    /// For each of `boxes` (a new reading's lines, in order), the id of its partner among `known`, or nil.
    static func match(_ boxes: [CorpusBox], to known: [Known]) -> [String?] {
        var pairs: [(overlap: Double, new: Int, old: Int)] = []
        for (i, b) in boxes.enumerated() {
            for (j, k) in known.enumerated() {
                let o = b.overlap(k.box)
                if o >= minimumOverlap { pairs.append((o, i, j)) }
            }
        }
        // Largest overlap first; ties by reading order, so that identical readings keep every id.
        pairs.sort { ($0.overlap, -$0.new, -$0.old) > ($1.overlap, -$1.new, -$1.old) }
        var result = [String?](repeating: nil, count: boxes.count)
        var used = Set<Int>()
        for p in pairs where result[p.new] == nil && !used.contains(p.old) {
            result[p.new] = known[p.old].id
            used.insert(p.old)
        }
        return result
    }
}

/// Where lines that are not in the engine's reading order (added lines, corrected lines a re-read lost) go among
/// the others: on a page of mostly vertical lines, read right to left, before the first line whose centre is
/// left of theirs; otherwise before the first line whose centre is below theirs.
enum ExtraLinePlacement {
    static func place(_ extras: [CorpusLine], among base: [CorpusLine]) -> [CorpusLine] {
        guard !extras.isEmpty else { return base }
        let vertical = 2 * base.filter { $0.orientation == "vertical" }.count > base.count
            || (base.isEmpty && extras.allSatisfy { $0.orientation == "vertical" })
        func key(_ l: CorpusLine) -> Double {
            vertical ? -(Double(l.box.x) + Double(l.box.width) / 2) : Double(l.box.y) + Double(l.box.height) / 2
        }
        var out: [CorpusLine] = []
        out.reserveCapacity(base.count + extras.count)
        var pending = extras.sorted { key($0) < key($1) }[...]
        for line in base {
            while let e = pending.first, key(e) < key(line) {
                out.append(e)
                pending = pending.dropFirst()
            }
            out.append(line)
        }
        out.append(contentsOf: pending)
        return out
    }
}
