import Foundation
@testable import KotenOCRKit

/// Runs one NDL case stage by stage against its goldens; throws the first `Mismatch`.
enum NDLParityRunner {
    static func run(_ c: ParityCase) async throws -> String? {
        let raw = try RawOutputs(c)
        let detections = try DEIMPostprocess.detections(
            labels: raw.ints("labels"), boxes: raw.floats("boxes"), scores: raw.floats("scores"),
            charCounts: raw.ints("char_count"), paddedSize: raw.paddedSize)
        try compareDetections(detections, c)
        let (width, height) = try raw.imageSize
        let name = try raw.imageName
        let template = NDLLayout.template(detections: detections, imageWidth: width, imageHeight: height, imageName: name)
        try Compare.text(template, Compare.golden(c, "stage_layout.xml"), "stage_layout.xml")
        try compareXYCut(c, layoutTemplate: template)
        var page = try NDLPage.orderedPage(detections: detections, imageWidth: width, imageHeight: height, imageName: name)
        try Compare.text(stageOrderedString(page), Compare.golden(c, "stage_ordered.xml"), "stage_ordered.xml")

        let lines = NDLPage.recognitionLines(in: &page, detections: detections)
        let recogniser = try TraceCascadeRecogniser(trace: c.file("cascade_trace.json"))
        let strings = try await NDLCascade.read(lines: lines, imageWidth: width, imageHeight: height, reader: recogniser.read)
        try Compare.equal(recogniser.calls, recogniser.expectedCalls, "recogniser calls")
        page.setLineStrings(strings)

        guard let stem = c.stem else { throw Mismatch(description: "no <stem>.xml golden") }
        let image = ImageInfo(width: width, height: height, path: name, name: name)
        try Compare.text(PageOutput.xml(page: page), Compare.golden(c, "\(stem).xml"), "\(stem).xml")
        try Compare.text(PageOutput.text(strings: strings), Compare.golden(c, "\(stem).txt"), "\(stem).txt")
        try Compare.text(PageOutput.json(page: page, image: image, style: .ndl), Compare.golden(c, "\(stem).json"), "\(stem).json")
        return nil
    }

    /// `stages.json` detections: class index, float32 confidence, integer box, char-count class.
    static func compareDetections(_ detections: [NDLDetection], _ c: ParityCase) throws {
        let stages = try JSONAccess.dict(Fixtures.json(c.file("stages.json")))
        let expected = try JSONAccess.array(stages["detections"]).map { v -> String in
            let d = try JSONAccess.dict(v)
            return "\(try JSONAccess.int(d["class_index"])) \(Float(try JSONAccess.double(d["confidence"]))) "
                + "\(try JSONAccess.box(d["box"])) \(try JSONAccess.int(d["pred_char_count"]))"
        }
        let actual = detections.map { d in
            "\(d.classIndex) \(d.confidence) \([d.box.x1, d.box.y1, d.box.x2, d.box.y2]) \(Int(d.charCountClass))"
        }
        try Compare.equal(actual.count, expected.count, "detection count")
        for (i, (a, e)) in zip(actual, expected).enumerated() { try Compare.equal(a, e, "detection \(i)") }
    }
}
