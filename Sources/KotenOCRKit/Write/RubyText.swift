extension ResultFormat {
    /// How a page's text shows its ruby (furigana): the lines the JSON marks `kind: "ruby"` (`PageResult.RubyTarget`).
    public enum RubyStyle: String, Sendable, CaseIterable, Hashable {
        /// The body text only (the default): readings are left out.
        case drop
        /// The body text as with `drop`, then an empty line, then one line per ruby line in reading order: the base
        /// characters, a tab, the reading (`図書館\tとしょかん`).
        case separate
        /// Aozora Bunko notation inside the body text: the reading in 《》 after its base, with ｜ before the base
        /// unless the base is a run of kanji that starts after a non-kanji (or at the line's start):
        /// `図書館《としょかん》`, `｜本を《ほんを》`. Ruby lines on the same characters are joined in reading order.
        case inline
    }
}

extension PageResult {
    /// The page's text: body lines in reading order, one per line, ruby as `ruby` says; only its `textLines`
    /// (lines flagged `lowConfidence` are left out).
    public func text(ruby: ResultFormat.RubyStyle) -> String {
        let lines = textLines
        let body = lines.filter { $0.annotates == nil }
        switch ruby {
        case .drop:
            return body.map(\.text).joined(separator: "\n")
        case .separate:
            let readings = lines.compactMap { line -> String? in
                guard let target = line.annotates, let base = self.line(at: target.line) else { return nil }
                return RubyText.base(base, target) + "\t" + line.text
            }
            let text = body.map(\.text).joined(separator: "\n")
            return readings.isEmpty ? text : text + "\n\n" + readings.joined(separator: "\n")
        case .inline:
            let rubies = Dictionary(grouping: lines.filter { $0.annotates != nil }, by: { $0.annotates?.line ?? -1 })
            return body.map { RubyText.inline($0, rubies: rubies[$0.readingOrder] ?? []) }.joined(separator: "\n")
        }
    }

    /// The line whose `readingOrder` is `order`.
    func line(at order: Int) -> TextLine? {
        lines.indices.contains(order) && lines[order].readingOrder == order ? lines[order] : lines.first { $0.readingOrder == order }
    }
}

/// Aozora Bunko ruby notation (https://www.aozora.gr.jp/annotation/etc.html#ruby): base《reading》, ｜ marking
/// where the base starts when it is not the run of kanji just before 《.
enum RubyText {
    /// The characters of `line` that `target` annotates.
    static func base(_ line: PageResult.TextLine, _ target: PageResult.RubyTarget) -> String {
        let chars = line.characters.map(\.text)
        let lo = min(max(0, target.start), chars.count), hi = min(max(lo, target.end), chars.count)
        return chars[lo..<hi].joined()
    }

    /// `line`'s text with its ruby lines (`rubies`, any order) written in after their bases.
    static func inline(_ line: PageResult.TextLine, rubies: [PageResult.TextLine]) -> String {
        let chars = line.characters.map(\.text)
        guard !rubies.isEmpty, !chars.isEmpty else { return line.text }
        // Merge ruby on overlapping characters (one reading detected in pieces), in reading order.
        var spans: [(start: Int, end: Int, reading: String)] = []
        for ruby in rubies.sorted(by: { ($0.annotates?.start ?? 0, $0.readingOrder) < ($1.annotates?.start ?? 0, $1.readingOrder) }) {
            guard let t = ruby.annotates else { continue }
            let start = min(max(0, t.start), chars.count), end = min(max(start + 1, t.end), chars.count)
            guard start < end else { continue }
            if let last = spans.last, start < last.end {
                spans[spans.count - 1] = (last.start, max(last.end, end), last.reading + ruby.text)
            } else {
                spans.append((start, end, ruby.text))
            }
        }
        var out = ""
        var next = 0
        for span in spans {
            out += chars[next..<span.start].joined()
            let base = chars[span.start..<span.end]
            let kanjiRun = base.allSatisfy(isKanji) && (span.start == 0 || !isKanji(chars[span.start - 1]))
            out += (kanjiRun ? "" : "｜") + base.joined() + "《" + span.reading + "》"
            next = span.end
        }
        return out + chars[next...].joined()
    }

    /// Whether `s` is one kanji as Aozora's rule counts them (CJK ideographs, 々, 〆, 〇, ヶ).
    static func isKanji(_ s: String) -> Bool {
        guard let scalar = s.unicodeScalars.first, s.unicodeScalars.count == 1 else { return false }
        switch scalar.value {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF: return true
        case 0x3005, 0x3006, 0x3007, 0x30F6: return true
        default: return false
        }
    }
}
