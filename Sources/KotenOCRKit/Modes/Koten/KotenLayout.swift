/// The NDL Koten OCR-Lite page builder: every detection is a bare LINE 本文 under PAGE.
///
/// reference: docs/reference-pipelines.md §2.3; koten `ndl_parser.py` `convert_to_xml_string3`
/// (score_thr 0.3, no text blocks, no block_ad).
package enum KotenLayout {
    /// The layout string the reference builds (byte-identical to koten `stage_layout.xml`).
    public static func template(detections: [KotenDetection], imageWidth: Int, imageHeight: Int,
                                imageName: String, scoreThreshold: Double = 0.3) -> String {
        var s = LayoutTemplate.pageHead(imageName: imageName, width: imageWidth, height: imageHeight)
        for d in detections where !(Double(d.confidence) < scoreThreshold) {
            s += LayoutTemplate.line(indent: "  ", type: NDLClass.all[NDLClass.lineMain].type, box: d.box,
                                     conf: Double(d.confidence), predCharCount: nil)
        }
        return s + "</PAGE>\n"
    }
}
