import Foundation
import Testing
@testable import KotenOCRKit
@testable import KotenOCRServer
import KotenOCRTestSupport

/// The HTTP API called in-process (`APIClient`: the router's screen and handler, no socket), with real pages and
/// real bad inputs: every route, every refusal the API makes, and after each the service still answers and another
/// job is intact. The transport's own refusals, restarts and the browser are the child servers' (ServeTests,
/// WebAppBrowserTests).
@Suite("serve: the API in-process")
struct APITests {
    static let page = TestPaths.image("ndlocr-lite-rs/scaned0.png")

    @Test("health, readiness, status, metrics, OpenAPI and the web app's three files; 404 for no route, 405 with Allow")
    func endpoints() async throws {
        let api = try await sharedAPI()
        #expect(try await api.call("GET", "/healthz").json["status"] as? String == "ok")
        let ready = try await api.call("GET", "/readyz")
        #expect(ready.status == 200 && ready.json["ready"] as? Bool == true)
        let status = try await api.call("GET", "/v1/status").json
        #expect(status["mode"] as? String == "ppocr")
        #expect((status["queue"] as? [String: Any])?["capacity"] as? Int == 64)
        #expect((status["budgetBytes"] as? Int) == api.service.engine.store.budgetBytes)
        #expect(((status["models"] as? [[String: Any]]) ?? []).contains { $0["name"] as? String == "ppocr/detector" })
        let metrics = try await api.call("GET", "/metrics")
        #expect(metrics.status == 200 && metrics.header("Content-Type")?.hasPrefix("text/plain") == true)
        for name in ["koten_http_requests_total", "koten_queue_depth", "koten_page_seconds_bucket", "koten_resident_bytes",
                     "koten_resident_high_water_bytes", "koten_model_state", "koten_refusals_total"] {
            #expect(metrics.text.contains(name), "\(name) missing")
        }
        let openapi = try await api.call("GET", "/openapi.json").json
        #expect((openapi["openapi"] as? String)?.hasPrefix("3.0") == true)
        let root = try await api.call("GET", "/")
        #expect(root.status == 200 && root.header("Content-Type") == "text/html; charset=utf-8")
        #expect(try await api.call("GET", "/app.css").header("Content-Type")?.hasPrefix("text/css") == true)
        #expect(try await api.call("GET", "/app.js").header("Content-Type")?.hasPrefix("text/javascript") == true)
        #expect(try await api.call("GET", "/nothing").status == 404)
        let wrongMethod = try await api.call("GET", "/v1/ocr")
        #expect(wrongMethod.status == 405 && wrongMethod.header("Allow") == "POST" && wrongMethod.error == "method_not_allowed")
        #expect(try await api.call("PUT", "/v1/jobs/" + String(repeating: "0", count: 32)).header("Allow") == "GET, HEAD, DELETE")
        #expect(try await api.call("GET", "/v1/jobs/" + String(repeating: "0", count: 32)).status == 404)
    }

    @Test("POST /v1/ocr: a raw PNG gives the page's JSON; multipart with format=txt, alto and pdf give those documents")
    func ocr() async throws {
        let api = try await sharedAPI()
        let json = try await api.call("POST", "/v1/ocr", body: .raw(Self.page, type: "image/png"))
        #expect(json.status == 200, "\(json.text)")
        let lines = (json.json["lines"] as? [[String: Any]]) ?? []
        #expect(lines.count >= 5)
        #expect(lines.contains { ($0["text"] as? String)?.contains("目的") == true })
        let txt = try await api.call("POST", "/v1/ocr?format=txt", body: .multipart(fields: [:], files: [(Self.page, nil, "image/png")]))
        #expect(txt.status == 200 && txt.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(txt.text.contains("目的"))
        let line = try ServeFixtures.lines(1, in: try TestPaths.temporaryDirectory("api-ocr"))
        let alto = try await api.call("POST", "/v1/ocr", body: .multipart(fields: ["format": "alto"], files: [(line, nil, "image/tiff")]))
        #expect(alto.status == 200 && alto.text.contains("<alto"), "\(alto.text.prefix(200))")
        let pdf = try await api.call("POST", "/v1/ocr?format=pdf", body: .multipart(fields: [:], files: [(line, nil, nil)]))
        #expect(pdf.status == 200 && pdf.header("Content-Type") == "application/pdf")
        #expect(pdf.body.starts(with: Data("%PDF".utf8)))
    }

    @Test("jobs: a multi-page TIFF and a zip of images → 202, events to the end, pages, the page image, one PDF, a zip; DELETE removes")
    func jobs() async throws {
        let api = try await sharedAPI()
        let dir = try TestPaths.temporaryDirectory("api-job")
        let tiff = try ServeFixtures.lines(3, in: dir)
        let zip = dir.appendingPathComponent("pages.zip")
        try ServeFixtures.zip([("b/second.png", "open(\"\(Self.page.path)\", 'rb').read()"),
                               ("a/first.png", "open(\"\(Self.page.path)\", 'rb').read()")], to: zip)
        let posted = try await api.call("POST", "/v1/jobs", body: .multipart(fields: [:], files: [(tiff, nil, "image/tiff"), (zip, nil, "application/zip")]))
        #expect(posted.status == 202, "\(posted.text)")
        let id = try #require(posted.json["id"] as? String)
        #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
        #expect(posted.header("Location") == "/v1/jobs/\(id)")
        #expect((posted.json["progress"] as? [String: Any])?["total"] as? Int == 5)
        #expect((posted.json["links"] as? [String: Any])?["events"] as? String == "/v1/jobs/\(id)/events")
        let events = try await api.call("GET", "/v1/jobs/\(id)/events")
        #expect(events.header("Content-Type") == "text/event-stream")
        let end = try #require(events.text.components(separatedBy: "event: end\ndata: ").last)
        #expect(end.contains("\"state\":\"done\""), "\(end)")
        let job = try await api.call("GET", "/v1/jobs/\(id)").json
        let pages = (job["pages"] as? [[String: Any]]) ?? []
        #expect(pages.map { $0["name"] as? String ?? "" } == ["lines-3.tif p1", "lines-3.tif p2", "lines-3.tif p3",
                                                            "pages.zip/a/first.png", "pages.zip/b/second.png"])
        #expect(pages.allSatisfy { $0["state"] as? String == "done" })
        let text = try await api.call("GET", "/v1/jobs/\(id)/pages/4?format=txt")
        #expect(text.status == 200 && text.text.contains("目的"))
        // Each format names the client's file (and page), never the server's copy of it.
        let source = (try await api.call("GET", "/v1/jobs/\(id)/pages/4").json["source"] as? [String: Any]) ?? [:]
        #expect(source["path"] as? String == "pages.zip/a/first.png", "\(source)")
        let second = (try await api.call("GET", "/v1/jobs/\(id)/pages/2").json["source"] as? [String: Any]) ?? [:]
        #expect(second["path"] as? String == "lines-3.tif" && second["page"] as? Int == 2, "\(second)")
        #expect(try await api.call("GET", "/v1/jobs/\(id)/pages/4?format=alto").text.contains("<fileName>pages.zip/a/first.png</fileName>"))
        #expect(try await api.call("GET", "/v1/jobs/\(id)/pages/4?format=page").text.contains("imageFilename=\"pages.zip/a/first.png\""))
        #expect(try await api.call("GET", "/v1/jobs/\(id)/pages/4?format=hocr").text.contains("pages.zip/a/first.png"))
        #expect(try await api.call("GET", "/v1/jobs/\(id)/pages/2?format=html").text.contains("<title>lines-3.tif (page 2)"))
        for n in 1...5 {
            for format in ["json", "alto", "page", "hocr", "html"] {
                let body = try await api.call("GET", "/v1/jobs/\(id)/pages/\(n)?format=\(format)").text
                #expect(!body.contains(api.work.path) && !body.contains("/run/"), "page \(n) \(format) names a server path")
            }
        }
        let image = try await api.call("GET", "/v1/jobs/\(id)/pages/4/image")
        #expect(image.header("Content-Type") == "image/jpeg" && image.body.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(try await api.call("GET", "/v1/jobs/\(id)/pages/6").status == 404)
        let pdf = try await api.call("GET", "/v1/jobs/\(id)/result?format=pdf")
        #expect(pdf.status == 200 && pdf.body.starts(with: Data("%PDF".utf8)))
        #expect(pdf.header("Content-Disposition")?.contains("filename=\"lines-3.pdf\"") == true)
        let pdfFile = dir.appendingPathComponent("job.pdf")
        try pdf.body.write(to: pdfFile)
        let info = try runProcess(URL(fileURLWithPath: "/usr/bin/pdfinfo"), [pdfFile.path])
        #expect(info.stdout.split(separator: "\n").contains { $0.hasPrefix("Pages:") && $0.hasSuffix(" 5") }, "\(info.stdout)")
        let zipped = try await api.call("GET", "/v1/jobs/\(id)/result?format=json")
        #expect(zipped.status == 200 && zipped.header("Content-Type") == "application/zip")
        let zipFile = dir.appendingPathComponent("result.zip")
        try zipped.body.write(to: zipFile)
        let listing = try runProcess(URL(fileURLWithPath: "/usr/bin/unzip"), ["-l", zipFile.path])
        #expect(listing.stdout.contains("0001.json") && listing.stdout.contains("0005.json"), "\(listing.stdout)")
        // The whole text: each page's txt followed by a form feed, as pdftotext writes; the pages' zip is txt-zip.
        let whole = try await api.call("GET", "/v1/jobs/\(id)/result?format=txt")
        #expect(whole.status == 200 && whole.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(whole.header("Content-Disposition")?.contains("filename=\"lines-3.txt\"") == true)
        var texts: [String] = []
        for n in 1...5 { texts.append(try await api.call("GET", "/v1/jobs/\(id)/pages/\(n)?format=txt").text) }
        #expect(whole.text == texts.map { $0 + "\u{0C}" }.joined() && whole.text.contains("目的"), "\(whole.text)")
        #expect(whole.text.split(separator: "\u{0C}", omittingEmptySubsequences: false).count == 6)
        let txtZip = try await api.call("GET", "/v1/jobs/\(id)/result?format=txt-zip")
        #expect(txtZip.status == 200 && txtZip.header("Content-Type") == "application/zip" && txtZip.body.starts(with: [0x50, 0x4B]))
        #expect(txtZip.header("Content-Disposition")?.contains("filename=\"lines-3-txt.zip\"") == true)
        #expect(try await api.call("GET", "/v1/jobs/\(id)/result?format=alto-zip").body == api.call("GET", "/v1/jobs/\(id)/result?format=alto").body)
        #expect(try await api.call("GET", "/v1/jobs/\(id)/result?format=tei").error == "bad_option")
        #expect(try await api.call("DELETE", "/v1/jobs/\(id)").status == 204)
        #expect(try await api.call("GET", "/v1/jobs/\(id)").status == 404)
        #expect(!FileManager.default.fileExists(atPath: api.work.appendingPathComponent("jobs/\(id)/job.json").path))
    }

    @Test("every refusal of the API with a real bad input; after each the service answers and another job is intact")
    func refusals() async throws {
        let api = try await sharedAPI()
        let dir = try TestPaths.temporaryDirectory("api-bad")
        let tiff = try ServeFixtures.lines(4, in: dir)
        let other = try await api.call("POST", "/v1/jobs", body: .raw(tiff, type: "image/tiff"))
        #expect(other.status == 202, "\(other.text)")
        let otherID = try #require(other.json["id"] as? String)

        let truncated = dir.appendingPathComponent("truncated.jpg"), jpeg = dir.appendingPathComponent("page.jpg")
        try ImageWriter.save(try BatchFixtures.crop(0), to: jpeg)
        try Data(try Data(contentsOf: jpeg).prefix(600)).write(to: truncated)
        let bomb = dir.appendingPathComponent("bomb.png")
        try OversizedImage.png(width: 60_000, height: 60_000).write(to: bomb)
        let text = dir.appendingPathComponent("notes.png")
        try Data("just some text, not an image\n".utf8).write(to: text)
        let zipBomb = dir.appendingPathComponent("bomb.zip")
        try ServeFixtures.zip([("zeros.png", "b'\\x89PNG' + bytes(60_000_000)")], to: zipBomb)
        let zipSlip = dir.appendingPathComponent("slip.zip")
        try ServeFixtures.zip([("../../escape.png", "open(\"\(Self.page.path)\", 'rb').read()")], to: zipSlip)
        let empty = dir.appendingPathComponent("empty.png")
        try Data().write(to: empty)

        let cases: [(String, String, APIClient.Body, Int, String)] = [
            ("empty body", "/v1/ocr", .bytes(Data(), type: "image/png"), 400, "empty_body"),
            ("empty file part", "/v1/ocr", .multipart(fields: [:], files: [(empty, nil, "image/png")]), 400, "empty_body"),
            ("truncated JPEG", "/v1/ocr", .raw(truncated, type: "image/jpeg"), 422, "undecodable"),
            ("image bomb", "/v1/ocr", .raw(bomb, type: "image/png"), 422, "too_many_pixels"),
            ("image bomb in a job", "/v1/jobs", .multipart(fields: [:], files: [(bomb, nil, nil)]), 422, "too_many_pixels"),
            ("not an image", "/v1/ocr", .raw(text, type: "image/png"), 415, "unsupported_type"),
            ("a declared type that is no image", "/v1/ocr", .raw(Self.page, type: "text/plain"), 415, "unsupported_type"),
            ("zip bomb", "/v1/jobs", .multipart(fields: [:], files: [(zipBomb, nil, nil)]), 422, "bad_zip"),
            ("zip with ../ names", "/v1/jobs", .multipart(fields: [:], files: [(zipSlip, nil, nil)]), 422, "bad_zip"),
            ("unknown format", "/v1/ocr", .multipart(fields: ["format": "docx"], files: [(Self.page, nil, nil)]), 400, "bad_option"),
            ("unknown mode", "/v1/ocr?mode=tesseract", .raw(Self.page, type: "image/png"), 400, "bad_option"),
            ("another mode than the server's", "/v1/ocr?mode=ndl", .raw(Self.page, type: "image/png"), 400, "bad_option"),
            ("a format chosen when posting a job", "/v1/jobs?format=txt", .raw(Self.page, type: "image/png"), 400, "bad_option"),
            ("a manifest that is no URL", "/v1/jobs?manifest=/etc/passwd", .none, 400, "bad_option"),
            ("files and a manifest", "/v1/jobs", .multipart(fields: ["manifest": "http://127.0.0.1:9/m.json"], files: [(Self.page, nil, nil)]),
             400, "bad_option"),
        ]
        for (name, target, body, status, code) in cases {
            let reply = try await api.call("POST", target, body: body)
            #expect(reply.status == status, "\(name): \(reply.status) \(reply.text)")
            #expect(reply.error == code, "\(name): \(reply.text)")
            let message = reply.json["message"] as? String ?? ""
            #expect(!message.isEmpty && !message.contains("\n"), "\(name): \(reply.text)")
            #expect(try await api.call("GET", "/healthz").status == 200, "the service stopped answering after: \(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: api.work.deletingLastPathComponent().appendingPathComponent("escape.png").path))
        let job = try await api.finished(otherID)
        #expect((job["progress"] as? [String: Any])?["done"] as? Int == 4, "\(job)")
        #expect(try await api.call("GET", "/v1/jobs/\(otherID)/pages/4?format=txt").status == 200)
        let metrics = try await api.call("GET", "/metrics").text
        for reason in ["type", "zip"] { #expect(metrics.contains("koten_refusals_total{reason=\"\(reason)\"}"), "\(reason)") }
    }

    @Test("a token: 401 without it or with a wrong one; past the client's rate 429; a full queue 503 with Retry-After")
    func tokenRateQueue() async throws {
        let token = "s3cret-token-0123456789abcdef"
        // The worker is not started: the job keeps the queue's one place.
        let api = try await APIClient.make(["--queue", "1", "--client-rate", "3"], token: token, start: false)
        let auth = ["Authorization": "Bearer \(token)"]
        #expect(try await api.call("GET", "/v1/status").status == 401)
        #expect(try await api.call("GET", "/v1/status", headers: ["Authorization": "Bearer \(token.dropLast())x"]).status == 401)
        #expect(try await api.call("GET", "/v1/status", headers: ["Authorization": "Bearer \(token)x"]).status == 401)
        #expect(try await api.call("GET", "/v1/status", headers: auth).status == 200)
        #expect(try await api.call("GET", "/healthz").status == 200)
        let dir = try TestPaths.temporaryDirectory("api-token")
        let tiff = try ServeFixtures.lines(2, in: dir)
        let noToken = try await api.call("POST", "/v1/jobs", body: .multipart(fields: [:], files: [(tiff, nil, nil)]))
        #expect(noToken.status == 401 && noToken.error == "unauthorised" && noToken.header("WWW-Authenticate") == "Bearer")
        let job = try await api.call("POST", "/v1/jobs", headers: auth, body: .multipart(fields: [:], files: [(tiff, nil, nil)]))
        #expect(job.status == 202, "\(job.text)")
        let full = try await api.call("POST", "/v1/ocr", headers: auth, body: .multipart(fields: [:], files: [(Self.page, nil, nil)]))
        #expect(full.status == 503 && full.error == "queue_full" && full.header("Retry-After") != nil, "\(full.text)")
        #expect(try await api.call("GET", "/readyz").status == 503)
        #expect(try await api.call("POST", "/v1/ocr", headers: auth, body: .multipart(fields: [:], files: [(Self.page, nil, nil)])).status == 503)
        let limited = try await api.call("POST", "/v1/ocr", headers: auth, body: .multipart(fields: [:], files: [(Self.page, nil, nil)]))
        #expect(limited.status == 429 && limited.header("Retry-After") == "60", "\(limited.text)")
        let metrics = try await api.call("GET", "/metrics", headers: auth).text
        for reason in ["token", "queue", "client_rate"] { #expect(metrics.contains("koten_refusals_total{reason=\"\(reason)\"} "), "\(reason)") }
    }

    @Test("a job's page that failed: its routes answer 404 page_failed with the reason, not 'not done'")
    func failedPage() async throws {
        let api = try await sharedAPI()
        let dir = try TestPaths.temporaryDirectory("api-failed-page")
        let jpeg = dir.appendingPathComponent("page.jpg"), truncated = dir.appendingPathComponent("truncated.jpg")
        try ImageWriter.save(try BatchFixtures.crop(0), to: jpeg)
        let bytes = try Data(contentsOf: jpeg)
        try Data(bytes.prefix(bytes.count * 2 / 3)).write(to: truncated)
        let posted = try await api.call("POST", "/v1/jobs", body: .multipart(fields: [:], files: [(truncated, nil, nil)]))
        let id = try #require(posted.json["id"] as? String, "\(posted.text)")
        let job = try await api.finished(id)
        let page = ((job["pages"] as? [[String: Any]]) ?? []).first ?? [:]
        #expect(page["state"] as? String == "failed", "\(job)")
        for route in ["/v1/jobs/\(id)/pages/1?format=txt", "/v1/jobs/\(id)/pages/1/image"] {
            let reply = try await api.call("GET", route)
            #expect(reply.status == 404 && reply.error == "page_failed", "\(route): \(reply.text)")
            #expect((reply.json["message"] as? String ?? "").contains(page["error"] as? String ?? "?"), "\(reply.text)")
        }
    }

    @Test("BMP, HEIC and AVIF uploads are read, as the command line reads them (one signature sniffer)",
          arguments: ["bmp", "heic", "avif"])
    func otherFormats(_ suffix: String) async throws {
        let api = try await sharedAPI()
        let file = try TestPaths.temporaryDirectory("api-format").appendingPathComponent("page.\(suffix)")
        try ImageWriter.save(try BatchFixtures.crop(10), to: file)
        let reply = try await api.call("POST", "/v1/ocr?format=txt", body: .raw(file, type: "application/octet-stream"))
        #expect(reply.status == 200, "\(suffix): \(reply.text)")
        #expect(FileSignature.of(fileAt: file) != nil)
    }
}
