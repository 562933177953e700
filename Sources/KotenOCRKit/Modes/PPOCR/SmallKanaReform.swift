import Foundation

/// The kana of a vertical line the recogniser read at the wrong size, set right from where their ink stands in the
/// cell (docs/reference-pipelines.md §4, "Step 4, small kana"; docs/quality.md, "Small kana read full-size").
///
/// Why: on `make sweep`'s 48 px tategaki pages the recogniser reads some small kana as their full-size twins (ぁ as あ
/// on both single columns, ぅ/う, ュ/ユ, ャ/ヤ, ぇ/え), and the window read upright (`SmallKana.windows`, `resizes`)
/// does not say small there.
///
/// The rule, on the line as the recogniser saw it (`SmallKana.LineInk`), and only on a line set straight (the
/// middles across of its characters read full-size lie on average within `maxSpread` of the typical glyph of their
/// median: print; a hand's う wanders off the column's middle and is left alone): a kana with a small form whose ink
/// is both small (its longer side at most `smallSide` of the typical glyph) and set off toward the cell's top right
/// (its middle at least `minOffset` of the typical glyph toward the page's right of the column's) is its small form.
/// On a line of one or two full-size characters (a column split at 、 or 。) the bounds are stricter
/// (`shortLineSide`, `shortLineOffset`). Each kana so changed keeps its probability and says `foundBy` `smallKana`.
enum SmallKanaReform {
    /// Ink at most this share of the typical glyph (its longer side) is a small kana's (measured on the sweep's
    /// tategaki: small kana 0.62–0.86, the full-size kana that have a small form 0.85–1.1).
    static let smallSide = 0.86
    /// Ink whose middle lies at least this share of the typical glyph toward the page's right is set off as a small
    /// kana's (measured: small kana 0.065–0.21, full-size kana −0.12–0.047).
    static let minOffset = 0.07
    /// A line whose full-size characters' middles spread (their mean distance from the median) more than this share of
    /// the typical glyph is not set straight: nothing on it is changed (measured on the sweep's tategaki lines:
    /// 0.007–0.049).
    static let maxSpread = 0.06
    /// On a line of one or two full-size characters, whose straightness cannot be told: the bounds a kana must meet.
    static let shortLineSide = 0.8, shortLineOffset = 0.1

    /// `text` with its kana read full-size where their ink is a small kana's set in their small forms (`ink`: the
    /// line's ink around `text`'s character centres, `SmallKana.LineInk(text, line:)` on the crop `text` was read
    /// from, turned as read; it depends on the centres only, so the text re-formed keeps it).
    static func reform(_ text: RecognisedText, ink: SmallKana.LineInk) -> RecognisedText {
        var characters = text.characters
        // A cell whose ink reaches the crop's end may be cut short there (measured small though it is not): left
        // out, as is the line's first character (a small kana does not begin a line: 行頭禁則). Seen on the sweep:
        // ゆ read ゅ at a 10 px column's top, つ read っ at the end of one under salt-and-pepper noise.
        let measured = ink.centres.indices.map { i -> (side: Double, offset: Double)? in
            guard let box = ink.ink(around: ink.centres[i]), i > 0, box.x0 > 0, Double(box.x1) < ink.width - 1 else { return nil }
            return ink.measure(box)
        }
        // The line's middle and straightness, from the characters whose ink is a full-size glyph's.
        let full = measured.compactMap { $0 }.filter { $0.side > smallSide }.map(\.offset)
        guard !full.isEmpty else { return text }
        let centre = SmallKana.LineInk.median(full)
        let spread = full.map { abs($0 - centre) }.reduce(0, +) / Double(full.count)
        let short = full.count < 3
        guard short || spread <= maxSpread else { return text }
        let (maxSide, leastOffset) = short ? (shortLineSide, shortLineOffset) : (smallSide, minOffset)
        var changed = false
        for i in characters.indices {
            guard let m = measured[i], let c = characters[i].text.first, characters[i].text.count == 1,
                  let small = SmallKana.smallForms[c] else { continue }
            guard m.side <= maxSide, m.side >= SmallKana.minKanaSide, m.offset - centre >= leastOffset else { continue }
            characters[i].text = String(small)
            characters[i].foundBy = SmallKana.foundBy
            changed = true
        }
        return changed ? RecognisedText(characters: characters, characterCentres: text.characterCentres) : text
    }
}
