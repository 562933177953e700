import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// The one server most tests share (docs/serve.md): uploads up to 2 MB, jobs up to 60 pages.
let sharedServe: Result<ServeProcess, any Error> = Result {
    try ServeProcess(work: try TestPaths.temporaryDirectory("serve-shared"), ["--max-upload", "2MB", "--max-pages", "60"])
}

/// `koten-ocr serve` against the real server on 127.0.0.1 (issue 26): every endpoint, every refusal with a real bad
/// input, and after each the server still answers and another job is intact.
@Suite("koten-ocr serve")
struct ServeTests {
    static let page = TestPaths.image("ndlocr-lite-rs/scaned0.png")

    @Test("health, readiness, status, metrics, OpenAPI and the web app's three files")
    func endpoints() throws {
        let server = try sharedServe.get()
        #expect(try curl("\(server.base)/healthz").json["status"] as? String == "ok")
        let ready = try curl("\(server.base)/readyz")
        #expect(ready.status == 200 && ready.json["ready"] as? Bool == true)
        let status = try curl("\(server.base)/v1/status").json
        #expect(status["mode"] as? String == "ppocr")
        #expect((status["queue"] as? [String: Any])?["capacity"] as? Int == 64)
        #expect((status["budgetBytes"] as? Int) == 800_000_000)
        #expect(((status["models"] as? [[String: Any]]) ?? []).contains { $0["name"] as? String == "ppocr/detector" })
        let metrics = try curl("\(server.base)/metrics")
        #expect(metrics.status == 200 && metrics.header("Content-Type")?.hasPrefix("text/plain") == true)
        for name in ["koten_http_requests_total", "koten_queue_depth", "koten_page_seconds_bucket", "koten_resident_bytes",
                     "koten_resident_high_water_bytes", "koten_model_state", "koten_refusals_total"] {
            #expect(metrics.text.contains(name), "\(name) missing")
        }
        let openapi = try curl("\(server.base)/openapi.json").json
        #expect((openapi["openapi"] as? String)?.hasPrefix("3.0") == true)
        let paths = (openapi["paths"] as? [String: Any]) ?? [:]
        for path in ["/v1/ocr", "/v1/jobs", "/v1/jobs/{id}", "/v1/jobs/{id}/events", "/v1/jobs/{id}/result",
                     "/v1/jobs/{id}/pages/{n}", "/v1/jobs/{id}/pages/{n}/image", "/healthz", "/readyz", "/metrics", "/v1/status"] {
            #expect(paths[path] != nil, "\(path) not in the OpenAPI document")
        }
        let root = try curl(server.base + "/")
        #expect(root.status == 200 && root.header("Content-Type") == "text/html; charset=utf-8")
        #expect(try curl(server.base + "/app.css").header("Content-Type")?.hasPrefix("text/css") == true)
        #expect(try curl(server.base + "/app.js").header("Content-Type")?.hasPrefix("text/javascript") == true)
        #expect(try curl(server.base + "/nothing").status == 404)
        #expect(try curl(server.base + "/v1/ocr").status == 405)
        #expect(try curl(server.base + "/v1/jobs/" + String(repeating: "0", count: 32)).status == 404)
    }

    @Test("POST /v1/ocr: a raw PNG gives the page's JSON; multipart with format=txt, alto and pdf give those documents")
    func ocr() throws {
        let server = try sharedServe.get()
        let json = try curl("\(server.base)/v1/ocr", ["-H", "Content-Type: image/png", "--data-binary", "@\(Self.page.path)"])
        #expect(json.status == 200, "\(json.text)")
        let lines = (json.json["lines"] as? [[String: Any]]) ?? []
        #expect(lines.count >= 5)
        #expect(lines.contains { ($0["text"] as? String)?.contains("目的") == true })
        let txt = try curl("\(server.base)/v1/ocr?format=txt", ["-F", "file=@\(Self.page.path)"])
        #expect(txt.status == 200 && txt.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(txt.text.contains("目的"))
        let alto = try curl("\(server.base)/v1/ocr", ["-F", "format=alto", "-F", "file=@\(Self.page.path)"])
        #expect(alto.status == 200 && alto.text.contains("<alto"), "\(alto.text.prefix(200))")
        let pdf = try curl("\(server.base)/v1/ocr?format=pdf", ["-F", "file=@\(Self.page.path)"])
        #expect(pdf.status == 200 && pdf.header("Content-Type") == "application/pdf")
        #expect(pdf.body.starts(with: Data("%PDF".utf8)))
    }

    @Test("jobs: a multi-page TIFF and a zip of images → 202, events to the end, pages, the page image, one PDF, a zip; DELETE removes")
    func jobs() throws {
        let server = try sharedServe.get()
        let dir = try TestPaths.temporaryDirectory("serve-job")
        let tiff = try ServeFixtures.lines(3, in: dir)
        let zip = dir.appendingPathComponent("pages.zip")
        try ServeFixtures.zip([("b/second.png", "open(\"\(Self.page.path)\", 'rb').read()"),
                               ("a/first.png", "open(\"\(Self.page.path)\", 'rb').read()")], to: zip)
        let posted = try curl("\(server.base)/v1/jobs", ["-F", "file=@\(tiff.path)", "-F", "file=@\(zip.path)"])
        #expect(posted.status == 202, "\(posted.text)")
        let id = try #require(posted.json["id"] as? String)
        #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
        #expect((posted.json["progress"] as? [String: Any])?["total"] as? Int == 5)
        #expect((posted.json["links"] as? [String: Any])?["events"] as? String == "/v1/jobs/\(id)/events")
        let events = try curl("\(server.base)/v1/jobs/\(id)/events", ["-N"])
        #expect(events.header("Content-Type") == "text/event-stream")
        #expect(events.text.contains("event: progress\ndata: {"))
        let end = try #require(events.text.components(separatedBy: "event: end\ndata: ").last)
        #expect(end.contains("\"state\":\"done\""), "\(end)")
        let job = try waitForJob(server, id)
        let pages = (job["pages"] as? [[String: Any]]) ?? []
        #expect(pages.map { $0["name"] as? String ?? "" } == ["lines-3.tif p1", "lines-3.tif p2", "lines-3.tif p3",
                                                            "pages.zip/a/first.png", "pages.zip/b/second.png"])
        #expect(pages.allSatisfy { $0["state"] as? String == "done" })
        let text = try curl("\(server.base)/v1/jobs/\(id)/pages/4?format=txt")
        #expect(text.status == 200 && text.text.contains("目的"))
        let image = try curl("\(server.base)/v1/jobs/\(id)/pages/4/image")
        #expect(image.header("Content-Type") == "image/jpeg" && image.body.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(try curl("\(server.base)/v1/jobs/\(id)/pages/6").status == 404)
        let pdf = try curl("\(server.base)/v1/jobs/\(id)/result?format=pdf")
        #expect(pdf.status == 200 && pdf.body.starts(with: Data("%PDF".utf8)))
        let pdfFile = dir.appendingPathComponent("job.pdf")
        try pdf.body.write(to: pdfFile)
        let info = try runProcess(URL(fileURLWithPath: "/usr/bin/pdfinfo"), [pdfFile.path])
        #expect(info.stdout.split(separator: "\n").contains { $0.hasPrefix("Pages:") && $0.hasSuffix(" 5") }, "\(info.stdout)")
        let extracted = try runProcess(URL(fileURLWithPath: "/usr/bin/pdftotext"), [pdfFile.path, "-"])
        #expect(withoutWhitespace(extracted.stdout).contains("目的"))
        let zipped = try curl("\(server.base)/v1/jobs/\(id)/result?format=json")
        #expect(zipped.status == 200 && zipped.header("Content-Type") == "application/zip")
        let zipFile = dir.appendingPathComponent("result.zip")
        try zipped.body.write(to: zipFile)
        let listing = try runProcess(URL(fileURLWithPath: "/usr/bin/unzip"), ["-l", zipFile.path])
        #expect(listing.stdout.contains("0001.json") && listing.stdout.contains("0005.json"), "\(listing.stdout)")
        #expect(try curl("\(server.base)/v1/jobs/\(id)", ["-X", "DELETE"]).status == 204)
        #expect(try curl("\(server.base)/v1/jobs/\(id)").status == 404)
        #expect(!FileManager.default.fileExists(atPath: server.work.appendingPathComponent("jobs/\(id)/job.json").path))
    }

    @Test("every refusal with a real bad input; after each the server answers and another job is intact")
    func refusals() throws {
        let server = try sharedServe.get()
        let dir = try TestPaths.temporaryDirectory("serve-bad")
        let tiff = try ServeFixtures.lines(4, in: dir)
        let other = try curl("\(server.base)/v1/jobs", ["-H", "Content-Type: image/tiff", "--data-binary", "@\(tiff.path)"])
        #expect(other.status == 202, "\(other.text)")
        let otherID = try #require(other.json["id"] as? String)

        let truncated = dir.appendingPathComponent("truncated.jpg")
        let jpeg = dir.appendingPathComponent("page.jpg")
        try ImageWriter.save(try BatchFixtures.crop(0), to: jpeg)
        try Data(try Data(contentsOf: jpeg).prefix(600)).write(to: truncated)
        let bomb = dir.appendingPathComponent("bomb.png")
        try OversizedImage.png(width: 60_000, height: 60_000).write(to: bomb)
        let big = dir.appendingPathComponent("big.bin")
        try Data(repeating: 0x41, count: 3_000_000).write(to: big)
        let text = dir.appendingPathComponent("notes.png")
        try Data("just some text, not an image\n".utf8).write(to: text)
        let zipBomb = dir.appendingPathComponent("bomb.zip")
        try ServeFixtures.zip([("zeros.png", "b'\\x89PNG' + bytes(60_000_000)")], to: zipBomb)
        let zipSlip = dir.appendingPathComponent("slip.zip")
        try ServeFixtures.zip([("../../escape.png", "open(\"\(Self.page.path)\", 'rb').read()")], to: zipSlip)
        let empty = dir.appendingPathComponent("empty.png")
        try Data().write(to: empty)

        let cases: [(String, [String], String, Int, String)] = [
            ("empty body", ["-X", "POST", "-H", "Content-Type: image/png"], "/v1/ocr", 400, "empty_body"),
            ("empty file part", ["-F", "file=@\(empty.path)"], "/v1/ocr", 400, "empty_body"),
            ("truncated JPEG", ["-H", "Content-Type: image/jpeg", "--data-binary", "@\(truncated.path)"], "/v1/ocr", 422, "undecodable"),
            ("body past the limit", ["-H", "Content-Type: image/png", "--data-binary", "@\(big.path)"], "/v1/ocr", 413, "too_large"),
            ("streamed body past the limit", ["-H", "Content-Type: image/png", "-H", "Transfer-Encoding: chunked",
                                              "--data-binary", "@\(big.path)"], "/v1/ocr", 413, "too_large"),
            ("declared Content-Length of 10 GB", ["-H", "Content-Type: image/png", "-H", "Content-Length: 10000000000",
                                                  "--data-binary", "@\(Self.page.path)"], "/v1/ocr", 413, "too_large"),
            ("image bomb", ["-H", "Content-Type: image/png", "--data-binary", "@\(bomb.path)"], "/v1/ocr", 422, "too_many_pixels"),
            ("image bomb in a job", ["-F", "file=@\(bomb.path)"], "/v1/jobs", 422, "too_many_pixels"),
            ("not an image", ["-H", "Content-Type: image/png", "--data-binary", "@\(text.path)"], "/v1/ocr", 415, "unsupported_type"),
            ("a declared type that is no image", ["-H", "Content-Type: text/plain", "--data-binary", "@\(Self.page.path)"], "/v1/ocr", 415, "unsupported_type"),
            ("zip bomb", ["-F", "file=@\(zipBomb.path)"], "/v1/jobs", 422, "bad_zip"),
            ("zip with ../ names", ["-F", "file=@\(zipSlip.path)"], "/v1/jobs", 422, "bad_zip"),
            ("unknown format", ["-F", "format=docx", "-F", "file=@\(Self.page.path)"], "/v1/ocr", 400, "bad_option"),
            ("unknown mode", ["-H", "Content-Type: image/png", "--data-binary", "@\(Self.page.path)"], "/v1/ocr?mode=tesseract", 400, "bad_option"),
            ("bad multipart", ["-H", "Content-Type: multipart/form-data", "--data-binary", "@\(Self.page.path)"], "/v1/ocr", 400, "bad_body"),
        ]
        for (name, arguments, route, status, code) in cases {
            let reply = try curl(server.base + route, arguments)
            #expect(reply.status == status, "\(name): \(reply.status) \(reply.text)")
            #expect(reply.json["error"] as? String == code, "\(name): \(reply.text)")
            #expect(!(reply.json["message"] as? String ?? "").isEmpty && !(reply.json["message"] as? String ?? "").contains("\n"))
            #expect(try curl(server.base + "/healthz").status == 200, "the server stopped answering after: \(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: server.work.deletingLastPathComponent().appendingPathComponent("escape.png").path))
        let job = try waitForJob(server, otherID)
        #expect((job["progress"] as? [String: Any])?["done"] as? Int == 4, "\(job)")
        #expect(try curl("\(server.base)/v1/jobs/\(otherID)/pages/4?format=txt").status == 200)
        let metrics = try curl(server.base + "/metrics").text
        #expect(metrics.contains("koten_refusals_total{reason=\"upload\"}"))
    }

    @Test("a token: 401 without it or with a wrong one; past the client's rate 429; a full queue 503 with Retry-After")
    func tokenRateQueue() throws {
        let dir = try TestPaths.temporaryDirectory("serve-token")
        let tokenFile = dir.appendingPathComponent("token")
        let token = "s3cret-token-0123456789abcdef"
        try Data((token + "\n").utf8).write(to: tokenFile)
        // The worker holds after the first page (test hook), so the job keeps the queue's one place.
        let server = try ServeProcess(work: dir.appendingPathComponent("work"),
                                      ["--token-file", tokenFile.path, "--queue", "1", "--client-rate", "3"],
                                      environment: ["KOTEN_OCR_TEST_SERVE_HOLD_AFTER_PAGES": "1"])
        let auth = ["-H", "Authorization: Bearer \(token)"]
        #expect(try curl(server.base + "/v1/status").status == 401)
        #expect(try curl(server.base + "/v1/status", ["-H", "Authorization: Bearer \(token.dropLast())x"]).status == 401)
        #expect(try curl(server.base + "/v1/status", ["-H", "Authorization: Bearer \(token)x"]).status == 401)
        #expect(try curl(server.base + "/v1/status", auth).status == 200)
        #expect(try curl(server.base + "/healthz").status == 200)
        let tiff = try ServeFixtures.lines(2, in: dir)
        let noToken = try curl(server.base + "/v1/jobs", ["-F", "file=@\(tiff.path)"])
        #expect(noToken.status == 401 && noToken.json["error"] as? String == "unauthorised")
        let job = try curl(server.base + "/v1/jobs", auth + ["-F", "file=@\(tiff.path)"])
        #expect(job.status == 202, "\(job.text)")
        let full = try curl(server.base + "/v1/ocr", auth + ["-F", "file=@\(Self.page.path)"])
        #expect(full.status == 503 && full.json["error"] as? String == "queue_full" && full.header("Retry-After") != nil, "\(full.text)")
        #expect(try curl(server.base + "/readyz").status == 503)
        #expect(try curl(server.base + "/v1/ocr", auth + ["-F", "file=@\(Self.page.path)"]).status == 503)
        let limited = try curl(server.base + "/v1/ocr", auth + ["-F", "file=@\(Self.page.path)"])
        #expect(limited.status == 429 && limited.header("Retry-After") != nil, "\(limited.text)")
        #expect(try curl(server.base + "/healthz").status == 200)
        server.kill9()
    }

    @Test("a format failing on every page: the pages stay done, the job's failures name it and the PDF it took with it")
    func formatFailure() throws {
        let dir = try TestPaths.temporaryDirectory("serve-format-failure")
        let server = try ServeProcess(work: dir.appendingPathComponent("work"), ["--page-timeout", "3600"],
                                      environment: ["KOTEN_OCR_TEST_FAIL_FORMAT": "pdf"])
        let posted = try curl(server.base + "/v1/jobs", ["-F", "file=@\(try ServeFixtures.lines(2, in: dir).path)"])
        let id = try #require(posted.json["id"] as? String, "\(posted.text)")
        let job = try waitForJob(server, id)
        #expect((job["progress"] as? [String: Any])?["done"] as? Int == 2, "\(job)")
        let failures = (job["failures"] as? [String]) ?? []
        #expect(failures.contains { $0.contains("format pdf") }, "\(job)")
        #expect(failures.contains { $0.contains(".pdf not written") }, "\(job)")
        #expect(try curl("\(server.base)/v1/jobs/\(id)/pages/2?format=txt").status == 200)
        server.kill9()
        // After a restart the failures are still the job's.
        let again = try ServeProcess(work: dir.appendingPathComponent("work"))
        #expect((try curl("\(again.base)/v1/jobs/\(id)").json["failures"] as? [String]) == failures)
        again.kill9()
    }

    @Test("a job's page that failed: its routes answer 404 page_failed with the reason, not 'not done'")
    func failedPage() throws {
        let dir = try TestPaths.temporaryDirectory("serve-failed-page")
        let server = try ServeProcess(work: dir.appendingPathComponent("work"), ["--page-timeout", "3600"])
        let jpeg = dir.appendingPathComponent("page.jpg"), truncated = dir.appendingPathComponent("truncated.jpg")
        try ImageWriter.save(try BatchFixtures.crop(0), to: jpeg)
        let bytes = try Data(contentsOf: jpeg)
        try Data(bytes.prefix(bytes.count * 2 / 3)).write(to: truncated)
        let posted = try curl(server.base + "/v1/jobs", ["-F", "file=@\(truncated.path)"])
        let id = try #require(posted.json["id"] as? String, "\(posted.text)")
        let job = try waitForJob(server, id)
        let page = ((job["pages"] as? [[String: Any]]) ?? []).first ?? [:]
        #expect(page["state"] as? String == "failed", "\(job)")
        for route in ["/v1/jobs/\(id)/pages/1?format=txt", "/v1/jobs/\(id)/pages/1/image"] {
            let reply = try curl(server.base + route)
            #expect(reply.status == 404 && reply.json["error"] as? String == "page_failed", "\(route): \(reply.text)")
            #expect((reply.json["message"] as? String ?? "").contains(page["error"] as? String ?? "?"), "\(reply.text)")
        }
        server.kill9()
    }

    @Test("listening beyond loopback needs --token-file")
    func nonLoopbackNeedsToken() throws {
        let result = try runProcess(TestPaths.cli, ["serve", "--host", "0.0.0.0", "--port", "0"])
        #expect(result.status == 2 && result.stderr.contains("--token-file"), "\(result.stderr)")
    }

    @Test("restart: a job of 20 pages, the server killed with kill -9 after page 5 and started again: the job completes, its files byte-identical to an uninterrupted job's")
    func restart() throws {
        let dir = try TestPaths.temporaryDirectory("serve-restart")
        let work = dir.appendingPathComponent("work")
        let tiff = try ServeFixtures.lines(20, in: dir)
        // No page time limit that a loaded machine could reach: the test depends on no timing.
        let unlimited = ["--page-timeout", "3600"]
        let first = try ServeProcess(work: work, unlimited, environment: ["KOTEN_OCR_TEST_SERVE_HOLD_AFTER_PAGES": "5"])
        let posted = try curl(first.base + "/v1/jobs", ["-F", "file=@\(tiff.path)"])
        let id = try #require(posted.json["id"] as? String, "\(posted.text)")
        let held = try waitForJob(first, id) { ($0["progress"] as? [String: Any])?["done"] as? Int == 5 }
        #expect(held["state"] as? String == "running")
        first.kill9()
        let second = try ServeProcess(work: work, unlimited)
        let resumed = try waitForJob(second, id)
        #expect((resumed["progress"] as? [String: Any])?["done"] as? Int == 20, "\(resumed)")
        let again = try curl(second.base + "/v1/jobs", ["-F", "file=@\(tiff.path)"])
        let otherID = try #require(again.json["id"] as? String)
        let other = try waitForJob(second, otherID)
        for job in [resumed, other] {
            #expect((job["progress"] as? [String: Any])?["done"] as? Int == 20 && job["failures"] == nil, "\(job)")
        }
        let a = work.appendingPathComponent("jobs/\(id)"), b = work.appendingPathComponent("jobs/\(otherID)")
        for folder in [a, b] where !FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/0001.pdf").path) {
            let manifest = (try? String(contentsOf: folder.appendingPathComponent("out/.koten-ocr-manifest.jsonl"), encoding: .utf8)) ?? ""
            Issue.record("\(folder.lastPathComponent) has no 0001.pdf; resumed \(resumed); other \(other); manifest:\n\(manifest)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: a.appendingPathComponent("out").path)
            .filter { !$0.hasPrefix(".") }.sorted()  // not the manifest, nor the PDF's page files (JSON in any key order)
        #expect(files.filter { $0.hasSuffix(".json") }.count == 20)
        #expect(files == (try FileManager.default.contentsOfDirectory(atPath: b.appendingPathComponent("out").path)
            .filter { !$0.hasPrefix(".") }.sorted()))
        for name in files {
            let x = try Data(contentsOf: a.appendingPathComponent("out/\(name)")), y = try Data(contentsOf: b.appendingPathComponent("out/\(name)"))
            #expect(x == y, "\(name) differs")
        }
        #expect(try Data(contentsOf: a.appendingPathComponent("job.pdf")) == Data(contentsOf: b.appendingPathComponent("job.pdf")))
        second.kill9()
    }
}
