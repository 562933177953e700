import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// hOCR 1.2 (`<stem>.hocr`, XHTML; kba.github.io/hocr-spec/1.2).
///
/// One `ocr_page` (`image`, `bbox`, `ppageno`) holding one `ocr_carea` and `ocr_par` with the lines in reading
/// order (element order is reading order). Each `ocr_line` has its `bbox`, its outline as `poly` when it is not
/// the box, `x_wconf` (mean character probability, %), and vertical lines `writing-mode: vertical-rl` (hOCR leaves
/// writing direction to CSS); its words are `ocrx_word`s (a line without white space is one) with `x_wconf` and
/// `x_confs` (each character's probability, %). docs/formats.md, "hOCR".
enum HOCRWriter {
    static func document(_ page: PageResult) -> Data {
        XMLOutput.data(compactEmpty: true) { tree(page) }
    }

    private static func tree(_ page: PageResult) -> XMLElement {
        let root = XMLElement("html", ["xml:lang": "ja", "lang": "ja"])
        root.declare("", "http://www.w3.org/1999/xhtml")
        let head = root.add("head")
        head.add("title", text: (page.source.path as NSString).lastPathComponent)
        head.add("meta", ["http-equiv": "Content-Type", "content": "text/html; charset=utf-8"])
        head.add("meta", ["name": "ocr-system", "content": "KotenOCR \(EngineVersion.current)"])
        head.add("meta", ["name": "ocr-capabilities", "content": "ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_poly ocrp_wconf"])
        head.add("meta", ["name": "ocr-number-of-pages", "content": "1"])
        head.add("meta", ["name": "ocr-langs", "content": "ja"])
        head.add("meta", ["name": "ocr-scripts", "content": "Jpan"])
        let body = root.add("body")
        let pageTitle = "image \"\(page.source.path.replacingOccurrences(of: "\"", with: "%22"))\"; "
            + "bbox 0 0 \(page.source.width) \(page.source.height); ppageno \(page.source.page - 1)"
        let pageElement = body.add("div", ["class": "ocr_page", "id": "page_1", "title": pageTitle])
        let lines = page.formatLines
        guard let union = PageResult.Box.union(lines.map(\.box)) else { return root }
        let area = pageElement.add("div", ["class": "ocr_carea", "id": "block_1", "title": bbox(union)])
        let paragraph = area.add("p", ["class": "ocr_par", "id": "par_1", "title": bbox(union)])
        if page.orientation == LineOrientation.vertical.rawValue { paragraph.set("style", "writing-mode: vertical-rl") }
        for line in lines { paragraph.addChild(ocrLine(line)) }
        return root
    }

    private static func ocrLine(_ line: FormatLine) -> XMLElement {
        var title = bbox(line.box)
        if !line.outlineIsBox {
            title += "; poly " + line.corners.map { "\(Int($0.x.rounded())) \(Int($0.y.rounded()))" }.joined(separator: " ")
        }
        if let confidence = line.line.confidence { title += "; x_wconf \(percent(confidence))" }
        let element = XMLElement("span", ["class": "ocr_line", "id": "line_\(line.number)", "title": title])
        if line.isVertical { element.set("style", "writing-mode: vertical-rl") }
        let words = line.words
        for (index, word) in words.enumerated() {
            if index > 0 { element.addChild(XMLNode.text(withStringValue: " ") as? XMLNode ?? XMLNode(kind: .text)) }
            var wordTitle = bbox(words.count == 1 ? line.box : estimatedBox(line, word))
            if let confidence = word.confidence {
                wordTitle += "; x_wconf \(percent(confidence)); x_confs "
                    + word.characters.map { percent($0.confidence) }.joined(separator: " ")
            }
            element.add("span", ["class": "ocrx_word", "id": "word_\(line.number)_\(index + 1)", "title": wordTitle], text: word.text)
        }
        return element
    }

    /// A word's box when the line has several: the line's outline cut evenly (hOCR's words need a box).
    private static func estimatedBox(_ line: FormatLine, _ word: FormatLine.Word) -> PageResult.Box {
        let corners = line.estimatedOutline(of: word.start..<(word.start + max(1, word.characters.count)))
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let x0 = Int((xs.min() ?? 0).rounded(.down)), y0 = Int((ys.min() ?? 0).rounded(.down))
        return PageResult.Box(x: x0, y: y0, width: Int((xs.max() ?? 0).rounded(.up)) - x0,
                              height: Int((ys.max() ?? 0).rounded(.up)) - y0)
    }

    private static func bbox(_ box: PageResult.Box) -> String {
        "bbox \(box.x) \(box.y) \(box.x + box.width) \(box.y + box.height)"
    }

    private static func percent(_ confidence: Float) -> String { FormatNumber.decimal(Double(confidence) * 100, digits: 2) }
}
