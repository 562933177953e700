import Foundation
import Testing
@testable import KotenOCRKit

/// The web app's proofreading (docs/serve.md, "The web app" and "Proofreading"; issue 36), driven in Debian's
/// headless Chromium by `scripts/webapp-proofread.py` against a child `koten-ocr serve` on 127.0.0.1, over a job of
/// two real pages (a page of vertical columns with ruby, samples/scaned0.png). What the page showed is checked
/// against what the server then has. Screenshots are kept in `.build/test-artifacts/serve/webapp-proofread/`.
@Suite("serve: proofreading in the web app, in headless Chromium")
struct WebAppProofreadingTests {
    /// What the driver reports (see the script).
    struct Report: Decodable {
        struct Editing: Decodable { let patches: Int; let editing: String?; let value: String? }
        struct Opened: Decodable { let value: String; let crop: [Int]?; let image: String }
        struct AfterEnter: Decodable { let patches: Int; let editing: String?; let text: String; let corrected: Bool }
        struct Escape: Decodable { let typed: String; let text: String; let patches: Int; let focus: String? }
        struct Tabs: Decodable { let moves: [String]; let patches: Int }
        struct Deleted: Decodable { let id: String; let tag: String }
        struct Draft: Decodable { let text: String; let seen: String?; let at: String }
        struct Stale: Decodable {
            let message: String; let theirs: String?; let editing: String?; let value: String?; let line1: String; let line3deleted: Bool
            let stored: [String: Draft]?; let storedAfter: [String: Draft]?
        }
        struct Drafted: Decodable {
            struct Offer: Decodable { let id: String; let text: String; let shown: String }
            struct Discarded: Decodable { let stored: [String: Draft]?; let text: String; let focus: String? }
            struct Restored: Decodable { let value: String?; let offers: Int; let patches: Int }
            struct Saved: Decodable { let text: String; let stored: [String: Draft]? }
            let stored: [String: Draft]?; let offered: [Offer]; let discarded: Discarded; let storedAgain: [String: Draft]?
            let offeredAgain: [Offer]; let restored: Restored; let saved: Saved
        }
        struct History: Decodable {
            struct Row: Decodable { let line: String; let change: String; let changeShown: String; let who: String; let time: String; let before: String; let after: String; let `where`: String }
            struct Shown: Decodable { let title: String; let rows: [Row] }
            let title: String; let rows: [Row]; let pressed: String?; let line: Shown; let ja: Shown
        }
        struct Vertical: Decodable { let writingMode: String; let crop: [Int]?; let lang: String; let label: String; let value: String; let labelEn: String }
        struct Offline: Decodable { let typed: String; let value: String?; let editing: String?; let message: String; let saved: String; let line2: String }
        struct Proofread: Decodable { let state: String; let figures: String; let pages: Int; let lines: Int; let cer: String; let mark: String }
        struct Reloaded: Decodable {
            struct Line: Decodable { let id: String; let text: String; let corrected: Bool; let deleted: Bool }
            let page2: [Line]; let page1: [String]; let state: String; let figures: String
        }
        struct Drawn: Decodable { let id: String; let editing: Bool; let message: String; let outline: Bool; let lines: Int }
        let screenshots: [String]
        let job: String
        let ids: [String]
        let before: [String]
        let opened: Opened
        let composing: Editing
        let committed: Editing
        let afterEnter: AfterEnter
        let escape: Escape
        let tabs: Tabs
        let undone: String
        let deleted: Deleted
        let stale: Stale
        let staleSaved: String
        let vertical: Vertical
        let offline: Offline
        struct Ruby: Decodable {
            struct Composing: Decodable { let patches: Int; let value: String?; let focused: String? }
            let id: String; let editing: String?; let value: String; let label: String?; let fields: Int; let composing: Composing; let tag: String
        }
        let ruby: Ruby
        struct Full: Decodable {
            let message: String; let editing: String?; let kept: Bool; let stored: Bool; let server: String; let saved: Int
            let storedAfter: [String: Draft]?; let undone: String
        }
        let full: Full?
        let drafted: Drafted
        let history: History
        let proofread: Proofread
        let reloaded: Reloaded
        let modelShown: String?
        let alto: String
        let pdf: String
        let drawn: Drawn
    }

    @Test("a line clicked and retyped through an input method (an Enter during the composition saves nothing and moves nowhere), Enter saving and moving on, Escape cancelling, Tab / Shift+Tab moving, a line marked not text, undone and marked again; a stale second tab getting 412 with the other tab's text shown and its own kept; a vertical line edited in vertical writing (ja, en); a save offline kept in the field; the page marked proofread with the job's figures; a reload, the ALTO and the PDF carrying the corrections; a line drawn on the image read and added",
          .timeLimit(.minutes(10)))
    func proofreadInTheBrowser() throws {
        let folder = try TestPaths.temporaryDirectory("webapp-proofread")
        defer { try? FileManager.default.removeItem(at: folder) }
        // While this file exists the server's database is full (docs/serve.md, "Test hooks"): a save gets 507.
        let fullFlag = folder.appendingPathComponent("corpus-full")
        let server = try ServeProcess(work: folder.appendingPathComponent("work"), environment: ["KOTEN_OCR_TEST_CORPUS_FULL_WHILE": fullFlag.path])
        defer { server.kill9() }
        let artifacts = TestPaths.packageRoot.appendingPathComponent(".build/test-artifacts/serve/webapp-proofread")
        try? FileManager.default.removeItem(at: artifacts)
        let vertical = TestPaths.fixtures.appendingPathComponent("field/vertical_with_ruby.png")
        let horizontal = TestPaths.packageRoot.appendingPathComponent("samples/scaned0.png")
        let script = TestPaths.packageRoot.appendingPathComponent("scripts/webapp-proofread.py")
        let run = try runProcess(try FormatCheckers.tool("python3"),
                                 [script.path, "--url", server.base + "/", "--out", artifacts.path, "--timeout", "300",
                                  "--vertical", vertical.path, "--horizontal", horizontal.path, "--full-flag", fullFlag.path])
        print("web app proofreading screenshots: \(artifacts.path)")
        try #require(run.status == 0, "the driver failed: \(run.stderr.suffix(2000))\n\(run.stdout.suffix(1500))\n\(server.state)")
        let r = try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8))
        let ids = r.ids
        try #require(ids.count >= 6 && r.before.count == ids.count)

        // The line clicked: its text in the field, its image beside it (a crop of the page image).
        #expect(r.opened.value == r.before[0] && r.opened.image.contains("/pages/2/image") && (r.opened.crop?.allSatisfy { $0 > 10 } ?? false), "\(r.opened)")
        // The input method: while its composition is open, Enter neither saves nor moves (nor breaks the line).
        #expect(r.composing.patches == 0 && r.composing.editing == ids[0] && r.composing.value == "きそうし", "\(r.composing)")
        #expect(r.committed.patches == 0 && r.committed.editing == ids[0] && r.committed.value == "気送子", "\(r.committed)")
        // Enter: saved (one PATCH) and on to the next line in reading order.
        #expect(r.afterEnter.patches == 1 && r.afterEnter.editing == ids[1] && r.afterEnter.text == "気送子" && r.afterEnter.corrected, "\(r.afterEnter)")
        // Escape: the text typed thrown away, nothing sent, the focus on the line.
        #expect(r.escape.typed == r.before[1] + "誤" && r.escape.text == r.before[1] && r.escape.patches == 1 && r.escape.focus == ids[1], "\(r.escape)")
        // Tab and Shift+Tab move; an unchanged line sends nothing.
        #expect(r.tabs.moves == [ids[2], ids[1]] && r.tabs.patches == 1, "\(r.tabs)")
        #expect(r.undone == r.before[2] && r.deleted.id == ids[2] && r.deleted.tag == "not text")

        // The stale tab: 412, the other tab's text shown, its own kept in the field, the other edits shown.
        #expect(r.stale.theirs == "円筒形" && r.stale.message.contains("円筒形") && r.stale.message.hasPrefix("Not saved"), "\(r.stale)")
        #expect(r.stale.editing == ids[1] && r.stale.value == "円筒形です" && r.stale.line1 == "気送子" && r.stale.line3deleted, "\(r.stale)")
        #expect(r.staleSaved == "円筒形です")
        // The edit refused with 412 is kept in the browser's local storage too (the text the tab had seen with it),
        // and no longer once saved.
        #expect(r.stale.stored?[ids[1]]?.text == "円筒形です" && r.stale.stored?[ids[1]]?.seen == r.before[1] && r.stale.storedAfter == nil, "\(String(describing: r.stale.stored)) / \(String(describing: r.stale.storedAfter))")

        // A vertical line edited in vertical writing, beside its column's image (taller than wide); both languages.
        #expect(r.vertical.writingMode == "vertical-rl" && r.vertical.lang == "ja" && r.vertical.label.contains("行目"), "\(r.vertical)")
        #expect(r.vertical.labelEn == "Text of line 1" && r.vertical.value == "校正本文")
        let crop = try #require(r.vertical.crop)
        #expect(crop.count == 2 && crop[1] > 2 * crop[0], "\(crop)")

        // Offline: said so, the text kept in the field, the editor still on its line; saved once online.
        #expect(r.offline.value == r.offline.typed && r.offline.editing == ids[4] && r.offline.message.contains("cannot be reached"), "\(r.offline)")
        #expect(r.offline.saved == r.before[4] + "（試）" && r.offline.line2 == "円筒形です", "\(r.offline)")

        // Proofread: the state and the job's figures as the server counts them.
        #expect(r.proofread.state == "Proofread" && r.proofread.pages == 1 && r.proofread.lines >= 5 && Double(r.proofread.cer) ?? 0 > 0, "\(r.proofread)")
        #expect(r.proofread.figures.contains("1 page(s) proofread") && r.proofread.mark.contains("Reopen"))
        let job = try curl("\(server.base)/v1/jobs/\(r.job)").json
        let figures = try #require(job["proofreading"] as? [String: Any])
        // (the line drawn at the end is one more line corrected than the figures shown before it)
        #expect(figures["pagesProofread"] as? Int == 1 && figures["linesCorrected"] as? Int == r.proofread.lines + 1, "\(figures)")

        // The server has what the page showed.
        let page2 = try curl("\(server.base)/v1/jobs/\(r.job)/pages/2?format=json").json
        let lines = (page2["lines"] as? [[String: Any]]) ?? []
        func line(_ id: String) -> [String: Any] { lines.first { $0["id"] as? String == id } ?? [:] }
        #expect(line(ids[0])["text"] as? String == "気送子" && line(ids[0])["modelText"] as? String == r.before[0])
        #expect(line(ids[1])["text"] as? String == "円筒形です" && line(ids[2])["deleted"] as? Bool == true)
        #expect(line(ids[4])["text"] as? String == r.before[4] + "（試）" && page2["state"] as? String == "proofread")
        let page1 = try curl("\(server.base)/v1/jobs/\(r.job)/pages/1?format=json").json
        #expect(((page1["lines"] as? [[String: Any]]) ?? []).first?["text"] as? String == "校正本文")

        // A reload shows the edits.
        #expect(r.reloaded.page2.map(\.text) == ["気送子", "円筒形です", r.before[2], r.before[3] + "（稿）", r.before[4] + "（試）"] + r.before.dropFirst(5), "\(r.reloaded.page2.map(\.text))")
        #expect(r.reloaded.page2.map(\.corrected).prefix(5) == [true, true, false, true, true] && r.reloaded.page2[2].deleted)
        #expect(r.reloaded.page1.first == "校正本文" && r.reloaded.state == "proofread")
        #expect(r.modelShown == "The engine read: " + r.before[0])

        // A ruby clicked over the image: its line's editor with the ruby's own field focused (the line's field and one
        // per ruby), an Enter during the composition saving nothing; Enter saved the ruby alone, the line as it was.
        let ruby = r.ruby
        let page1Lines = (try curl("\(server.base)/v1/jobs/\(r.job)/pages/1?format=json").json["lines"] as? [[String: Any]]) ?? []
        let rubyLine = try #require(page1Lines.first { $0["id"] as? String == ruby.id }, "\(ruby)")
        let rubyBody = page1Lines.first { $0["id"] as? String == ruby.editing }
        #expect(rubyLine["kind"] as? String == "ruby" && rubyLine["modelText"] as? String == ruby.value && ruby.fields >= 2, "\(ruby) / \(rubyLine)")
        #expect(((rubyLine["annotates"] as? [String: Any])?["line"] as? Int) == rubyBody?["readingOrder"] as? Int, "\(rubyLine) / \(String(describing: rubyBody))")
        #expect(ruby.label?.hasPrefix("Ruby of “") == true, "\(ruby.label ?? "-")")
        #expect(ruby.composing.patches == 0 && ruby.composing.value == "るび" && ruby.composing.focused == ruby.id, "\(ruby.composing)")
        #expect(rubyLine["text"] as? String == "ルビ" && rubyLine["corrected"] as? Bool == true && ruby.tag == "ruby corrected", "\(rubyLine) \(ruby.tag)")
        #expect(rubyBody?["text"] as? String == (ruby.editing == page1Lines.first { $0["kind"] == nil }?["id"] as? String ? "校正本文" : rubyBody?["modelText"] as? String),
                "the ruby's line: \(String(describing: rubyBody))")

        // A save that failed offline, kept in local storage; after a reload offered back (its text shown) and discarded
        // (nothing kept, the line as it was, the focus on it); made again, the tab closed, offered in a new tab,
        // restored into its field and saved with Enter (one PATCH), then no longer kept.
        let d = r.drafted, drafted = r.before[3] + "（稿）"
        #expect(d.stored?[ids[3]]?.text == drafted && d.stored?.count == 1, "\(String(describing: d.stored))")
        #expect(d.offered.map(\.id) == [ids[3]] && d.offered.first?.text == drafted && d.offered.first?.shown.contains(drafted) == true
                && d.offered.first?.shown.contains("line 4") == true, "\(d.offered)")
        #expect(d.discarded.stored == nil && d.discarded.text == r.before[3] && d.discarded.focus == ids[3], "\(d.discarded)")
        #expect(d.storedAgain?[ids[3]]?.text == drafted && d.offeredAgain.map(\.id) == [ids[3]], "\(d.offeredAgain)")
        #expect(d.restored.value == drafted && d.restored.offers == 0 && d.restored.patches == 0, "\(d.restored)")
        #expect(d.saved.text == drafted && d.saved.stored == nil, "\(d.saved)")

        // The server's disk full during a save (507): said so, the edit kept in the field and in local storage, the
        // page as it was; saved once there was room (no longer kept); undone.
        let full = try #require(r.full)
        #expect(full.message.hasPrefix("Not saved: the server's disk is full") && full.editing == ids[5] && full.kept && full.stored && full.server == r.before[5], "\(full)")
        #expect(full.saved == 9000 && full.storedAfter == nil && full.undone == r.before[5], "\(full.saved) \(String(describing: full.storedAfter)) \(full.undone)")

        // The page's history: every change with who and when, before and after, oldest first; one line's; in Japanese.
        let h = r.history
        #expect(h.title == "Changes to this page, oldest first" && h.pressed == "true", "\(h.title)")
        let first = h.rows.first { $0.line == ids[0] }
        #expect(first?.change == "text" && first?.changeShown == "text corrected" && first?.before == r.before[0] && first?.after == "気送子"
                && first?.where == "line 1" && first?.who.isEmpty == false && first?.time.isEmpty == false, "\(String(describing: first))")
        #expect(h.rows.contains { $0.line == ids[3] && $0.change == "text" && $0.after == drafted }, "\(h.rows.map { ($0.line, $0.after) })")
        #expect(h.rows.contains { $0.line == ids[2] && $0.change == "deleted" && $0.changeShown == "marked not text" })
        #expect(h.rows.last?.change == "state" && h.rows.last?.after == "Proofread" && h.rows.last?.where == "the page", "\(String(describing: h.rows.last))")
        let api = (try curl("\(server.base)/v1/jobs/\(r.job)/pages/2/history").json["history"] as? [[String: Any]]) ?? []
        #expect(h.rows.map(\.change) == api.compactMap { $0["change"] as? String } && h.rows.map(\.line) == api.map { $0["line"] as? String ?? "" }, "\(h.rows.count) rows shown, \(api.count) in the history")
        #expect(h.line.title == "Changes to line 1, oldest first" && !h.line.rows.isEmpty && h.line.rows.allSatisfy { $0.line == ids[0] }
                && h.line.rows.count == api.filter { $0["line"] as? String == ids[0] }.count, "\(h.line.title) \(h.line.rows.map(\.line))")
        #expect(h.ja.title == "1行目の変更（古い順）" && h.ja.rows.first?.changeShown == "本文の修正" && h.ja.rows.first?.where == "1行目", "\(h.ja.title) \(h.ja.rows.first.map { "\($0)" } ?? "-")")

        // The page's ALTO (its link) and the job's PDF (its link) carry the corrected text, not the line marked not text.
        let content = r.alto.matches(of: /CONTENT="([^"]*)"/).map { String($0.1) }.joined()
        #expect(content.contains("気送子") && content.contains("円筒形です") && content.contains("貴重（試）"), "\(content.prefix(300))")
        #expect(!content.contains(String(r.before[2].prefix(12))))
        let pdf = withoutWhitespace(try pdfText(URL(fileURLWithPath: r.pdf), page: 2))
        #expect(pdf.contains("気送子") && pdf.contains("円筒形です") && pdf.contains("貴重（試）"), "\(pdf.prefix(300))")
        #expect(!pdf.contains(withoutWhitespace(r.before[2])) && !pdf.contains(withoutWhitespace(r.before[0])))
        #expect(withoutWhitespace(try pdfText(URL(fileURLWithPath: r.pdf), page: 1)).contains("校正本文"))

        // A line drawn on the image: read by the engine, added (its outline and its item), its field opened.
        #expect(r.drawn.id == "a1" && r.drawn.editing && r.drawn.outline && r.drawn.lines == 3, "\(r.drawn)")
        let added = ((try curl("\(server.base)/v1/jobs/\(r.job)/pages/1?format=json").json["lines"] as? [[String: Any]]) ?? []).first { $0["id"] as? String == "a1" }
        let read = try #require(added?["modelText"] as? String)
        #expect(read.count >= 3 && r.drawn.message.contains(read), "\(read) / \(r.drawn.message)")

        let names = r.screenshots.map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(names == ["20-stale-tab-en.png", "10-edit-vertical-ja.png", "11-edit-vertical-en.png", "14-edit-ruby-en.png", "12-proofread-en.png", "13-history-ja.png"])
        #expect(r.screenshots.allSatisfy { FileManager.default.fileExists(atPath: $0) })
    }
}
