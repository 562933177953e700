/// NDL Koten OCR-Lite page logic: layout, reading order and the lines to read.
///
/// A page goes: `RTMDetPostprocess.detections` → `KotenPage.orderedPage` →
/// `KotenPage.recognitionLines` → `KotenRecognition.read` → `PageNode.setLineStrings` → `ReferencePage`
/// (written by `ResultFormat.render`: `PageOutput.xml`, `.text`, `.json` with `jsonStyle`); a batch with
/// `--format tei` adds every page to a `TEIRun` (`KotenTEI.document` over each page's `TEIPage`).
package enum KotenPage {
    /// How NDL Koten OCR-Lite writes its per-page JSON (`ModeDescriptor.referenceJSON`, `ReferencePage.jsonStyle`).
    static let jsonStyle = ReferenceJSONStyle.koten

    /// The ordered page tree: every detection a LINE under PAGE, ORDER by XY-cut, sorted, duplicates (> 0.9)
    /// removed; no 割注, no smoothing. `style` `ndl`: koten's `stage_ordered.xml` exactly; `page`: XY-cut leaves
    /// sorted by writing direction (`OCRConfiguration.ReadingOrderStyle`).
    /// - Throws: only if the layout template cannot be parsed (an internal error).
    public static func orderedPage(detections: [KotenDetection], imageWidth: Int, imageHeight: Int,
                                   imageName: String, style: OCRConfiguration.ReadingOrderStyle) throws -> PageNode {
        try LayoutTemplate.orderedPage(KotenLayout.template(detections: detections, imageWidth: imageWidth,
                                                            imageHeight: imageHeight, imageName: imageName),
                                       options: .koten, style: style)
    }

    /// The LINEs to recognise in document order.
    public static func recognitionLines(in page: PageNode) -> [RecognitionLine] {
        page.lines.map { RecognitionLine(box: $0.lineBox, charCountClass: 100) }
    }
}
