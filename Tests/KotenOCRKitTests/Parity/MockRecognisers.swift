import Foundation
@testable import KotenOCRKit

/// NDL mock: answers each (model, crop) from `cascade_trace.json` and records the calls.
final class TraceCascadeRecogniser: @unchecked Sendable {
    struct Call: Hashable, CustomStringConvertible {
        let model: String
        let crop: [Int]  // x, y, w, h
        var description: String { "\(model)\(crop)" }
    }

    private var answers: [Call: String] = [:]
    /// The calls the reference made, in its stage order (reconstructed from the per-line trace).
    private(set) var expectedCalls: [Call] = []
    private let lock = NSLock()
    private var made: [Call] = []
    var calls: [Call] { lock.withLock { made } }

    init(trace url: URL) throws {
        let lines = try JSONAccess.array(JSONAccess.dict(Fixtures.json(url))["lines"])
        var perLine: [[Call]] = []
        for line in lines {
            var calls: [Call] = []
            for value in try JSONAccess.array(JSONAccess.dict(line)["calls"]) {
                let call = try JSONAccess.dict(value)
                let c = Call(model: try JSONAccess.string(call["model"]), crop: try JSONAccess.box(call["crop_box_xywh"]))
                answers[c] = try JSONAccess.string(call["returned"])
                calls.append(c)
            }
            perLine.append(calls)
        }
        expectedCalls = Self.stageOrder(perLine)
    }

    /// The reference's call order: rec30 lines; rec50 lines then lines escalated from rec30;
    /// rec100 lines then lines escalated from rec50; then the split halves.
    private static func stageOrder(_ perLine: [[Call]]) -> [Call] {
        let all = perLine.indices.filter { !perLine[$0].isEmpty }
        func first(_ m: String) -> [Int] { all.filter { perLine[$0][0].model == m } }
        let l30 = first("rec30")
        let l50 = first("rec50") + l30.filter { perLine[$0].count > 1 }
        func step(_ i: Int) -> Int { perLine[i][0].model == "rec30" ? 1 : 0 }
        let l100 = first("rec100") + l50.filter { perLine[$0].count > 1 + step($0) }
        func at(_ i: Int, _ k: Int) -> Call { perLine[i][k] }
        var order = l30.map { at($0, 0) } + l50.map { at($0, step($0)) }
        let firstHundred = l100.map { i in perLine[i].firstIndex { $0.model == "rec100" } ?? 0 }
        order += zip(l100, firstHundred).map { at($0, $1) }
        for (i, k) in zip(l100, firstHundred) where perLine[i].count > k + 1 { order += perLine[i][(k + 1)...] }
        return order
    }

    struct UnexpectedCall: Error, CustomStringConvertible {
        let call: Call
        var description: String { "recogniser called with \(call), which the reference never read" }
    }

    func read(model: CascadeModel, crop: PixelBox) async throws -> String {
        let call = Call(model: model.rawValue, crop: [crop.x1, crop.y1, crop.width, crop.height])
        lock.withLock { made.append(call) }
        guard let answer = answers[call] else { throw UnexpectedCall(call: call) }
        return answer
    }
}

/// Koten mock: the crop the reference read (`recogniser_trace.json`) gives its answer; any other
/// crop gets the text of the `recogniser_answers.json` table entry with the highest IoU (the
/// fixture's own rule), "" when nothing overlaps.
struct AnswerTableRecogniser: Sendable {
    let traced: [[Int]: String]
    let table: [(box: PixelBox, text: String)]

    init(_ c: ParityCase) throws {
        var traced: [[Int]: String] = [:]
        if c.exists("recogniser_trace.json") {
            for line in try JSONAccess.array(JSONAccess.dict(Fixtures.json(c.file("recogniser_trace.json")))["lines"]) {
                let d = try JSONAccess.dict(line)
                if let crop = d["numpy_crop_box_xywh"] as? [Any] {
                    traced[try crop.map { try JSONAccess.int($0) }] = try JSONAccess.string(d["returned"])
                }
            }
        }
        self.traced = traced
        let answers = try JSONAccess.dict(Fixtures.json(c.file("recogniser_answers.json")))
        if let rows = answers["table"] as? [Any] {
            table = try rows.map { entry in
                let d = try JSONAccess.dict(entry)
                let b = try JSONAccess.box(d["box_xywh"])
                return (PixelBox(x: b[0], y: b[1], width: b[2], height: b[3]), try JSONAccess.string(d["text"]))
            }
        } else {
            table = try JSONAccess.array(answers["assignment"], "table or assignment").map { entry in
                let d = try JSONAccess.dict(entry)
                let b = try JSONAccess.box(d["derived_box_xyxy"])
                return (PixelBox(x1: b[0], y1: b[1], x2: b[2], y2: b[3]), try JSONAccess.string(d["text"]))
            }
        }
    }

    func read(crop: PixelBox) async throws -> String {
        let key = [crop.x1, crop.y1, crop.width, crop.height]
        if let s = traced[key] { return s }
        var best = (iou: 0.0, text: "")
        for entry in table {
            let b = entry.box
            let iw = max(0, min(b.x2, crop.x2) - max(b.x1, crop.x1))
            let ih = max(0, min(b.y2, crop.y2) - max(b.y1, crop.y1))
            let inter = Double(iw * ih)
            let union = Double(b.width * b.height + crop.width * crop.height) - inter
            if union > 0, inter / union > best.iou { best = (inter / union, entry.text) }
        }
        return best.text
    }
}
