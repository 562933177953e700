import Foundation
import Testing
@testable import KotenOCRKit

/// The web app at `/` of `koten-ocr serve` (docs/serve.md, "The web app"), driven in Debian's headless Chromium by
/// `scripts/webapp-browser.py` (the DevTools protocol on a pipe) against the real server on 127.0.0.1 with an
/// ephemeral port. Screenshots are kept in `.build/test-artifacts/serve/webapp/`.
@Suite("serve: the web app in headless Chromium")
struct WebAppBrowserTests {
    /// What the driver reports (see the script).
    struct Report: Decodable {
        struct Rect: Decodable {
            let left, top, right, bottom: Double
            func contains(_ x: Double, _ y: Double, slack: Double) -> Bool {
                x >= left - slack && x <= right + slack && y >= top - slack && y <= bottom + slack
            }
        }
        struct Line: Decodable {
            let id: String
            let line: Int
            let text: String
            let lang: String
            let writingMode: String
            let box: Rect
            let textRect: Rect
            let hit: String?
        }
        struct Page: Decodable {
            let n: Int
            let state: String
            let lines: [Line]
            let list: [String]
            let listLang: String?
            struct Ruby: Decodable, Equatable { let base: String; let reading: String }
            let ruby: [Ruby]?
            let downloads: [String]?
            /// A library's page: its attribution and rights as shown, and the rights link.
            let credit: String?
            let rights: String?
            /// Its heading (`Page 1 · <its canvas's label or file name>`).
            let name: String?
        }
        struct Job: Decodable {
            let id: String
            let title: String
            let state: String
            let status: String
            let downloads: [String]
            let pages: [Page]
        }
        struct Link: Decodable { let href: String; let status: Int; let type: String? }
        struct Download: Decodable { let job: String; let path: String; let suggestedFilename: String? }
        struct Refused: Decodable { let error: String; let jobs: Int; let field: String? }
        let manifestFieldAfter: [String]?
        let screenshots: [String]
        let focusOrder: [String]
        let dropFocusOutline: String
        let lang: [String: String]
        let dropLabelJa: String
        let resources: [String]
        let choosersOpened: [String]?
        let jobs: [Job]
        let statusEn: [String]
        let links: [Link]
        let downloads: [Download]
        let refused: Refused?
        let badManifest: Refused?
        struct Removed: Decodable { let job: String; let status: Int; let jobs: Int }
        let removed: Removed?
        struct Found: Decodable { let text: String; let found: Bool; let inLine: Bool; let selection: Rect?; let box: Rect }
        let found: [Found?]
        struct Reloaded: Decodable { let id: String; let title: String; let pages: Int }
        let reloaded: [Reloaded]
    }

    @Test("scaned0.png, a two-page PDF and a page of vertical columns with ruby chosen through the page's file input (Tab to the drop zone, Enter, Space), one job each: every page shown read, a line's text at its box and found by the browser's search, vertical text written vertically, ruby as ruby, every download link answering, each job's PDF downloaded and read by pdftotext; a refused file's error shown; a job removed, the others shown again after a reload; screenshots kept",
          .timeLimit(.minutes(8)))
    func uploadReadDownload() throws {
        let folder = try TestPaths.temporaryDirectory("webapp")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("two-pages.pdf")
        try BatchFixtures.pdf(ofCrops: [9, 26], scratch: folder).write(to: pdf)
        let png = TestPaths.packageRoot.appendingPathComponent("samples/scaned0.png")
        let columns = TestPaths.fixtures.appendingPathComponent("field/vertical_with_ruby.png")   // two columns with ruby
        let notes = folder.appendingPathComponent("notes.txt")   // refused by the server (not an image)
        try Data("a note, not a page\n".utf8).write(to: notes)

        // Behind a reverse proxy that serves it under a path and sets the Host to the server's own, as nginx does by
        // default: the page's origin is the proxy's, named to the server by --public-url (docs/serve.md, "The web app").
        let proxy = try ReverseProxy(prefix: "/ocr/")
        let server = try ServeProcess(work: folder.appendingPathComponent("work"), ["--public-url", proxy.base + "/ocr/"])
        defer { server.kill9() }
        try proxy.forward(to: server.base)
        let app = proxy.base + "/ocr/"
        let artifacts = TestPaths.packageRoot.appendingPathComponent(".build/test-artifacts/serve/webapp")
        try? FileManager.default.removeItem(at: artifacts)
        let script = TestPaths.packageRoot.appendingPathComponent("scripts/webapp-browser.py")
        let run = try runProcess(try FormatCheckers.tool("python3"),
                                 [script.path, "--url", app, "--out", artifacts.path, "--timeout", "240",
                                  "--refused", notes.path, "--remove", "two-pages.pdf", png.path, pdf.path, columns.path])   // one job each
        print("web app screenshots: \(artifacts.path)")
        try #require(run.status == 0, "the driver failed: \(run.stderr.suffix(2000))\n\(server.state)")
        let report = try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8))

        // Self-contained: the page and everything it loaded came from the server.
        #expect(report.resources.count >= 3)
        #expect(report.resources.allSatisfy { $0.hasPrefix(app) }, "\(report.resources)")
        // Keyboard and languages.
        #expect(report.focusOrder.last == "drop" && report.focusOrder.count <= 3, "focus order: \(report.focusOrder)")
        #expect(report.dropFocusOutline != "none")
        #expect(report.choosersOpened == ["Enter", "Space", "Enter"])
        #expect(report.lang == ["initial": "en", "switched": "ja", "back": "en"])
        #expect(report.dropLabelJa.contains("ドロップ"))

        // Both jobs read and shown: every page's image, its lines over it, the list beside it, the downloads.
        let formats = ["alto", "hocr", "html", "json", "page", "txt"]   // each page's; the job's adds its PDF
        let scan = try #require(report.jobs.first { $0.title == "scaned0.png" }, "\(report.jobs.map(\.title))")
        let book = try #require(report.jobs.first { $0.title == "two-pages.pdf" }, "\(report.jobs.map(\.title))")
        let vertical = try #require(report.jobs.first { $0.title == "vertical_with_ruby.png" }, "\(report.jobs.map(\.title))")
        #expect(scan.pages.map(\.n) == [1] && book.pages.map(\.n) == [1, 2] && vertical.pages.map(\.n) == [1])
        for job in [scan, book, vertical] {
            #expect(job.state == "done" && job.downloads.sorted() == (formats + ["pdf", "txt-book"]).sorted(), "\(job.title): \(job.state), \(job.downloads)")
            for page in job.pages {
                let shown = page.state == "done" && !page.lines.isEmpty && page.listLang == "ja"
                #expect(shown, "\(job.title) page \(page.n): \(page.state), \(page.lines.count) lines")
                #expect((page.downloads ?? []).sorted() == formats)
            }
        }
        #expect(report.statusEn.allSatisfy { $0.hasPrefix("Done") }, "\(report.statusEn)")
        // Every download link answers with its document.
        let linkCount = 3 * 8 + 4 * 6   // each job: its PDF, its whole text and six zips; each page (shown in turn): six formats
        #expect(report.links.count == linkCount)
        for link in report.links {
            #expect(link.status == 200, "\(link.href): HTTP \(link.status) \(link.type ?? "")")
        }

        // scaned0.png against the server's own JSON for it: each body line's text over it, in reading order beside it.
        let reply = try curl("\(server.base)/v1/jobs/\(scan.id)/pages/1?format=json")
        #expect(reply.status == 200)
        let json = reply.json
        let lines = (json["lines"] as? [[String: Any]] ?? []).filter { $0["kind"] == nil && $0["lowConfidence"] == nil }
        let texts = lines.compactMap { $0["text"] as? String }
        let page = try #require(scan.pages.first)
        try #require(texts.count > 3, "scaned0.png read with too few lines: \(texts)")
        #expect(page.list == texts)
        #expect(page.lines.map(\.text) == texts)
        #expect(page.lines.allSatisfy { $0.lang == "ja" })
        // A line's text at its box: the longest line, found at its box's middle, its text laid over the box.
        let longest = try #require(page.lines.max { $0.text.count < $1.text.count })
        #expect(longest.hit == longest.id, "at the middle of \(longest.id)'s box: \(longest.hit ?? "nothing")")
        let t = longest.textRect
        #expect(longest.box.contains(t.left, t.top, slack: 3) && longest.box.contains(t.right, t.bottom, slack: 3),
                "text of \(longest.id) at (\(t.left), \(t.top))–(\(t.right), \(t.bottom)), its box (\(longest.box.left), \(longest.box.top))–(\(longest.box.right), \(longest.box.bottom))")
        let hits = page.lines.filter { $0.hit == $0.id }.count
        #expect(hits * 10 >= page.lines.count * 9, "\(hits) of \(page.lines.count) lines found at their box's middle")

        // Vertical columns: written vertically over the image, each found at its box; their ruby shown as ruby in the
        // list, as the server's JSON has it (the ruby lines' text over the characters their `annotates` names).
        let columnsJSON = try curl("\(server.base)/v1/jobs/\(vertical.id)/pages/1?format=json").json
        let all = columnsJSON["lines"] as? [[String: Any]] ?? []
        let bodies = all.filter { $0["kind"] == nil && $0["lowConfidence"] == nil }
        let rubies = all.filter { $0["kind"] as? String == "ruby" }
        let columnPage = try #require(vertical.pages.first)
        #expect(columnPage.lines.map(\.text) == bodies.compactMap { $0["text"] as? String })
        #expect(!bodies.isEmpty && bodies.allSatisfy { $0["orientation"] as? String == "vertical" })
        #expect(columnPage.lines.allSatisfy { $0.writingMode == "vertical-rl" && $0.hit == $0.id }, "\(columnPage.lines.map { ($0.id, $0.writingMode, $0.hit ?? "-") })")
        try #require(!rubies.isEmpty, "no ruby read on vertical_with_ruby.png")
        let expectedRuby = rubies.compactMap { ruby -> Report.Page.Ruby? in
            guard let a = ruby["annotates"] as? [String: Any], let line = a["line"] as? Int, let start = a["start"] as? Int,
                  let end = a["end"] as? Int, let body = all.first(where: { $0["readingOrder"] as? Int == line }),
                  let characters = body["characters"] as? [[String: Any]], end <= characters.count else { return nil }
            return Report.Page.Ruby(base: characters[start..<end].compactMap { $0["text"] as? String }.joined(), reading: ruby["text"] as? String ?? "")
        }
        #expect(columnPage.ruby == expectedRuby)

        // The browser's search finds each job's first page's longest line in the text over the image, its selection on the line.
        #expect(report.found.count == 3)
        for found in report.found {
            let f = try #require(found)
            let s = try #require(f.selection, "\(f.text): nothing selected")
            #expect(f.found && f.inLine, "search for \(f.text): found \(f.found), in the line over the image \(f.inLine)")
            #expect(f.box.contains(s.left, s.top, slack: 3) && f.box.contains(s.right, s.bottom, slack: 3),
                    "selection of \(f.text) at (\(s.left), \(s.top))–(\(s.right), \(s.bottom)), its box (\(f.box.left), \(f.box.top))–(\(f.box.right), \(f.box.bottom))")
        }

        // Each job's PDF, downloaded through the page's link: searchable, its text that of the lines shown.
        for job in [scan, book, vertical] {
            let download = try #require(report.downloads.first { $0.job == job.id })
            // Saved under the job's name (the server's Content-Disposition, which the browser prefers to the link's).
            #expect(download.suggestedFilename == (job.title as NSString).deletingPathExtension + ".pdf", "\(job.title): \(download.suggestedFilename ?? "-")")
            let file = URL(fileURLWithPath: download.path)
            #expect(try FormatCheckers.run("qpdf", ["--check", file.path]).status == 0, "\(job.title)'s PDF")
            // (pdftotext orders vertical text its own way: the columns' text is compared without order)
            for shown in job.pages where job.id != vertical.id {
                let text = try pdfText(file, page: shown.n)
                #expect(characterErrorRate(withoutWhitespace(text), reference: withoutWhitespace(shown.list.joined())) <= 0.01,
                        "\(job.title) page \(shown.n): PDF \(text) / shown \(shown.list)")
            }
            if job.id == vertical.id, let shown = job.pages.first {
                let text = withoutWhitespace(try pdfText(file, page: 1))
                #expect(text.sorted() == withoutWhitespace(shown.list.joined()).sorted(), "\(job.title): PDF \(text) / shown \(shown.list)")
            }
        }

        // The API's refusal of a file that is no page, shown in the page as its message, code and status.
        #expect(report.refused?.error.contains("HTTP 415") == true && report.refused?.jobs == 3, "\(String(describing: report.refused))")

        // "Remove" on a job: gone from the page, and the server answers 404 for it.
        #expect(report.removed?.job == book.id && report.removed?.status == 404 && report.removed?.jobs == 2, "\(String(describing: report.removed))")

        // A reload shows again the jobs the server keeps, newest first, their pages read; the removed one not.
        #expect(report.reloaded.map(\.id) == [vertical.id, scan.id] && report.reloaded.map(\.pages) == [1, 1], "\(report.reloaded)")

        // The screenshots: empty (en, ja), progress, results (ja, en), the refusal.
        let names = report.screenshots.map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(names == ["01-empty-en.png", "02-empty-ja.png", "03-progress-ja.png", "04-result-ja.png", "05-result-en.png",
                         "06-refused-en.png"])
        #expect(report.screenshots.allSatisfy { FileManager.default.fileExists(atPath: $0) })
    }
}

/// The web app's IIIF field, in the IIIF suite: it runs one test at a time, so this test's requests to the IIIF tests'
/// server never show among those another test counts.
extension IIIFReadingTests {
    @Test("a book by its IIIF manifest typed into the page's field (Enter): both canvases shown read over the library's images, their text the server's, every download answering, the job's PDF read by pdftotext; a manifest the server cannot read refused with its error shown",
          .timeLimit(.minutes(8)))
    func webAppManifestBook() throws {
        let iiif = try IIIFServer.shared()
        let folder = try TestPaths.temporaryDirectory("webapp-iiif")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServeProcess(work: folder.appendingPathComponent("work"))
        defer { server.kill9() }
        let artifacts = TestPaths.packageRoot.appendingPathComponent(".build/test-artifacts/serve/webapp-iiif")
        try? FileManager.default.removeItem(at: artifacts)
        let manifest = iiif.base + "/v3/manifest.json"
        let script = TestPaths.packageRoot.appendingPathComponent("scripts/webapp-browser.py")
        let run = try runProcess(try FormatCheckers.tool("python3"),
                                 [script.path, "--url", server.base + "/", "--out", artifacts.path, "--timeout", "240",
                                  "--manifest", manifest, "--bad-manifest", iiif.base + "/v3/no-such-manifest.json", "--keep"])
        print("web app screenshots: \(artifacts.path)")
        try #require(run.status == 0, "the driver failed: \(run.stderr.suffix(2000))\n\(server.state)")
        let report = try JSONDecoder().decode(WebAppBrowserTests.Report.self, from: Data(run.stdout.utf8))

        let book = try #require(report.jobs.first, "no job shown")
        // Titled by the manifest's label (docs/iiif.md), not its URL.
        #expect(report.jobs.count == 1 && book.title == "試験の本" && book.state == "done", "\(report.jobs.map { ($0.title, $0.state) })")
        #expect(book.downloads.sorted() == ["alto", "hocr", "html", "json", "page", "pdf", "txt", "txt-book"])
        #expect(book.pages.map(\.n) == [1, 2])
        for page in book.pages {
            #expect(page.state == "done" && !page.lines.isEmpty && page.listLang == "ja", "canvas \(page.n): \(page.state), \(page.lines.count) lines")
            // The library's attribution and rights with its image (the manifest's requiredStatement and rights).
            #expect(page.credit?.contains("National Diet Library (CC BY 4.0)") == true
                    && page.rights == "http://creativecommons.org/licenses/by/4.0/", "canvas \(page.n): \(page.credit ?? "-"), \(page.rights ?? "-")")
        }
        #expect(report.manifestFieldAfter == [""], "the field after the job was made: \(report.manifestFieldAfter ?? [])")
        // Each page image shown is the library's (the server answers 303 to the canvas's image; the driver waited for
        // every image to load): the IIIF server was asked for both canvases' images.
        let asked = iiif.requests()
        #expect(asked.contains { $0.contains("/iiif/page1/") } && asked.contains { $0.contains("/iiif/page2/") }, "\(asked.suffix(10))")
        // Canvas 1 (the horizontal page): the text over the image and beside it is the server's JSON, in reading order.
        let json = try curl("\(server.base)/v1/jobs/\(book.id)/pages/1?format=json").json
        // Each page named by its canvas's label (the job's JSON carries it), not by `canvas <n> (…)`.
        let status = try curl("\(server.base)/v1/jobs/\(book.id)").json
        let labels = (status["pages"] as? [[String: Any]] ?? []).map { $0["label"] as? String ?? "" }
        #expect(status["label"] as? String == "試験の本" && labels.count == 2 && labels.allSatisfy { !$0.isEmpty }, "\(status)")
        for (page, label) in zip(book.pages, labels) {
            #expect(page.name?.hasSuffix(" · \(label)") == true, "canvas \(page.n): \(page.name ?? "-"), its label \(label)")
        }
        let texts = (json["lines"] as? [[String: Any]] ?? []).filter { $0["kind"] == nil && $0["lowConfidence"] == nil }
            .compactMap { $0["text"] as? String }
        let first = try #require(book.pages.first)
        #expect(texts.count > 3 && first.list == texts && first.lines.map(\.text) == texts,
                "the server's \(texts); the list \(first.list); over the image \(first.lines.map(\.text))")
        // Every download link answers; the job's PDF, through the page's link, is searchable with the text shown.
        #expect(report.links.count == 8 + 2 * 6)
        for link in report.links { #expect(link.status == 200, "\(link.href): HTTP \(link.status)") }
        let download = try #require(report.downloads.first { $0.job == book.id })
        #expect(download.suggestedFilename == "v3.pdf", "saved as \(download.suggestedFilename ?? "-") (…/v3/manifest.json)")
        let pdf = URL(fileURLWithPath: download.path)
        #expect(try FormatCheckers.run("qpdf", ["--check", pdf.path]).status == 0)
        let text = try pdfText(pdf, page: 1)
        #expect(characterErrorRate(withoutWhitespace(text), reference: withoutWhitespace(first.list.joined())) <= 0.01,
                "PDF page 1: \(text) / shown \(first.list)")
        // A manifest the server cannot read (404 at the library): its 422 shown, no job added.
        #expect(report.badManifest?.error.contains("HTTP 422") == true && report.badManifest?.jobs == 1
                && report.badManifest?.field == iiif.base + "/v3/no-such-manifest.json",
                "\(String(describing: report.badManifest))")
        // A reload shows the job again, both canvases read (their images the library's again).
        #expect(report.removed == nil && report.reloaded.map(\.id) == [book.id] && report.reloaded.map(\.pages) == [2], "\(report.reloaded)")
    }
}
