import Foundation

/// A page's correction layer as the exports take it (issue 36, docs/formats.md "Corrected text"): the page's text
/// lines in reading order after a proofreader's work. Each line of the engine's reading is listed with its
/// corrected text (or as read), a line left out is one marked as not text, and lines the proofreader added (a
/// region drawn, read by the engine, then corrected) stand where they belong. `PageResult.applying(_:)` makes the
/// page every writer then writes, so that the writers stay the only writers of each format; the engine's text of
/// a corrected line is kept as `TextLine.modelText`, which the formats with room for two readings also write
/// (PAGE a second `TextEquiv`, ALTO an `ALTERNATIVE`, JSON `modelText`).
package struct PageCorrections: Sendable, Equatable {
    /// One line of the corrected page.
    public enum Line: Sendable, Equatable {
        /// Line `index` of the engine's reading (0-based among `PageResult.textLines`, reading order) with its
        /// current text (nil: as the engine read it).
        case read(index: Int, text: String?)
        /// A line a proofreader added.
        case added(AddedLine)
    }

    /// A line a proofreader added: its region in page pixels (upright), its current text and the engine's reading
    /// of the region.
    public struct AddedLine: Sendable, Equatable {
        public var box: PageResult.Box
        /// Outline, corners clockwise from the top-left, as `[x, y]` pairs; empty: the box.
        public var polygon: [[Double]]
        /// "vertical" or "horizontal"; nil: from the box (height ≥ 1.5 × width is vertical).
        public var orientation: String?
        public var text: String
        public var modelText: String
        public var confidence: Float?

        public init(box: PageResult.Box, polygon: [[Double]] = [], orientation: String? = nil, text: String,
                    modelText: String, confidence: Float? = nil) {
            self.box = box; self.polygon = polygon; self.orientation = orientation; self.text = text
            self.modelText = modelText; self.confidence = confidence
        }
    }

    /// The page's text lines in reading order; a line of the engine's reading not listed is not text (left out).
    public var lines: [Line]

    public init(lines: [Line]) { self.lines = lines }

    /// Every line of a reading of `count` text lines as read: `applying` it gives the page unchanged.
    public static func unchanged(lineCount count: Int) -> PageCorrections {
        PageCorrections(lines: (0..<count).map { .read(index: $0, text: nil) })
    }
}

/// A page's corrections name a line the page does not have.
package struct PageCorrectionsError: Error, Equatable, CustomStringConvertible {
    /// The index named, and how many text lines the page has.
    public let index: Int
    public let lineCount: Int
    public var description: String {
        "the corrections name text line \(index + 1), and the page has \(lineCount): they are not this reading's"
    }
}

extension PageResult {
    /// The page with `corrections` applied: its text lines those the corrections list, in their order, each with
    /// its current text (the engine's kept as `modelText` where it differs, and the recogniser's per-character
    /// probabilities no longer spelling it, so the formats give the corrected line no character confidences), the
    /// added lines in their place (no characters, detection score 0), `readingOrder` renumbered from 0 and each ruby
    /// line's `annotates` following its body line (a ruby line whose body line is left out goes with it). Lines flagged
    /// `lowConfidence` stay after the others, as the JSON lists them. The reference tree of the `ndl` and `koten`
    /// modes (the engine's text) is dropped when anything changed, so that no format writes the engine's text for a
    /// corrected page. Throws `PageCorrectionsError` when a line's index is past the page's text lines.
    package func applying(_ corrections: PageCorrections) throws -> PageResult {
        let text = textLines
        var page = self
        // Each line of the corrected page with the engine's readingOrder it came from (nil: added).
        var entries: [(line: TextLine, origin: Int?)] = []
        var changed = corrections.lines.count != text.count
        for (position, entry) in corrections.lines.enumerated() {
            switch entry {
            case .read(let index, let current):
                guard text.indices.contains(index) else { throw PageCorrectionsError(index: index, lineCount: text.count) }
                var line = text[index]
                if index != position { changed = true }
                if let current, current != line.text {
                    line.modelText = line.text
                    line.text = current
                    changed = true
                }
                entries.append((line, line.readingOrder))
            case .added(let added):
                changed = true
                let vertical = added.orientation.map { $0 == LineOrientation.vertical.rawValue }
                    ?? (Double(added.box.height) >= 1.5 * Double(added.box.width))
                entries.append((TextLine(readingOrder: 0, text: added.text, confidence: added.confidence, characters: [],
                                         orientation: vertical ? LineOrientation.vertical.rawValue : LineOrientation.horizontal.rawValue,
                                         detectionScore: 0, box: added.box, polygon: added.polygon, kind: nil, annotates: nil,
                                         modelText: added.text == added.modelText ? nil : added.modelText, added: true), nil))
            }
        }
        guard changed else { return self }
        // A ruby line whose body line is not text any more goes with it.
        let origins = Set(entries.compactMap(\.origin))
        entries.removeAll { entry in entry.line.annotates.map { !origins.contains($0.line) } ?? false }
        var renumbered: [Int: Int] = [:]  // the engine's readingOrder → the corrected page's
        for (i, entry) in entries.enumerated() { if let origin = entry.origin { renumbered[origin] = i } }
        var lines: [TextLine] = []
        for (i, entry) in entries.enumerated() {
            var line = entry.line
            line.readingOrder = i
            if let target = line.annotates, let n = renumbered[target.line] {
                line.annotates = RubyTarget(line: n, start: target.start, end: target.end)
            }
            lines.append(line)
        }
        for var line in self.lines where line.lowConfidence == true {
            line.readingOrder = lines.count
            lines.append(line)
        }
        page.lines = lines
        page.reference = nil
        return page
    }
}
