/// The NDLOCR-Lite page builder: detections → the reference's XML template → page tree.
///
/// reference: docs/reference-pipelines.md §1.3; parity README N3–N7, `stage_layout.xml`;
/// NDL `ndl_parser.py` `convert_to_xml_string3` (score_thr 0.1, min size 5, block_ad on).
package enum NDLLayout {
    /// The layout string the reference builds (byte-identical to `stage_layout.xml`), before
    /// parsing. Emission order: 表組 BLOCKs with their LINEs, 広告 BLOCKs with their LINEs,
    /// TEXTBLOCKs, independent LINEs, then every other `block_*` as an empty BLOCK.
    ///
    /// - Parameters:
    ///   - detections: post-processed DEIM detections in score order.
    ///   - imageWidth, imageHeight: the decoded page size in pixels.
    ///   - imageName: the file name written as IMAGENAME.
    public static func template(detections: [NDLDetection], imageWidth: Int, imageHeight: Int,
                                imageName: String, scoreThreshold: Double = 0.1, minBoxSize: Int = 5) -> String {
        var res = Array(repeating: [NDLDetection](), count: NDLClass.all.count)
        for d in detections where NDLClass.all.indices.contains(d.classIndex) { res[d.classIndex].append(d) }
        let rel = NDLLayoutRelations(byClass: res, scoreThreshold: scoreThreshold)
        var s = LayoutTemplate.pageHead(imageName: imageName, width: imageWidth, height: imageHeight)

        func isLow(_ d: NDLDetection) -> Bool { Double(d.confidence) < scoreThreshold }
        func typeOf(_ c: Int) -> String { NDLClass.all[c].type }
        func detectedLine(_ m: NDLLayoutRelations.Member, indent: String) -> String {
            let d = res[m.classIndex][m.index]
            return isLow(d) ? "" : LayoutTemplate.line(indent: indent, type: typeOf(m.classIndex), box: d.box,
                                                       conf: Double(d.confidence), predCharCount: d.charCountClass)
        }
        func blockHead(_ type: String, _ d: NDLDetection) -> String {
            "<BLOCK TYPE=\"\(type)\" X=\"\(d.box.x1)\" Y=\"\(d.box.y1)\" WIDTH=\"\(d.box.width)\" "
                + "HEIGHT=\"\(d.box.height)\" CONF = \"\(LayoutTemplate.fixed3(Double(d.confidence)))\">\n"
        }
        func bigEnough(_ b: PixelBox) -> Bool { b.width >= minBoxSize && b.height >= minBoxSize }

        for (i, table) in res[NDLClass.blockTable].enumerated() {
            s += blockHead(typeOf(NDLClass.blockTable), table)
            for m in rel.tableBlocks[i] { s += detectedLine(m, indent: "      ") }
            s += "    </BLOCK>\n"
        }
        for (i, ad) in res[NDLClass.blockAd].enumerated() {
            s += "  " + blockHead(typeOf(NDLClass.blockAd), ad)
            for m in rel.adBlocks[i] { s += detectedLine(m, indent: "      ") }
            s += "    </BLOCK>\n"
        }
        for (j, members) in rel.textBlocks.enumerated() {
            guard let members else { continue }
            let poly = rel.polygons[j]
            // CONF by position in the unfiltered text block list (N3).
            s += "  <TEXTBLOCK CONF = \"\(LayoutTemplate.fixed3(Double(res[NDLClass.textBlock][j].confidence)))\">\n"
            s += "    <SHAPE><POLYGON POINTS = \""
                + NDLLayoutRelations.corners(poly).map { "\($0.0),\($0.1)" }.joined(separator: ",")
                + "\"/></SHAPE>\n"
            if members.isEmpty {
                if bigEnough(poly) {
                    s += LayoutTemplate.line(indent: "    ", type: typeOf(NDLClass.lineMain), box: poly,
                                             conf: nil, predCharCount: nil)
                }
            }
            for m in members {
                guard m.classIndex == NDLClass.textBlock else {
                    s += detectedLine(m, indent: "    ")
                    continue
                }
                // A nested line-less block is written as a LINE 本文 (N5).
                let d = res[NDLClass.textBlock][m.index]
                let box = rel.polygons[m.index]
                if !isLow(d), bigEnough(box) {
                    s += LayoutTemplate.line(indent: "    ", type: typeOf(NDLClass.lineMain), box: box,
                                             conf: Double(d.confidence), predCharCount: d.charCountClass)
                }
            }
            s += "  </TEXTBLOCK>\n"
        }
        for m in rel.independent { s += detectedLine(m, indent: "    ") }
        for c in NDLClass.all.indices where NDLClass.all[c].isBlock && c != NDLClass.blockTable {
            for d in res[c] where !isLow(d) {
                s += "  <BLOCK TYPE = \"\(typeOf(c))\" X = \"\(d.box.x1)\" Y = \"\(d.box.y1)\" "
                    + "WIDTH = \"\(d.box.width)\" HEIGHT = \"\(d.box.height)\" "
                    + "CONF = \"\(LayoutTemplate.fixed3(Double(d.confidence)))\"></BLOCK>\n"
            }
        }
        return s + "</PAGE>\n"
    }
}
