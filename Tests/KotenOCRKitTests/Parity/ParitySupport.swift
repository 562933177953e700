import Foundation
@testable import KotenOCRKit

/// The first difference found while comparing a case stage by stage.
struct Mismatch: Error, CustomStringConvertible {
    let description: String
}

enum Compare {
    /// Throws a `Mismatch` naming the first differing position with some context.
    static func text(_ actual: String, _ expected: String, _ what: String) throws {
        guard actual != expected else { return }
        let a = Array(actual.unicodeScalars), e = Array(expected.unicodeScalars)
        var i = 0
        while i < a.count, i < e.count, a[i] == e[i] { i += 1 }
        func snippet(_ s: [Unicode.Scalar]) -> String {
            let lo = max(0, i - 20), hi = min(s.count, i + 30)
            var out = ""
            out.unicodeScalars.append(contentsOf: s[lo..<hi])
            return out.debugDescription
        }
        throw Mismatch(description: "\(what) differs at scalar \(i): got \(snippet(a)), expected \(snippet(e))")
    }

    static func equal<T: Equatable>(_ actual: T, _ expected: T, _ what: String) throws {
        guard actual != expected else { return }
        throw Mismatch(description: "\(what): got \(actual), expected \(expected)")
    }

    /// The golden file as UTF-8 text.
    static func golden(_ c: ParityCase, _ name: String) throws -> String {
        guard let s = String(data: try Fixtures.data(c.file(name)), encoding: .utf8) else {
            throw Mismatch(description: "\(name) is not UTF-8")
        }
        return s
    }
}

/// `raw_outputs.json` of a case.
struct RawOutputs {
    let json: [String: Any]

    init(_ c: ParityCase) throws { json = try JSONAccess.dict(Fixtures.json(c.file("raw_outputs.json"))) }
    init(json: [String: Any]) { self.json = json }

    func floats(_ key: String) throws -> [Float] {
        try JSONAccess.flatNumbers(JSONAccess.dict(json[key], key)["data"]).map { Float($0.doubleValue) }
    }

    func ints(_ key: String) throws -> [Int64] {
        try JSONAccess.flatNumbers(JSONAccess.dict(json[key], key)["data"]).map { $0.int64Value }
    }

    var imageName: String { get throws { try JSONAccess.string(json["image"], "image") } }
    var paddedSize: Int { get throws { try JSONAccess.int(json["padded_square_S"], "padded_square_S") } }
    var imageSize: (width: Int, height: Int) {
        get throws {
            let wh = try JSONAccess.box(json["image_wh"])
            return (wh[0], wh[1])
        }
    }
}

extension ParityCase {
    /// The output stem: the golden `<stem>.xml` that is not a stage file.
    var stem: String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.first { $0.hasSuffix(".xml") && !$0.hasPrefix("stage_") && !$0.hasSuffix("_tei.xml") }
            .map { String($0.dropLast(4)) }
    }

    var referenceError: String? {
        guard exists("reference_error.json"),
              let d = try? JSONAccess.dict(Fixtures.json(file("reference_error.json"))) else { return nil }
        return d["exception"] as? String
    }
}

/// "<OCRDATASET>" + PAGE (with tail) + "</OCRDATASET>": how `stage_ordered.xml` was written.
func stageOrderedString(_ page: PageNode) -> String {
    "<OCRDATASET>" + ElementTreeSerializer.string(page) + "</OCRDATASET>"
}

/// The LINE boxes and XY-cut ranks recorded in `stages.json`, checked against the ordered page.
func compareXYCut(_ c: ParityCase, layoutTemplate: String) throws {
    let stages = try JSONAccess.dict(Fixtures.json(c.file("stages.json")))
    guard let xycut = stages["xycut"] as? [String: Any] else { return }
    let expectedBoxes = try JSONAccess.array(xycut["input_boxes_xyxy_document_order"]).map { try JSONAccess.box($0) }
    let expectedRanks = try JSONAccess.array(xycut["ranks"]).map { try JSONAccess.int($0) }
    guard let page = try LayoutTemplate.parse(layoutTemplate).first else { throw Mismatch(description: "no PAGE") }
    let boxes = page.lines.map(\.lineBox)
    try Compare.equal(boxes.map { [$0.x1, $0.y1, $0.x2, $0.y2] }, expectedBoxes, "xycut input boxes")
    try Compare.equal(XYCut.readingRanks(of: boxes), expectedRanks, "xycut ranks")
}
