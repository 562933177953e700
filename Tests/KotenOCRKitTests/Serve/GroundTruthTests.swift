import Foundation
import Testing
@testable import KotenOCRKit
@testable import KotenOCRServer
import KotenOCRTestSupport

/// `GET /v1/jobs/{id}/groundtruth` (issue 36; docs/serve.md, "Ground truth"): a real two-page job, page 1 corrected
/// through the API (a line's text, a line marked as not text, a line drawn and added) and marked proofread, page 2
/// left as read. The zip holds page 1's lines only, each PNG the line as the recogniser is given it (its size the
/// outline's, upright: the recogniser alone reads it as the page's reading of it), each `.gt.txt` the current text,
/// `rec_gt.txt` one label per image, and page 1's PAGE XML (valid, with the correction) beside its image.
@Suite("serve: the ground-truth zip, in-process")
struct GroundTruthTests {
    @Test("the proofread page's lines, texts, rec_gt.txt and PAGE XML; scope=corrected; a page not proofread left out; 400, 404, 409")
    func groundTruth() async throws {
        let api = try await sharedAPI()
        let engine = try await APIEngine.shared.get()
        let dir = try TestPaths.temporaryDirectory("groundtruth")
        let posted = try await api.call("POST", "/v1/jobs", body: .multipart(fields: [:], files: [(APITests.page, nil, "image/png"),
                                                                                              (APITests.page, "second.png", "image/png")]))
        let id = try #require(posted.json["id"] as? String, "\(posted.text)")
        _ = try await api.finished(id)
        let gt = "/v1/jobs/\(id)/groundtruth"
        #expect(try await api.call("GET", gt).status == 404, "no page proofread yet")
        #expect(try await api.call("GET", gt + "?scope=corrected").status == 404, "no line corrected yet")
        #expect(try await api.call("GET", gt + "?scope=other").error == "bad_option")
        #expect(try await api.call("GET", "/v1/jobs/\(String(repeating: "0", count: 32))/groundtruth").status == 404)

        // Page 1: one line corrected, one marked as not text, one drawn and added (over the first line's box).
        let url = "/v1/jobs/\(id)/pages/1"
        let page = try await api.call("GET", url)
        let lines = (page.json["lines"] as? [[String: Any]]) ?? []
        let target = try #require(lines.first { ($0["text"] as? String)?.contains("目的") == true })
        let gone = try #require(lines.last { $0["id"] as? String != target["id"] as? String && !(($0["text"] as? String) ?? "").isEmpty })
        let (targetID, goneID) = (try #require(target["id"] as? String), try #require(gone["id"] as? String))
        let corrected = "校正済みの行"
        let edit = try JSONSerialization.data(withJSONObject: ["lines": [["id": targetID, "text": corrected], ["id": goneID, "deleted": true]]])
        let patched = try await api.call("PATCH", url, headers: ["If-Match": try #require(page.header("ETag"))],
                                         body: .bytes(edit, type: "application/json"))
        #expect(patched.status == 200, "\(patched.text.prefix(300))")
        let first = try #require(lines.first)
        let box = try #require(first["box"] as? [String: Int])
        let drawn = try JSONSerialization.data(withJSONObject: ["box": box, "orientation": first["orientation"] as? String ?? "vertical"])
        let added = try await api.call("POST", url + "/lines", headers: ["If-Match": try #require(patched.header("ETag"))],
                                       body: .bytes(drawn, type: "application/json"))
        #expect(added.status == 201, "\(added.text.prefix(300))")

        // scope=corrected: the corrected line and the added one, on a page not yet proofread.
        let some = try Self.unzip(try await api.call("GET", gt + "?scope=corrected"), into: dir.appendingPathComponent("corrected"))
        #expect(Set(some.labels.map(\.path)) == ["lines/0001_\(targetID).png", "lines/0001_a1.png"], "\(some.labels)")
        #expect(try String(contentsOf: some.root.appendingPathComponent("lines/0001_\(targetID).gt.txt"), encoding: .utf8) == corrected + "\n")

        let state = try JSONSerialization.data(withJSONObject: ["state": "proofread"])
        let proofread = try await api.call("PATCH", url, headers: ["If-Match": try #require(added.header("ETag"))],
                                           body: .bytes(state, type: "application/json"))
        #expect(proofread.status == 200)
        let reply = try await api.call("GET", gt)
        #expect(reply.header("Content-Disposition")?.contains("filename=\"scaned0-groundtruth.zip\"") == true, "\(reply.headers)")
        #expect(reply.header("Content-Type") == "application/zip")
        let unpacked = try Self.unzip(reply, into: dir.appendingPathComponent("proofread"))

        // Every line of page 1 but the one marked as not text, the added one in; nothing of page 2.
        let current = try #require(Self.lines(proofread).filter { $0["deleted"] as? Bool != true && !(($0["text"] as? String) ?? "").isEmpty })
        #expect(Set(unpacked.labels.map(\.path)) == Set(current.compactMap { $0["id"] as? String }.map { "lines/0001_\($0).png" }))
        #expect(!unpacked.labels.contains { $0.path.contains(goneID) } && unpacked.labels.contains { $0.path == "lines/0001_a1.png" })
        #expect(!unpacked.entries.contains { $0.contains("0002") }, "\(unpacked.entries)")
        #expect(Set(unpacked.entries) == Set(unpacked.labels.flatMap { [$0.path, $0.path.replacingOccurrences(of: ".png", with: ".gt.txt")] }
                                        + ["rec_gt.txt", "pages/0001.png", "pages/page/0001.xml"]), "\(unpacked.entries)")
        var crops: [RGBImage] = [], readings: [String] = []
        for line in current {
            let lineID = try #require(line["id"] as? String), text = try #require(line["text"] as? String)
            let base = unpacked.root.appendingPathComponent("lines/0001_\(lineID)")
            #expect(try String(contentsOf: base.appendingPathExtension("gt.txt"), encoding: .utf8) == text + "\n")
            #expect(unpacked.labels.contains { $0.path == "lines/0001_\(lineID).png" && $0.text == text })
            let image = try ImageSource(url: base.appendingPathExtension("png")).decode()
            // The line's size, upright: a vertical line's height along its text becomes the image's width.
            let points = try #require(line["polygon"] as? [[Double]]).map { Point(x: $0[0], y: $0[1]) }
            let quad = PPOCRPipeline.cornersFromTopLeft(Quad(points[0], points[1], points[2], points[3]))
            let (w, h) = (max(1, Int(quad.edgeWidth)), max(1, Int(quad.edgeHeight)))
            let vertical = line["orientation"] as? String == "vertical"
            #expect((image.width, image.height) == (vertical ? (h, w) : (w, h)) , "\(lineID): \(image.width)×\(image.height)")
            if line["added"] as? Bool != true, line["corrected"] as? Bool != true {
                crops.append(image)
                readings.append(try #require(line["modelText"] as? String))
            }
        }
        // Upright as the recogniser saw it: the recogniser alone reads each crop as the engine's reading (the page's
        // reading adds the marks and small kana of vertical lines found in the pixels: compared without them);
        // turned a half turn, it does not.
        let reader = try #require(try engine.pipeline(for: .ppocr) as? PPOCRPipeline).reader
        let read = try await reader.read(crops.map { LineRegion(wholeOf: $0) }, store: engine.store, limit: 1).map(\.text)
        let flipped = try await reader.read(crops.map { LineRegion(wholeOf: $0.turnedCounterClockwise(quarterTurns: 2)) },
                                            store: engine.store, limit: 1).map(\.text)
        let same = zip(read, readings).filter { Self.close($0, $1) }.count
        let sameFlipped = zip(flipped, readings).filter { Self.close($0, $1) }.count
        #expect(crops.count >= 5 && same * 10 >= crops.count * 8, "\(same) of \(crops.count): \(Array(zip(read, readings)))")
        #expect(sameFlipped * 2 < crops.count, "\(sameFlipped) of \(crops.count) read the same turned over")

        // The page's image and its PAGE XML with the correction, valid against the schema.
        let pageImage = try ImageSource(url: unpacked.root.appendingPathComponent("pages/0001.png"))
        let source = try #require(page.json["source"] as? [String: Any])
        #expect(pageImage.width == source["width"] as? Int && pageImage.height == source["height"] as? Int)
        let xml = unpacked.root.appendingPathComponent("pages/page/0001.xml")
        let text = try String(contentsOf: xml, encoding: .utf8)
        #expect(text.contains("imageFilename=\"0001.png\"") && text.contains("<Unicode>\(corrected)</Unicode>"), "\(text.prefix(600))")
        #expect(!text.contains("<Unicode>\(try #require(gone["text"] as? String))</Unicode>"))
        let verdict = try FormatCheckers.validate(xml, schema: "pagecontent-2019-07-15.xsd")
        #expect(verdict.status == 0, "\(verdict.stderr)")
        #expect(try await api.call("GET", gt, headers: ["If-None-Match": try #require(reply.header("ETag"))]).status == 304)
        #expect(try await api.call("DELETE", "/v1/jobs/\(id)").status == 204)

        // A job not done yet: 409.
        let held = try await APIClient.make(start: false)
        let queued = try await held.call("POST", "/v1/jobs", body: .multipart(fields: [:], files: [(APITests.page, nil, "image/png")]))
        let heldID = try #require(queued.json["id"] as? String)
        #expect(try await held.call("GET", "/v1/jobs/\(heldID)/groundtruth").error == "not_done")
    }

    /// The zip's entries (`unzip -Z1`), the labels of its `rec_gt.txt` (path, text), and the folder it was unpacked in.
    static func unzip(_ reply: APIClient.Reply, into folder: URL) throws -> (entries: [String], labels: [(path: String, text: String)], root: URL) {
        #expect(reply.status == 200, "\(reply.text.prefix(300))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("gt.zip")
        try reply.body.write(to: file)
        let unzip = URL(fileURLWithPath: "/usr/bin/unzip")
        let listed = try runProcess(unzip, ["-Z1", file.path])
        let root = folder.appendingPathComponent("x")
        #expect(try runProcess(unzip, ["-q", file.path, "-d", root.path]).status == 0)
        let labels = try String(contentsOf: root.appendingPathComponent("rec_gt.txt"), encoding: .utf8)
            .split(separator: "\n").map { line -> (path: String, text: String) in
                let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }
        return (listed.stdout.split(separator: "\n").map(String.init), labels, root)
    }

    static func lines(_ reply: APIClient.Reply) -> [[String: Any]] { (reply.json["lines"] as? [[String: Any]]) ?? [] }

    /// The recogniser's text against the page's (which adds marks and small kana found in the pixels): the same
    /// once those are left out of both.
    static func close(_ a: String, _ b: String) -> Bool {
        let marks = Set("、。ー・「」ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")
        let strip = { (s: String) in s.filter { !marks.contains($0) && !$0.isWhitespace } }
        return strip(a) == strip(b)
    }
}
