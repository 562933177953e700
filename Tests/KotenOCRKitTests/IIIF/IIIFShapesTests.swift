import Foundation
import Testing
@testable import KotenOCRIIIF
@testable import KotenOCRKit

/// Manifests shaped as libraries and the IIIF cookbook publish them (`scripts/iiif-test-server.py`'s `shapes2`,
/// `shapes3`), read through the CLI in one run: Image API 1.1 services asked with 1.1's syntax, a 2.1 `oa:Choice`
/// read by its default, a page stored sideways turned by its `ImageApiSelector`, the right page of a static spread
/// cut by its `FragmentSelector`, and canvases of video, sound and a PDF skipped, never fetched. Every page's text is
/// that of the image it names read directly; the outputs name that image (never the hidden download), PAGE's
/// `Created` is the time of the run, and the labels keep their languages. In the serialized suite: the tests count
/// the server's requests.
extension IIIFReadingTests {
    @Test("libraries' and the cookbook's shapes: Image API 1.1, oa:Choice, SpecificResource (rotation, fragment), AV and PDF canvases skipped; outputs name the image read; PAGE Created the reading's time or SOURCE_DATE_EPOCH's; labels by language")
    func publishedShapes() throws {
        let server = try IIIFServer.shared()
        let out = try TestPaths.temporaryDirectory("iiif-shapes")
        defer { try? FileManager.default.removeItem(at: out) }
        let (v2, v3) = (server.base + "/shapes2/manifest.json", server.base + "/shapes3/manifest.json")
        let before = server.requests().count
        // SOURCE_DATE_EPOCH: PAGE's Created is that time (the direct run below checks the time of the reading).
        let arguments = try BatchFixtures.cliArguments(["-m", "ppocr", "-q", "-o", out.path, "-f", "txt,json,alto,page,html,hocr", v2, v3])
        let run = try runCLI(bytes: arguments.map { Array($0.utf8) }, prefix: ["/usr/bin/env", "SOURCE_DATE_EPOCH=1700000000"])
        #expect(run.status == 0, "\(run.stderr)")
        let requests = Array(server.requests().dropFirst(before))

        // What each canvas reads: 1.1's `native` quality (its server refuses `default`), the choice's default, the
        // turn asked of a level-2 service, and the spread fetched whole (cut here).
        let images = [
            ("shapes2/0001_一丁表", "/img1/page1/full/full/0/native.jpg"),
            ("shapes2/0002_一丁裏", "/img1/page2/full/full/0/native.jpg"),
            ("shapes3/0001_一丁表", "/img3/sideways/full/max/90/default.jpg"),
            ("shapes3/0002_一丁裏", "/static/spread.png"),
        ]
        #expect(requests.filter { !$0.hasSuffix("info.json") && !$0.hasSuffix("manifest.json") }.sorted() == images.map(\.1).sorted(),
                "the images read, and nothing else (no video, sound, PDF, choice item): \(requests)")
        for skipped in ["canvas 3 (a film): skipped: it paints a video (video/mp4), not an image",
                        "canvas 4 (a reading): skipped: it paints sound (audio/mp4), not an image",
                        "canvas 5 (the book as PDF): skipped: it paints a PDF (application/pdf), not an image"] {
            #expect(run.stderrLines.contains("koten-ocr: \(v3) \(skipped)"), "\(run.stderr)")
        }

        // The reference: each image as the server gives it (the spread's right page: page 2 as the server made it),
        // read directly in one run.
        let direct = try TestPaths.temporaryDirectory("iiif-shapes-direct")
        defer { try? FileManager.default.removeItem(at: direct) }
        for (index, image) in images.enumerated().dropLast() {
            let reply = try curl(server.base + image.1)
            try #require(reply.status == 200, "\(image.1): \(reply.status)")
            try reply.body.write(to: direct.appendingPathComponent("\(index).jpg"))
        }
        try FileManager.default.copyItem(at: server.root.appendingPathComponent("www/page2.png"), to: direct.appendingPathComponent("3.png"))
        // A file last changed in 2001 gets PAGE's Created of the time it is read, not its modification time.
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: direct.appendingPathComponent("3.png").path)
        let directOut = direct.appendingPathComponent("out")
        let start = Date(timeIntervalSinceNow: -1)
        let reference = try runCLI(try BatchFixtures.cliArguments(["-m", "ppocr", "-q", "-o", directOut.path, "-f", "txt,page", direct.path]))
        let end = Date(timeIntervalSinceNow: 1)
        try #require(reference.status == 0, "\(reference.stderr)")
        let read = try ModeFixtures.xml(directOut.appendingPathComponent("3.page.xml"))
        let readAt = try read.nodes(forXPath: "//*[local-name()='Created']").first?.stringValue ?? ""
        let readDate = try #require(ISO8601DateFormatter().date(from: readAt), "\(readAt)")
        #expect(readDate >= start && readDate <= end, "Created \(readAt) is not the time of the reading")

        for (index, (stem, image)) in images.enumerated() {
            let file = { (suffix: String) in out.appendingPathComponent(stem + suffix) }
            let expected = try String(contentsOf: directOut.appendingPathComponent("\(index).txt"), encoding: .utf8)
            let text = try String(contentsOf: file(".txt"), encoding: .utf8)
            #expect(!text.isEmpty && text == expected, "\(stem) reads as \(image)")
            // Every output names the image read, never the hidden download.
            let name = server.base + image + (index == 3 ? "#xywh=645,0,574,823" : "")
            let json = try JSONAccess.dict(try JSONSerialization.jsonObject(with: Data(contentsOf: file(".json"))))
            let source = try JSONAccess.dict(json["source"], "source")
            #expect(source["path"] as? String == name, "\(stem): \(source["path"] ?? "none")")
            #expect(json["rotation"] as? Int == 0, "\(stem): read upright as the canvas shows it")
            let alto = try ModeFixtures.xml(file(".alto.xml"))
            #expect(try alto.nodes(forXPath: "//*[local-name()='sourceImageInformation']/*[local-name()='fileName']").compactMap(\.stringValue) == [name])
            let page = try ModeFixtures.xml(file(".page.xml"))
            #expect(try page.nodes(forXPath: "//*[local-name()='Page']/@imageFilename").compactMap(\.stringValue) == [name])
            #expect(try page.nodes(forXPath: "//*[local-name()='Created']").compactMap(\.stringValue) == ["2023-11-14T22:13:20Z"])
            for (output, schema) in [(".alto.xml", "alto-4-3.xsd"), (".page.xml", "pagecontent-2019-07-15.xsd")] {
                let valid = try FormatCheckers.validate(file(output), schema: schema)
                #expect(valid.status == 0, "\(stem)\(output): \(valid.stderr)")
            }
            let hocr = try FormatCheckers.checkHOCR(file(".hocr"))
            #expect(hocr.status == 0, "\(stem).hocr: \(hocr.stdout) \(hocr.stderr)")
            // The html: titled by the canvas's and the book's labels, linking the image read and the canvas.
            let html = try String(contentsOf: file(".html"), encoding: .utf8)
            let iiif = try JSONAccess.dict(source["iiif"], "source.iiif")
            let title = "\(iiif["canvasLabel"] as? String ?? "?") — \(iiif["label"] as? String ?? "?") — KotenOCR"
            #expect(html.contains("<title>\(title)</title>"), "\(stem): \(title)")
            #expect(html.contains("href=\"\(name)\"") && html.contains("href=\"\(iiif["canvas"] as? String ?? "?")\""))
            for output in [".json", ".alto.xml", ".page.xml", ".html", ".hocr"] {
                #expect(try !String(contentsOf: file(output), encoding: .utf8).contains(".iiif-image"), "\(stem)\(output) names the download")
            }
        }
        // Labels kept with their languages (2.1's @language values gathered as 3.0's maps).
        for (stem, book, canvas) in [("shapes2/0001_一丁表", ["ja": ["試験の本（二・一）"], "en": ["A test book (2.1)"]], ["ja": ["一丁表"], "en": ["leaf 1 recto"]]),
                                     ("shapes3/0001_一丁表", ["ja": ["試験の本（三・〇）"], "en": ["A test book (3.0)"]], ["ja": ["一丁表"], "en": ["leaf 1 recto"]])] {
            let json = try JSONAccess.dict(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent(stem + ".json"))))
            let iiif = try JSONAccess.dict(try JSONAccess.dict(json["source"])["iiif"], "source.iiif")
            #expect(iiif["labels"] as? [String: [String]] == book && iiif["canvasLabels"] as? [String: [String]] == canvas, "\(iiif)")
            #expect(iiif["label"] as? String == book["ja"]?.first, "the label in Japanese first")
        }
        // Nothing fetched is left: no hidden image, no address beside it.
        let left = try FileManager.default.subpathsOfDirectory(atPath: out.path).filter { $0.contains(".iiif-image") }
        #expect(left.isEmpty, "\(left)")
    }
}
