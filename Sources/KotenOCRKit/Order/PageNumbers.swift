/// Page numbers (ノンブル): the lines of a page that are its printed page number, which belong at the end of the page's
/// text, not where the XY-cut meets them (a number at the bottom left, left of where a horizontal block starts, was
/// read first; at the top, before the text). docs/json-schema.md, `kind` `pageNumber`.
///
/// A line is a page number when its text is a number of one to four digits (ASCII or full-width), alone or between
/// dashes or brackets (`12`, `- 12 -`, `（12）`), and it stands apart from the rest of the text, its box above all of
/// theirs or below all of them (the detector's boxes, grown by its unclip margin, do not overlap it): where books
/// print their page numbers, at the foot or the head outside the text block. A page whose every line is such a number
/// has none (its numbers are its text).
enum PageNumbers {
    /// The indices of the page numbers among `lines` (each line's outline, in the upright page, and its text).
    static func find(_ lines: [(quad: Quad, text: String)]) -> [Int] {
        let candidates = lines.indices.filter { isNumber(lines[$0].text) }
        guard !candidates.isEmpty, candidates.count < lines.count else { return [] }
        let others = lines.indices.filter { !candidates.contains($0) }.map { lines[$0].quad.bounds }
        guard let top = others.map(\.y0).min(), let bottom = others.map(\.y1).max() else { return [] }
        return candidates.filter { i in
            let b = lines[i].quad.bounds
            return b.y0 >= bottom || b.y1 <= top
        }
    }

    /// Whether `text` is a page number as printed: 1–4 digits (ASCII or full-width, not mixed), white space aside,
    /// alone or between a pair of dashes or brackets.
    static func isNumber(_ text: String) -> Bool {
        var s = Array(text.filter { !$0.isWhitespace })
        let pairs: [(Character, Character)] = [("-", "-"), ("‐", "‐"), ("－", "－"), ("—", "—"), ("―", "―"), ("–", "–"),
                                               ("(", ")"), ("（", "）"), ("[", "]"), ("［", "］"), ("〔", "〕")]
        if s.count >= 3, let first = s.first, let last = s.last, pairs.contains(where: { $0.0 == first && $0.1 == last }) {
            s = Array(s.dropFirst().dropLast())
        }
        guard (1...4).contains(s.count) else { return false }
        let ascii = s.allSatisfy { ("0"..."9").contains($0) }, wide = s.allSatisfy { ("０"..."９").contains($0) }
        return ascii || wide
    }
}
