import Foundation
import Testing
@testable import KotenOCRIIIF
@testable import KotenOCRKit

/// Reading IIIF manifests through the real CLI against the tests' IIIF server (docs/iiif.md): 3.0 and 2.1, the
/// text of every canvas the same as reading its image file directly, the metadata in the JSON and ALTO, the
/// annotations loaded by real IIIF libraries with every target inside its canvas, the vertical page's boxes on its
/// columns, faults named one line each, and `--resume` after a kill downloading nothing already read. One server,
/// the ppocr mode with the real PP-OCRv5 models.
@Suite("IIIF manifests in, annotations out", .serialized)
struct IIIFReadingTests {
    /// `koten-ocr` on the served image files themselves (copied under the canvases' names), with `--format iiif`:
    /// the reference texts and boxes, and a folder of local images with its generated manifest. Made once.
    static func direct() throws -> (folder: URL, texts: [String], json: [[String: Any]]) {
        lock.lock()
        defer { lock.unlock() }
        if let made = directRun { return (made.folder, made.texts, made.json.map { $0 as? [String: Any] ?? [:] }) }
        let server = try IIIFServer.shared()
        let images = try TestPaths.temporaryDirectory("iiif-direct-in")
        let out = try TestPaths.temporaryDirectory("iiif-direct-out")
        for number in 1...2 {
            try FileManager.default.copyItem(at: try server.fullImage(number), to: images.appendingPathComponent("page\(number).jpg"))
        }
        let run = try runCLI(try BatchFixtures.cliArguments(["-m", "ppocr", "-q", "-o", out.path, "-f", "txt,json,iiif",
                                                              "--iiif-base", "http://example.org/book/", images.path]))
        try #require(run.status == 0, "\(run.stderr)")
        let texts = try (1...2).map { try String(contentsOf: out.appendingPathComponent("page\($0).txt"), encoding: .utf8) }
        let json = try (1...2).map { try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("page\($0).json"))) }
        directRun = (out, texts, json)
        return (out, texts, json.map { $0 as? [String: Any] ?? [:] })
    }
    private static let lock = NSLock()
    nonisolated(unsafe) private static var directRun: (folder: URL, texts: [String], json: [Any])?

    /// The canvases' stems in the results: `<book>/<index>_<label>`.
    static let stems = ["0001_1_yokogaki2026", "0002_2_tategaki2026"]

    @Test("3.0: each canvas reads as its image file; label, attribution, rights and canvas id in JSON, ALTO and PAGE; annotations load in iiif-prezi3 inside their canvases; the vertical page's boxes on its columns")
    func presentation3() throws {
        let server = try IIIFServer.shared()
        let reference = try Self.direct()
        let out = try TestPaths.temporaryDirectory("iiif-v3")
        defer { try? FileManager.default.removeItem(at: out) }
        let before = server.requests().count
        let run = try runCLI(try BatchFixtures.cliArguments(["-m", "ppocr", "-q", "-o", out.path, "-f", "txt,json,alto,page,pdf,iiif",
                                                              "--iiif-base", "http://example.org/out/", server.base + "/v3/manifest.json"]))
        #expect(run.status == 0, "\(run.stderr)")
        let book = out.appendingPathComponent("v3")
        for (index, stem) in Self.stems.enumerated() {
            let text = try String(contentsOf: book.appendingPathComponent(stem + ".txt"), encoding: .utf8)
            #expect(!text.isEmpty)
            #expect(text == reference.texts[index], "canvas \(index + 1)")
            let json = try JSONAccess.dict(try JSONSerialization.jsonObject(with: Data(contentsOf: book.appendingPathComponent(stem + ".json"))))
            let iiif = try JSONAccess.dict(try JSONAccess.dict(json["source"])["iiif"], "source.iiif")
            #expect(iiif["canvas"] as? String == "\(server.base)/v3/canvas/\(index + 1)")
            #expect(iiif["manifest"] as? String == "\(server.base)/v3/manifest.json")
            #expect(iiif["label"] as? String == "試験の本")
            #expect(iiif["attribution"] as? String == "Attribution: National Diet Library (CC BY 4.0)")
            #expect(iiif["rights"] as? String == "http://creativecommons.org/licenses/by/4.0/")
            let alto = book.appendingPathComponent(stem + ".alto.xml")
            let altoText = try String(contentsOf: alto, encoding: .utf8)
            #expect(altoText.contains("<fileIdentifier fileIdentifierLocation=\"IIIF canvas\">\(server.base)/v3/canvas/\(index + 1)</fileIdentifier>"))
            let valid = try FormatCheckers.validate(alto, schema: "alto-4-3.xsd")
            #expect(valid.status == 0, "\(valid.stderr)")
            let pageXML = book.appendingPathComponent(stem + ".page.xml")
            #expect(try String(contentsOf: pageXML, encoding: .utf8).contains("name=\"IIIF rights\" value=\"http://creativecommons.org/licenses/by/4.0/\""))
            // The outputs name the image read (the Image API request), not the file it was fetched into.
            let read = "\(server.base)/iiif/page\(index + 1)/full/\(index == 0 ? 645 : 574),/0/default.jpg"
            #expect(try JSONAccess.dict(json["source"])["path"] as? String == read)
            #expect(altoText.contains("<fileName>\(read)</fileName>"))
            #expect(try String(contentsOf: pageXML, encoding: .utf8).contains("imageFilename=\"\(read)\""))
            let validPage = try FormatCheckers.validate(pageXML, schema: "pagecontent-2019-07-15.xsd")
            #expect(validPage.status == 0, "\(validPage.stderr)")
            // The PDF's document information: the manifest's label as its title, its id, attribution and rights.
            let info = try runProcess(URL(fileURLWithPath: "/usr/bin/pdfinfo"), ["-custom", book.appendingPathComponent(stem + ".pdf").path])
            #expect(info.status == 0, "\(info.stderr)")
            for expected in ["Title:", "試験の本", "IIIFManifest:", "\(server.base)/v3/manifest.json", "IIIFAttribution:",
                             "National Diet Library (CC BY 4.0)", "IIIFRights:", "http://creativecommons.org/licenses/by/4.0/"] {
                #expect(info.stdout.contains(expected), "\(expected) not in: \(info.stdout)")
            }
            // The fetched image is not a result: no hidden image file is left, nor its address.
            #expect(!FileManager.default.fileExists(atPath: book.appendingPathComponent("." + stem + ".iiif-image").path))
            #expect(!FileManager.default.fileExists(atPath: book.appendingPathComponent("." + stem + ".iiif-image.source").path))
        }
        // Each canvas: its info.json, then its one image at the largest listed size (the default long side, 3840, fits it).
        let requests = Array(server.requests().dropFirst(before))
        #expect(requests.filter { $0.hasSuffix("default.jpg") }.sorted() == ["/iiif/page1/full/645,/0/default.jpg", "/iiif/page2/full/574,/0/default.jpg"])
        let summary = try IIIFServer.check(book.appendingPathComponent("manifest.json"), base: "http://example.org/out/", folder: out)
        #expect(summary["version"] as? Int == 3)
        let canvases = try JSONAccess.array(summary["canvases"])
        try #require(canvases.count == 2)
        for (index, canvas) in canvases.enumerated() {
            let lines = try JSONAccess.array(try JSONAccess.dict(canvas)["lines"])
            let texts = try lines.map { try JSONAccess.string(try JSONAccess.dict($0)["text"]) }
            #expect(texts.joined(separator: "\n") + "\n" == reference.texts[index], "the annotations hold the canvas's text")
            // The canvas is twice the image read: each target is the line's box in the image, doubled.
            let imageLines = try JSONAccess.array(reference.json[index]["lines"])
            for (line, imageLine) in zip(lines, imageLines) {
                let xywh = try JSONAccess.flatNumbers(try JSONAccess.dict(line)["xywh"]).map(\.intValue)
                let b = try JSONAccess.dict(try JSONAccess.dict(imageLine)["box"], "box")
                let box = try ["x", "y", "width", "height"].map { try JSONAccess.int(b[$0], $0) }
                #expect(zip(xywh, box).allSatisfy { abs($0 - 2 * $1) <= 4 }, "\(xywh) vs 2 × \(box)")
            }
        }
        // The tategaki page: six columns read right to left, each box a tall column on the canvas, left of the last.
        let vertical = try JSONAccess.array(try JSONAccess.dict(canvases[1])["lines"]).map { try JSONAccess.flatNumbers(try JSONAccess.dict($0)["xywh"]).map(\.intValue) }
        #expect(vertical.count == 6)
        #expect(vertical.allSatisfy { $0[3] > 3 * $0[2] }, "\(vertical)")
        #expect(zip(vertical, vertical.dropFirst()).allSatisfy { $0.0[0] > $0.1[0] + $0.1[2] / 2 }, "right to left: \(vertical)")
    }

    @Test("2.1: --resume after a kill downloads nothing already read; sc:AnnotationLists by otherContent load in iiif-prezi")
    func presentation2AndResume() throws {
        let server = try IIIFServer.shared()
        let reference = try Self.direct()
        let out = try TestPaths.temporaryDirectory("iiif-v2")
        defer { try? FileManager.default.removeItem(at: out) }
        let manifest = server.base + "/v2/manifest.json"
        let arguments = try BatchFixtures.cliArguments(["-m", "ppocr", "-q", "-o", out.path, "-f", "txt,json,iiif",
                                                        "--iiif-base", "http://example.org/out/", manifest])
        let start = server.requests().count
        // Run 1 reads canvas 1 only.
        let first = try runCLI(arguments + ["--pages", "1"])
        #expect(first.status == 0, "\(first.stderr)")
        // Run 2 resumes, fetches canvas 2 and is killed as it starts to read it.
        let killed = try runCLIUntilPaused(arguments + ["--resume"], stage: "detect")
        #expect(killed, "the second run reached canvas 2's detect stage and was killed")
        let afterKill = server.requests().count
        // Run 3 resumes: canvas 1 is done and canvas 2's image is already whole on disk.
        let third = try runCLI(arguments + ["--resume"])
        #expect(third.status == 0, "\(third.stderr)")
        let all = Array(server.requests().dropFirst(start))
        let images = all.filter { $0.hasSuffix("default.jpg") }
        #expect(images == ["/iiif/page1/full/645,/0/default.jpg", "/iiif/page2/full/574,/0/default.jpg"], "each image fetched once: \(all)")
        #expect(server.requests().dropFirst(afterKill).filter { $0.hasPrefix("/iiif/") }.isEmpty, "the run after the kill fetched no image")
        let book = out.appendingPathComponent("v2")
        for (index, stem) in Self.stems.enumerated() {
            #expect(try String(contentsOf: book.appendingPathComponent(stem + ".txt"), encoding: .utf8) == reference.texts[index])
            // Canvas 2, read from the file the killed run fetched, is named by the image's address all the same.
            let json = try JSONAccess.dict(try JSONSerialization.jsonObject(with: Data(contentsOf: book.appendingPathComponent(stem + ".json"))))
            #expect(try JSONAccess.dict(json["source"])["path"] as? String == server.base + images[index], "\(stem)")
        }
        let summary = try IIIFServer.check(book.appendingPathComponent("manifest.json"), base: "http://example.org/out/", folder: out)
        #expect(summary["version"] as? Int == 2)
        let canvases = try JSONAccess.array(summary["canvases"])
        #expect(try canvases.map { try JSONAccess.array(try JSONAccess.dict($0)["lines"]).count } == [5, 6])
    }

    @Test("a server that answers 404, 500, 429, stalls, cuts a body short, sends HTML or an MP4 for an image: one line per canvas naming it and the reason; the other canvas is read")
    func faults() throws {
        let server = try IIIFServer.shared()
        let out = try TestPaths.temporaryDirectory("iiif-faults")
        defer { try? FileManager.default.removeItem(at: out) }
        let manifest = server.base + "/faults/manifest.json"
        let run = try runCLI(try BatchFixtures.cliArguments(["-m", "ppocr", "-q", "-o", out.path, "-f", "txt", "--network-timeout", "2", manifest]))
        #expect(run.status == 1)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("faults/0001_1_yokogaki2026.txt").path))
        let lines = run.stderrLines.filter { $0.hasPrefix("koten-ocr: \(manifest) canvas") }
        let expected = [
            "canvas 2 (404): HTTP 404 (", "canvas 3 (500): HTTP 500 after 3 attempts (", "canvas 4 (429): HTTP 429 (too many requests) after 3 attempts (",
            "canvas 5 (stall): no data for 2 s (the read time limit)", "canvas 6 (short): the body was cut short after 1000 bytes",
            "canvas 7 (html): the server sent HTML (Content-Type text/html), not an image (",
            "canvas 8 (mp4): the server sent an MP4 or QuickTime file (brand mp42: sound or video) (Content-Type video/mp4), not an image (",
        ]
        #expect(lines.count == expected.count, "\(run.stderr)")
        for (line, start) in zip(lines, expected) { #expect(line.hasPrefix("koten-ocr: \(manifest) \(start)"), "\(line)") }
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("faults/0007_html.txt").path))
    }

    @Test("koten-ocr serve: a manifest URL as a job reads each canvas as its image file; the page image is the canvas's; a bad manifest is 422")
    func serveJob() throws {
        let server = try IIIFServer.shared()
        let reference = try Self.direct()
        let dir = try TestPaths.temporaryDirectory("iiif-serve")
        defer { try? FileManager.default.removeItem(at: dir) }
        let serve = try ServeProcess(work: dir.appendingPathComponent("work"), ["--page-timeout", "3600"])
        let posted = try curl(serve.base + "/v1/jobs", ["-F", "manifest=\(server.base)/v3/manifest.json"])
        #expect(posted.status == 202, "\(posted.text)")
        let id = try #require(posted.json["id"] as? String, "\(posted.text)")
        let job = try waitForJob(serve, id)
        #expect((job["progress"] as? [String: Any])?["done"] as? Int == 2 && job["failures"] == nil, "\(job)")
        let pages = (job["pages"] as? [[String: Any]]) ?? []
        #expect(pages.compactMap { $0["name"] as? String } == ["canvas 1 (1. yokogaki2026)", "canvas 2 (2. tategaki2026)"], "\(pages)")
        for n in 1...2 {
            let text = try curl("\(serve.base)/v1/jobs/\(id)/pages/\(n)?format=txt")
            #expect(text.status == 200 && text.text == reference.texts[n - 1], "canvas \(n): \(text.text)")
            let json = try curl("\(serve.base)/v1/jobs/\(id)/pages/\(n)")
            let iiif = ((json.json["source"] as? [String: Any])?["iiif"] as? [String: Any]) ?? [:]
            #expect(iiif["canvas"] as? String == "\(server.base)/v3/canvas/\(n)", "\(json.text.prefix(300))")
            let image = try curl("\(serve.base)/v1/jobs/\(id)/pages/\(n)/image")
            #expect(image.status == 303 && image.header("Location") == iiif["image"] as? String, "\(image.headers)")
        }
        #expect(try curl("\(serve.base)/v1/jobs/\(id)/result?format=pdf").status == 200)
        // The results name the canvas's image (the pixels read), never the hidden download; PAGE's Created is the job's time.
        for n in 1...2 {
            let json = try curl("\(serve.base)/v1/jobs/\(id)/pages/\(n)").json
            let source = (json["source"] as? [String: Any]) ?? [:]
            let image = (source["iiif"] as? [String: Any])?["image"] as? String
            #expect(image != nil && source["path"] as? String == image, "\(source)")
            let page = try curl("\(serve.base)/v1/jobs/\(id)/pages/\(n)?format=page").text
            #expect(page.contains("imageFilename=\"\(image ?? "-")\"") && !page.contains("1970-01-01"), "\(page.prefix(600))")
        }
        // As docs/serve.md promises: the manifest as an application/x-www-form-urlencoded body.
        let urlencoded = try curl(serve.base + "/v1/jobs", ["--data-urlencode", "manifest=\(server.base)/v3/manifest.json"])
        #expect(urlencoded.status == 202 && (urlencoded.json["progress"] as? [String: Any])?["total"] as? Int == 2, "\(urlencoded.text)")
        if let other = urlencoded.json["id"] as? String { #expect(try curl("\(serve.base)/v1/jobs/\(other)", ["-X", "DELETE"]).status == 204) }
        // A manifest whose canvases are all video, sound or a PDF has nothing to read: 422, saying so; nothing fetched.
        let av = try curl(serve.base + "/v1/jobs", ["-F", "manifest=\(server.base)/av/manifest.json"])
        #expect(av.status == 422 && av.json["error"] as? String == "no_pages", "\(av.text)")
        #expect((av.json["message"] as? String)?.contains("no canvas of the manifest is an image") == true, "\(av.text)")
        #expect(!server.requests().contains { $0.hasPrefix("/static/clip") || $0.hasPrefix("/static/reading") || $0.hasPrefix("/static/book") })
        let missing = try curl(serve.base + "/v1/jobs", ["-F", "manifest=\(server.base)/v3/no-such-manifest.json"])
        #expect(missing.status == 422 && missing.json["error"] as? String == "bad_manifest", "\(missing.text)")
        let local = try curl(serve.base + "/v1/jobs", ["-F", "manifest=/etc/passwd"])
        #expect(local.status == 400 && local.json["error"] as? String == "bad_option", "\(local.text)")
        let both = try curl(serve.base + "/v1/jobs", ["-F", "manifest=\(server.base)/v3/manifest.json", "-F", "file=@\(TestPaths.packageRoot.appendingPathComponent("samples/scaned0.png").path)"])
        #expect(both.status == 400 && both.json["error"] as? String == "bad_option", "\(both.text)")
        serve.kill9()
    }

    @Test("koten mode's TEI of a manifest: the header names the book (title, manifest id, attribution, rights), each surface its canvas")
    func kotenTEI() throws {
        let server = try IIIFServer.shared()
        let out = try TestPaths.temporaryDirectory("iiif-tei")
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try runCLI(["-m", "koten", "--models", try ModeFixtures.standIns().path, "-q", "-o", out.path, "-f", "txt,tei",
                              server.base + "/v3/manifest.json"])
        #expect(run.status == 0, "\(run.stderr)")
        let tei = try ModeFixtures.xml(out.appendingPathComponent("v3/\(Self.stems[0])_tei.xml"))
        func values(_ path: String) throws -> [String] { try tei.nodes(forXPath: path).compactMap { $0.stringValue } }
        #expect(try values("//*[local-name()='titleStmt']/*[local-name()='title']") == ["試験の本"])
        #expect(try values("//*[local-name()='sourceDesc']/*[local-name()='bibl']/*[local-name()='idno'][@type='IIIF manifest']")
                == ["\(server.base)/v3/manifest.json"])
        #expect(try values("//*[local-name()='bibl']/*[local-name()='note'][@type='attribution']") == ["Attribution: National Diet Library (CC BY 4.0)"])
        #expect(try values("//*[local-name()='bibl']/*[local-name()='ref'][@type='rights']/@target") == ["http://creativecommons.org/licenses/by/4.0/"])
        #expect(try values("//*[local-name()='surface']/@corresp") == ["\(server.base)/v3/canvas/1", "\(server.base)/v3/canvas/2"])
    }

    @Test("a folder of local images gets a generated 3.0 manifest that loads in iiif-prezi3, its annotations on its canvases")
    func generatedManifest() throws {
        let reference = try Self.direct()
        let summary = try IIIFServer.check(reference.folder.appendingPathComponent("manifest.json"), base: "http://example.org/book/",
                                           folder: reference.folder)
        let canvases = try JSONAccess.array(summary["canvases"])
        #expect(try canvases.map { try JSONAccess.string(try JSONAccess.dict($0)["id"]) }
                == ["http://example.org/book/canvas/page1", "http://example.org/book/canvas/page2"])
        for (index, canvas) in canvases.enumerated() {
            let texts = try JSONAccess.array(try JSONAccess.dict(canvas)["lines"]).map { try JSONAccess.string(try JSONAccess.dict($0)["text"]) }
            #expect(texts.joined(separator: "\n") + "\n" == reference.texts[index])
        }
    }

    /// Runs the CLI with the pause hook at `stage` (docs/diagnostics.md, "Test hooks") and kills it (SIGKILL) once
    /// it says it paused; true when it paused. The hook sleeps 120 s, so the wait ends by itself.
    func runCLIUntilPaused(_ arguments: [String], stage: String) throws -> Bool {
        let process = Process()
        process.executableURL = TestPaths.cli
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["KOTEN_OCR_TEST_PAUSE_STAGE"] = stage
        environment["KOTEN_OCR_STATE_DIR"] = testStateDirectory.path
        environment["KOTEN_OCR_CACHE_DIR"] = testCacheDirectory.path
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var seen = Data()
        var paused = false
        while case let chunk = errors.fileHandleForReading.availableData, !chunk.isEmpty {
            seen.append(chunk)
            if String(decoding: seen, as: UTF8.self).contains("koten-ocr-test: paused at \(stage)") { paused = true; break }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return paused
    }
}

/// The IIIF wing's own rules, without the network.
@Suite("IIIF requests and names")
struct IIIFRequestTests {
    @Test("level 0: the largest listed size that fits; level 1+: !N,N or max/full; names made safe")
    func sizes() {
        let level0: [String: Any] = ["profile": ["http://iiif.io/api/image/2/level0.json"], "width": 4000, "height": 3000,
                                     "sizes": [["width": 1000, "height": 750], ["width": 4000, "height": 3000], ["width": 2000, "height": 1500]]]
        #expect(IIIFImageRequest.sizeParameter(info: level0, version: 2, size: .longSide(3840)) == "2000,")
        #expect(IIIFImageRequest.sizeParameter(info: level0, version: 3, size: .max) == "4000,3000")
        #expect(IIIFImageRequest.sizeParameter(info: level0, version: 2, size: .longSide(500)) == "1000,")
        let level2: [String: Any] = ["profile": "level2", "width": 6000, "height": 4000]
        #expect(IIIFImageRequest.sizeParameter(info: level2, version: 3, size: .longSide(3840)) == "!3840,3840")
        #expect(IIIFImageRequest.sizeParameter(info: level2, version: 2, size: .longSide(8000)) == "full")
        #expect(IIIFImageRequest.sizeParameter(info: level2, version: 3, size: .max) == "max")
        #expect(IIIFNames.canvasStem(index: 3, label: "巻1 / 表紙.") == "0003_巻1_表紙")
        #expect(IIIFNames.canvasStem(index: 12, label: nil) == "0012")
        #expect(IIIFImageSize(parsing: "full") == .max && IIIFImageSize(parsing: "2000") == .longSide(2000) && IIIFImageSize(parsing: "x") == nil)
    }

    @Test("3.0 parsing: a Choice body, a service given by @id, language maps; a document that is no manifest is one reason")
    func parsing() throws {
        let v3 = """
        {"@context": "http://iiif.io/api/presentation/3/context.json", "id": "https://x/m", "type": "Manifest",
         "label": {"en": ["Book"], "ja": ["本"]}, "rights": "http://rightsstatements.org/vocab/NoC-NC/1.0/",
         "items": [{"id": "https://x/c1", "type": "Canvas", "width": 100, "height": 200, "items": [{"type": "AnnotationPage",
           "items": [{"type": "Annotation", "motivation": "painting", "body": {"type": "Choice", "items": [
             {"id": "https://x/i1.jpg", "type": "Image", "service": [{"@id": "https://x/s1", "@type": "ImageService2"}]}]}}]}]}]}
        """
        let book = try IIIFBook.parse(Data(v3.utf8), source: "m.json")
        #expect(book.presentation == 3 && book.label == "本" && book.canvases.count == 1)
        #expect(book.canvases[0].image == "https://x/i1.jpg" && book.canvases[0].service == .init(id: "https://x/s1", version: 2))
        #expect(throws: IIIFBook.Failure.self) { try IIIFBook.parse(Data("{\"type\": \"Collection\"}".utf8), source: "c.json") }
    }
}
