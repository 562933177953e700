/// NDLOCR-Lite page logic: layout, reading order and the lines to read.
///
/// A page goes: `DEIMPostprocess.detections` → `NDLPage.orderedPage` →
/// `NDLPage.recognitionLines` → `NDLCascade.read` → `PageNode.setLineStrings` → `ReferencePage`
/// (written by `ResultFormat.render`: `PageOutput.xml`, `.text`, `.json` with `jsonStyle`).
package enum NDLPage {
    /// How NDLOCR-Lite writes its per-page JSON (`ModeDescriptor.referenceJSON`, `ReferencePage.jsonStyle`).
    static let jsonStyle = ReferenceJSONStyle.ndl

    /// The ordered page tree: layout template parsed, ORDER set by XY-cut, lines sorted, duplicates removed,
    /// 割注 grouped, order smoothed. `style` `ndl`: the reference's `stage_ordered.xml` exactly; `page`: XY-cut
    /// leaves sorted by writing direction (`OCRConfiguration.ReadingOrderStyle`).
    /// - Throws: only if the layout template cannot be parsed (an internal error).
    public static func orderedPage(detections: [NDLDetection], imageWidth: Int, imageHeight: Int,
                                   imageName: String, style: OCRConfiguration.ReadingOrderStyle) throws -> PageNode {
        try LayoutTemplate.orderedPage(NDLLayout.template(detections: detections, imageWidth: imageWidth,
                                                          imageHeight: imageHeight, imageName: imageName),
                                       options: .ndl, style: style)
    }

    /// The LINEs to recognise in document order. When the page has no LINE but there are
    /// detections, every detection with a positive size is appended to the page as a LINE
    /// (TYPE = English class name, CONF, PRED_CHAR_CNT, no ORDER) first (parity README N9).
    public static func recognitionLines(in page: inout PageNode, detections: [NDLDetection]) -> [RecognitionLine] {
        if page.lines.isEmpty && !detections.isEmpty {
            for d in detections where d.box.width > 0 && d.box.height > 0 {
                let name = NDLClass.all.indices.contains(d.classIndex) ? NDLClass.all[d.classIndex].name : ""
                page.children.append(PageNode(tag: "LINE", attributes: [
                    .init(name: "TYPE", value: name), .init(name: "X", value: String(d.box.x1)),
                    .init(name: "Y", value: String(d.box.y1)), .init(name: "WIDTH", value: String(d.box.width)),
                    .init(name: "HEIGHT", value: String(d.box.height)),
                    .init(name: "CONF", value: LayoutTemplate.fixed3(Double(d.confidence))),
                    .init(name: "PRED_CHAR_CNT", value: LayoutTemplate.fixed3(d.charCountClass)),
                ]))
            }
        }
        return page.lines.map { RecognitionLine(box: $0.lineBox, charCountClass: $0.double("PRED_CHAR_CNT") ?? 100) }
    }
}
