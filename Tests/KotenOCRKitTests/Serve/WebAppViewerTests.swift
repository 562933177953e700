import Foundation
import Testing
@testable import KotenOCRKit
@testable import KotenOCRServer
import KotenOCRTestSupport

/// The web app's viewer and search (docs/serve.md, "The web app") in Debian's headless Chromium, driven by
/// `scripts/webapp-viewer.py` with the keyboard against the real server on 127.0.0.1. Screenshots are kept in
/// `.build/test-artifacts/serve/webapp-viewer/`.
@Suite("serve: the web app's viewer in headless Chromium")
struct WebAppViewerTests {
    struct Report: Decodable {
        struct Opened: Decodable { let thumbnails: [Int]; let images: Int; let pageJSON: Int; let visible: [Int]; let shown: [Int]; let title: String }
        struct Jumped: Decodable { let shown: [Int]; let current: Int; let currentInView: Bool; let images: [Int]; let heading: String }
        struct Zoom: Decodable { let key: String; let zoom: Double; let width: Double; let scrollable: Bool? }
        struct Copied: Decodable { let selection: String; let listed: [String]; let page: String; let book: String; let server: String }
        struct Loupe: Decodable { let line: Int; let scale: Double; let width: Double }
        struct Writing: Decodable { let initial: String; let switched: String; let back: String; let pressed: String }
        struct Hit: Decodable { let job: String; let page: Int; let line: String; let text: String; let mark: String; let book: String }
        struct Rect: Decodable { let left, top, right, bottom: Double }
        struct Marked: Decodable { let page: Int; let line: String?; let listed: [String]; let box: Rect?; let lineBox: Rect?; let at: String }
        struct Messages: Decodable { let ja: [String]; let en: [String]; let same: [String] }
        struct Removal: Decodable {
            let offered: String; let hiddenMeanwhile: Bool; let focused: String; let afterUndo: Int; let secondTabAfterUndo: Bool
            let server: Int; let secondTab: String
        }
        let job: String
        let pages: Int
        let opened: Opened
        let jumped: Jumped
        struct List: Decodable { let stops: Int; let focused: Int; let shown: Int }
        let list: List
        let zoom: [Zoom]
        let copied: Copied
        let loupe: Loupe?
        let writing: Writing
        let query: String
        /// `v1/search`'s hits for the query (page/line), asked by the driver.
        let apiHits: [String]
        let hits: [Hit]
        let hitShown: [Marked?]
        let errorJa: String
        let messages: Messages
        let modeJa: String
        let modeHint: String?
        let titleJa: String
        let removal: Removal
        let screenshots: [String]
    }

    @Test("a job of 25 pages (a 24-page TIFF and a page of vertical columns) opens with only the thumbnails in view asked for and one page image; jump to page 12; + + − 0 zoom; the vertical page's list written vertically with a switch; copying gives the text only; a search's hit marked on its line, next and previous; a Japanese error; removal undone, then confirmed, leaving a second tab too; screenshots in ja and en",
          .timeLimit(.minutes(10)))
    func viewer() throws {
        let folder = try TestPaths.temporaryDirectory("webapp-viewer")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiff = try ServeFixtures.lines(24, in: folder)                                    // 24 one-line pages
        let columns = TestPaths.fixtures.appendingPathComponent("field/vertical_with_ruby.png")  // page 25: vertical
        let notes = folder.appendingPathComponent("notes.txt")
        try Data("a note, not a page\n".utf8).write(to: notes)
        let server = try ServeProcess(work: folder.appendingPathComponent("work"))
        defer { server.kill9() }
        let artifacts = TestPaths.packageRoot.appendingPathComponent(".build/test-artifacts/serve/webapp-viewer")
        try? FileManager.default.removeItem(at: artifacts)
        let script = TestPaths.packageRoot.appendingPathComponent("scripts/webapp-viewer.py")
        let run = try runProcess(try FormatCheckers.tool("python3"),
                                 [script.path, "--url", server.base + "/", "--out", artifacts.path, "--timeout", "400", "--jump", "12",
                                  "--vertical", "25", "--query-page", "7", "--refused", notes.path, "\(tiff.path),\(columns.path)"])
        print("web app viewer screenshots: \(artifacts.path)")
        try #require(run.status == 0, "the driver failed: \(run.stderr.suffix(2000))\n\(server.state)")
        let report = try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8))
        #expect(report.pages == 25)

        // Opening: page 1 shown alone; its image and JSON asked for once; thumbnails only for the items in view.
        let opened = report.opened
        print("opened: thumbnails asked \(opened.thumbnails), in view \(opened.visible), page images \(opened.images), page JSON \(opened.pageJSON); hits for \(report.query): \(report.hits.count); zoom \(report.zoom.map { Int(($0.zoom * 100).rounded()) })")
        #expect(opened.shown == [1] && opened.images == 1 && opened.pageJSON == 1, "\(opened)")
        #expect(!opened.visible.isEmpty && opened.visible.count < 25, "in view: \(opened.visible)")
        #expect(Set(opened.visible).isSubset(of: Set(opened.thumbnails)), "asked \(opened.thumbnails), in view \(opened.visible)")
        #expect(opened.thumbnails.count <= opened.visible.count + 2 && opened.thumbnails.count < 25, "asked \(opened.thumbnails), in view \(opened.visible)")
        #expect(opened.title == "lines-24.tif, vertical_with_ruby.png")

        // Jump: page 12 alone, its item current and scrolled into the list's view, its image the one asked for.
        #expect(report.jumped.shown == [12] && report.jumped.current == 12 && report.jumped.currentInView, "\(report.jumped)")
        #expect(report.jumped.images == [12], "\(report.jumped.images)")
        #expect(report.jumped.heading.contains("12") && report.jumped.heading.contains("lines-24.tif p12"), "\(report.jumped.heading)")

        // The page list: one stop in the focus order; ↓ ↓ from page 12's item, Enter: page 14.
        #expect(report.list.stops == 1 && report.list.focused == 14 && report.list.shown == 14, "\(report.list)")

        // Zoom: + + (×1.25 each, the page wider than its stage: pannable), − , 0 back to the page's width.
        let z = report.zoom
        try #require(z.count == 5)
        #expect(z[0].zoom == 1 && abs(z[1].zoom - 1.25) < 1e-6 && abs(z[2].zoom - 1.5625) < 1e-6 && abs(z[3].zoom - 1.25) < 1e-6 && z[4].zoom == 1, "\(z)")
        #expect(abs(z[2].width / z[0].width - 1.5625) < 0.02 && z[2].scrollable == true, "\(z)")
        #expect(abs(z[4].width - z[0].width) < 1 && z[4].scrollable == false, "\(z)")

        // Copy: the list's lines, one a row, no confidence (the list shows each line's as "NN%").
        let copied = report.copied
        let lines = copied.listed.map { $0.replacingOccurrences(of: #"\d+%$"#, with: "", options: .regularExpression) }
        #expect(copied.listed.contains { $0.hasSuffix("%") }, "the list shows confidences: \(copied.listed)")
        #expect(copied.selection == lines.joined(separator: "\n") && !copied.selection.contains("%"), "copied \(copied.selection.debugDescription), listed \(copied.listed)")
        #expect(copied.page == lines.joined(separator: "\n"))
        let whole = copied.server
        #expect(whole.filter { $0 == "\u{0C}" }.count == 25, "the whole text: \(whole.prefix(200).debugDescription)")
        #expect(copied.book == whole.replacingOccurrences(of: "\u{0C}", with: "\n\n").replacingOccurrences(of: #"\n+$"#, with: "\n", options: .regularExpression),
                "the book's text: \(copied.book.prefix(200).debugDescription)")
        #expect(copied.book.contains(lines.joined(separator: "\n")))
        // The line pointed at, enlarged beside the page.
        let loupe = try #require(report.loupe)
        #expect(loupe.scale > 1 && loupe.width > 100, "\(loupe)")

        // The vertical page: the list written vertical-rl; the switch makes it horizontal and back.
        #expect(report.writing.initial == "vertical-rl" && report.writing.switched == "horizontal-tb" && report.writing.back == "vertical-rl"
                && report.writing.pressed == "true", "\(report.writing)")

        // Search: the hits the API gives, listed by book; the first's line marked on the image, next, previous.
        let query = report.query
        #expect(query.count == 1, "\(query)")
        #expect(report.hits.count >= 2, "\(query): \(report.hits)")
        let expected = report.apiHits
        #expect(report.hits.map { "\($0.page)/\($0.line)" } == expected && report.hits.contains { $0.page == 7 }, "\(report.hits.map { ($0.page, $0.line) }) / \(expected)")
        #expect(report.hits.allSatisfy { $0.job == report.job && $0.book == "lines-24.tif, vertical_with_ruby.png" && $0.mark.count == query.count }, "\(report.hits)")
        let shown = report.hitShown.compactMap { $0 }
        #expect(shown.count == (report.hits.count > 1 ? 3 : 1), "\(report.hitShown)")
        for (i, marked) in shown.enumerated() {
            let hit = report.hits[i == 1 ? 1 : 0]
            #expect(marked.page == hit.page && marked.line == hit.line && marked.listed.contains(hit.line), "hit \(i): \(marked)")
            let box = try #require(marked.box), line = try #require(marked.lineBox)
            #expect(abs(box.left - line.left) < 3 && abs(box.top - line.top) < 3 && abs(box.right - line.right) < 3 && abs(box.bottom - line.bottom) < 3,
                    "the marked box \(box), the line \(line)")
        }
        if shown.count == 3 { #expect(shown[1].at.contains("2") && shown[2].at.contains("1")) }

        // Japanese: the refusal's words, its code and status; every error code of the API has its words in both.
        #expect(report.errorJa.contains("読み取れません") && report.errorJa.contains("(unsupported_type, HTTP 415)"), "\(report.errorJa)")
        let codes = APIError.Code.allCases.map(\.rawValue).sorted()
        #expect(report.messages.ja == codes && report.messages.en == codes && report.messages.same.isEmpty, "\(report.messages)")
        #expect(report.modeJa == "読み取りのモード：現代の印刷物・PP-OCRv5", "\(report.modeJa)")
        #expect(report.modeHint?.contains("koten-ocr models install --mode koten DIR") == true, "\(report.modeHint ?? "-")")
        #expect(!report.titleJa.isEmpty)

        // Removal: offered with Undo (the job hidden meanwhile), undone (the server still has it, the other tab too),
        // then confirmed: gone from the server and from the second tab.
        let removal = report.removal
        #expect(removal.offered.contains("削除") && removal.hiddenMeanwhile && removal.focused == "undo-button", "\(removal)")
        #expect(removal.afterUndo == 200 && removal.secondTabAfterUndo, "\(removal)")
        #expect(removal.server == 404 && removal.secondTab == "gone")
        #expect(try curl("\(server.base)/v1/jobs/\(report.job)").status == 404)

        let names = report.screenshots.map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(names == ["01-opened-en.png", "02-zoomed-en.png", "03-vertical-en.png", "04-hit-en.png", "05-error-ja.png", "06-page-ja.png", "07-undo-ja.png"], "\(names)")
        #expect(report.screenshots.allSatisfy { FileManager.default.fileExists(atPath: $0) })
    }
}
