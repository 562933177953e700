import Foundation

/// The invisible text of one PDF page (text render mode 3): one text object per line, in reading order, fitted to
/// the line's box along its whole length, and the page's characters numbered as CIDs for its font.
///
/// Every glyph of the horizontal font (`Identity-H`) is one em wide (`/DW 1000`) from 0.12 em below its baseline
/// to 0.88 em above; a horizontal line is set in it at the box's height, from its left edge, its baseline 0.12 em
/// above the bottom, scaled horizontally (`Tz`) so its glyphs span the box's width. Every glyph of the vertical
/// font (`Identity-V`) advances one em down (`/DW2 [0 -1000]`) and stands in the em square above and right of
/// its origin, its vertical origin being its horizontal one (`/DW 0`, `vy` 0): where PDF's vertical metrics put it
/// and where poppler (which ignores vertical origins) puts it agree. A vertical line is set in it from the box's
/// top-left, at the box's width (smaller if the glyphs would not fit its height), its glyphs spaced (`Tc`) to span
/// the box's height, so the column selects as a column.
/// The characters are the text's grapheme clusters; CID n is the n-th distinct one on the page, and the
/// font's ToUnicode CMap maps it back to its text.
struct PDFTextLayer {
    /// The page's characters: CID i + 1 is `characters[i]`.
    private(set) var characters: [String] = []
    private var cids: [String: Int] = [:]
    /// The content stream operators (after the image is drawn).
    private(set) var operators = ""

    /// The text of `lines` on a page of `pageHeight` points, page pixels scaled by `scale` (points per pixel,
    /// x and y). Lines with no text, or past the 65535 CIDs a page's font can number, are left out.
    init(lines: [FormatLine], pageHeight: Double, scale: (x: Double, y: Double)) {
        for line in lines {
            let glyphs = line.line.text.map(String.init)
            guard !glyphs.isEmpty, let codes = codes(glyphs) else { continue }
            let b = line.box
            let (x, y) = (Double(b.x) * scale.x, pageHeight - Double(b.y) * scale.y)
            let (width, height) = (Double(b.width) * scale.x, Double(b.height) * scale.y)
            guard width > 0, height > 0 else { continue }
            let n = Double(glyphs.count)
            let f = FormatNumber.self
            if line.isVertical {
                let size = min(width, height / n)
                operators += "BT 3 Tr /FV \(f.decimal(size)) Tf 100 Tz \(f.decimal(size - height / n)) Tc "
                    + "1 0 0 1 \(f.decimal(x)) \(f.decimal(y - size)) Tm <\(codes)> Tj ET\n"
            } else {
                let size = height
                operators += "BT 3 Tr /FH \(f.decimal(size)) Tf \(f.decimal(100 * width / (n * size))) Tz 0 Tc "
                    + "1 0 0 1 \(f.decimal(x)) \(f.decimal(y - height + 0.12 * size)) Tm <\(codes)> Tj ET\n"
            }
        }
    }

    /// The hex string of `glyphs`' CIDs (two bytes each), numbering new ones; nil when the page has run out.
    private mutating func codes(_ glyphs: [String]) -> String? {
        var hex = ""
        for glyph in glyphs {
            let cid: Int
            if let known = cids[glyph] {
                cid = known
            } else {
                guard characters.count < 0xFFFF else { return nil }
                characters.append(glyph)
                cid = characters.count
                cids[glyph] = cid
            }
            hex += String(format: "%04X", cid)
        }
        return hex
    }

    /// The ToUnicode CMap of `characters` (CID i + 1 → its UTF-16BE text).
    static func toUnicode(_ characters: [String]) -> String {
        var cmap = """
        /CIDInit /ProcSet findresource begin
        12 dict begin
        begincmap
        /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
        /CMapName /KotenOCR-UCS def
        /CMapType 2 def
        1 begincodespacerange
        <0000> <FFFF>
        endcodespacerange

        """
        var start = 0
        while start < characters.count {
            let chunk = characters[start..<min(characters.count, start + 100)]
            cmap += "\(chunk.count) beginbfchar\n"
            for (offset, text) in chunk.enumerated() {
                let utf16 = text.utf16.map { String(format: "%04X", $0) }.joined()
                cmap += String(format: "<%04X> <", start + offset + 1) + utf16 + ">\n"
            }
            cmap += "endbfchar\n"
            start += 100
        }
        cmap += "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
        return cmap
    }
}
