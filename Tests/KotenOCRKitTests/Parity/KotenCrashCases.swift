import Foundation
@testable import KotenOCRKit

/// Koten cases where the reference raised instead of writing files (parity README K3,
/// `reference_error.json`). This package deliberately produces the sensible result instead:
///
/// - ZeroDivisionError, no lines on the page: the empty page's outputs (PAGE without LINEs,
///   empty TXT, `contents: [[]]`, a TEI surface with only its graphic and a lone `pb`).
/// - IndexError, a single detector row (K = 1): that row is a line like any other; the page is
///   what the reference writes for the same row followed by a dropped one (K = 2).
/// - A batch whose first page is empty: every page is processed in the given order; the empty
///   page gets the empty outputs, the TEI has one surface per page.
enum KotenCrashCases {
    static func run(_ c: ParityCase, referenceError: String) async throws -> String? {
        if c.exists("batch_info.json") { return try await batch(c) }
        let raw = try RawOutputs(c)
        let recogniser = try AnswerTableRecogniser(c)
        let run = try await KotenParityRunner.runPage(raw: raw, recogniser: recogniser)
        switch referenceError {
        case "ZeroDivisionError":
            try compareStages(c, run.page)
            try expectEmptyPage(run)
            return "deliberate: empty page written where the reference raised \(referenceError)"
        case "IndexError":
            var dets = try raw.floats("dets")
            try Compare.equal(dets.count, 5, "K1 row count")
            dets += [0, 0, 1, 1, 0]  // a second row with score 0: dropped by the > 0.3 filter
            var json = raw.json
            json["dets"] = ["data": dets.map { Double($0) }]
            let twoRows = try await KotenParityRunner.runPage(raw: RawOutputs(json: json), recogniser: recogniser)
            try Compare.equal(run.page.lines.count, 1, "K1 line count")
            let (a, b) = (KotenParityRunner.outputs(run), KotenParityRunner.outputs(twoRows))
            try Compare.text(a.xml + a.txt + a.json + a.tei, b.xml + b.txt + b.json + b.tei, "K1 outputs vs K2")
            return "deliberate: the single row read as one line where the reference raised \(referenceError)"
        default:
            throw Mismatch(description: "no stated choice for reference error \(referenceError)")
        }
    }

    static func compareStages(_ c: ParityCase, _ page: PageNode) throws {
        var ordered = page
        for p in ordered.paths(of: "LINE") { ordered[path: p][attribute: "STRING"] = nil }
        try Compare.text(stageOrderedString(ordered), Compare.golden(c, "stage_ordered.xml"), "stage_ordered.xml")
    }

    /// The outputs of a page without lines, written out literally.
    static func expectEmptyPage(_ run: KotenParityRunner.PageRun) throws {
        let i = run.image
        let out = KotenParityRunner.outputs(run)
        try Compare.text(out.xml, "<OCRDATASET>\n<PAGE IMAGENAME=\"\(i.name)\" WIDTH=\"\(i.width)\" HEIGHT=\"\(i.height)\">\n"
            + "</PAGE>\n\n</OCRDATASET>", "empty page XML")
        try Compare.text(out.txt, "", "empty page TXT")
        try Compare.text(out.json, "{\n  \"contents\": [\n    []\n  ],\n  \"imginfo\": {\n    \"img_width\": \(i.width),\n"
            + "    \"img_height\": \(i.height),\n    \"img_path\": \"\(i.path)\",\n    \"img_name\": \"\(i.name)\"\n  }\n}",
            "empty page JSON")
        let surface = "    <surface>\n      <graphic url=\"\(i.path)\" width=\"\(i.width)px\" height=\"\(i.height)px\" />\n    </surface>\n"
        let body = "      <p>\n        <pb n=\"\(i.name)\" facs=\"#\(i.name)\" />\n      </p>\n"
        guard out.tei.contains(surface), out.tei.contains(body) else {
            throw Mismatch(description: "empty page TEI lacks the bare surface or the lone pb: \(out.tei)")
        }
    }

    /// Every page of the batch in processing order (the listed order, then the other pages by name).
    static func batch(_ c: ParityCase) async throws -> String? {
        let info = try JSONAccess.dict(Fixtures.json(c.file("batch_info.json")))
        let perImage = try JSONAccess.dict(info["raw_outputs_per_image"])
        let listed = try JSONAccess.array(info["processing_order"]).map { try JSONAccess.string($0) }
        let order = listed + perImage.keys.filter { !listed.contains($0) }.sorted()
        let top = try RawOutputs(c)
        let firstPage = try LayoutTemplate.parsePage(Compare.golden(c, "stage_layout.xml"))
        let recogniser = try AnswerTableRecogniser(c)
        var runs: [KotenParityRunner.PageRun] = []
        for name in order {
            var json = try JSONAccess.dict(perImage[name])
            json["image"] = name
            if name == (try top.imageName) {
                json["image_wh"] = top.json["image_wh"]
            } else if name == firstPage[attribute: "IMAGENAME"], let w = firstPage.int("WIDTH"), let h = firstPage.int("HEIGHT") {
                json["image_wh"] = [w, h]
            }
            let wh = try JSONAccess.box(json["image_wh"])
            json["padded_square_S"] = max(wh[0], wh[1])
            runs.append(try await KotenParityRunner.runPage(raw: RawOutputs(json: json), recogniser: recogniser))
        }
        try Compare.equal(runs.first?.image.name, listed.first, "first page")
        try compareStages(c, runs[0].page)
        try expectEmptyPage(runs[0])
        let later = runs.dropFirst().map { $0.page.lines.count }
        guard later.allSatisfy({ $0 > 0 }) else { throw Mismatch(description: "later pages without lines: \(later)") }
        let tei = KotenTEI.document(pages: runs.map { TEIPage(page: $0.page, image: $0.image) })
        try Compare.equal(tei.components(separatedBy: "<surface>").count - 1, runs.count, "TEI surfaces")
        try Compare.equal(tei.contains("L0000_000"), false, "zone on the empty first page")
        try Compare.equal(tei.contains("xml:id=\"L0001_000\""), true, "first zone of the second page")
        return "deliberate: batch written page by page where the reference raised on its empty first page"
    }
}
