import Foundation
import Testing
@testable import KotenOCRKit
@testable import KotenOCRServer
import KotenOCRTestSupport

/// One service of its own (its own work directory, so its own corpus) and one job read once for the proofreading
/// tests: page 1 a real scan (several lines), pages 2–7 one-line windows of a scan.
actor ProofreadingJob {
    static let shared = ProofreadingJob()
    private var made: (APIClient, String)?

    func get() async throws -> (api: APIClient, id: String) {
        if let made { return made }
        let api = try await APIClient.make()
        let dir = try TestPaths.temporaryDirectory("proofread-job")
        let tiff = try ServeFixtures.lines(6, in: dir)
        let posted = try await api.call("POST", "/v1/jobs", body: .multipart(fields: [:], files: [(APITests.page, nil, "image/png"), (tiff, nil, "image/tiff")]))
        guard let id = posted.json["id"] as? String else { throw ServeTestError(description: posted.text) }
        _ = try await api.finished(id)
        made = (api, id)
        return (api, id)
    }
}

/// Issue 36's API in-process over a real job (docs/serve.md, "Proofreading"): the page with its correction layer and
/// its ETag, edits under If-Match (428, 412, 422, 400, 507 with nothing written), 8 clients on one page, a drawn
/// line read by the engine, the history, the figures in the job and /metrics, and search following every change.
/// Serialized: the disk-full case caps the one corpus they share.
@Suite("serve: proofreading in-process", .serialized)
struct ProofreadingAPITests {
    static func lines(_ reply: APIClient.Reply) -> [[String: Any]] { (reply.json["lines"] as? [[String: Any]]) ?? [] }

    @Test("a page's JSON: line ids, text and modelText, revision and state, ETag the revision, 304 on If-None-Match")
    func pageJSON() async throws {
        let (api, id) = try await ProofreadingJob.shared.get()
        let page = try await api.call("GET", "/v1/jobs/\(id)/pages/1")
        #expect(page.status == 200, "\(page.text.prefix(300))")
        let lines = Self.lines(page)
        #expect(lines.count >= 5)
        #expect(lines.map { $0["id"] as? String ?? "" } == (1...lines.count).map { "l\($0)" })
        #expect(lines.allSatisfy { $0["text"] as? String == $0["modelText"] as? String && $0["corrected"] as? Bool == false
                    && $0["deleted"] as? Bool == false && $0["added"] as? Bool == false && $0["box"] != nil })
        #expect(lines.contains { ($0["text"] as? String)?.contains("目的") == true })
        let revision = try #require(page.json["revision"] as? Int)
        #expect(page.json["state"] as? String == "unread")
        #expect(page.header("ETag") == "\"\(revision)\"")
        #expect(try await api.call("GET", "/v1/jobs/\(id)/pages/1", headers: ["If-None-Match": "\"\(revision)\""]).status == 304)
        // The other formats are the files as before.
        #expect(try await api.call("GET", "/v1/jobs/\(id)/pages/1?format=txt").text.contains("目的"))
    }

    @Test("PATCH: 428 without If-Match, 412 stale, 422 unknown line / too long / control character, 400 bad body — nothing written; then 200, history, figures, metrics")
    func edits() async throws {
        let (api, id) = try await ProofreadingJob.shared.get()
        let url = "/v1/jobs/\(id)/pages/1"
        let first = try await api.call("GET", url)
        let etag = try #require(first.header("ETag"))
        let revision = try #require(first.json["revision"] as? Int)
        let l2 = try #require(Self.lines(first).dropFirst().first)
        let model = try #require(l2["modelText"] as? String)
        func patch(_ body: String, _ headers: [String: String] = [:]) async throws -> APIClient.Reply {
            try await api.call("PATCH", url, headers: headers, body: .bytes(Data(body.utf8), type: "application/json"))
        }
        let refused: [(String, [String: String], Int, String)] = [
            (#"{"lines":[{"id":"l2","text":"気送子"}]}"#, [:], 428, "precondition_required"),
            (#"{"lines":[{"id":"l2","text":"気送子"}]}"#, ["If-Match": "\"\(revision + 5)\""], 412, "precondition_failed"),
            (#"{"lines":[{"id":"l999","text":"x"}]}"#, ["If-Match": etag], 422, "invalid_edit"),
            (#"{"lines":[{"id":"l2","text":"\#(String(repeating: "あ", count: 10_001))"}]}"#, ["If-Match": etag], 422, "invalid_edit"),
            (#"{"lines":[{"id":"l2","text":"a\u0007b"}]}"#, ["If-Match": etag], 422, "invalid_edit"),
            (#"{"lines":[{"id":"l2","deleted":1}]}"#, ["If-Match": etag], 400, "bad_body"),
            (#"{"state":"finished"}"#, ["If-Match": etag], 400, "bad_body"),
            (#"not json"#, ["If-Match": etag], 400, "bad_body"),
        ]
        for (body, headers, status, code) in refused {
            let reply = try await patch(body, headers)
            #expect(reply.status == status && reply.error == code, "\(body.prefix(60)): \(reply.status) \(reply.text.prefix(200))")
        }
        let unchanged = try await api.call("GET", url)
        #expect(unchanged.json["revision"] as? Int == revision && unchanged.text == first.text, "a refused edit wrote something")

        let saved = try await patch(#"{"lines":[{"id":"l2","text":"気送子"},{"id":"l3","deleted":true}],"state":"proofread"}"#, ["If-Match": etag])
        #expect(saved.status == 200, "\(saved.text.prefix(300))")
        #expect(saved.header("ETag") == "\"\(revision + 1)\"" && saved.json["state"] as? String == "proofread")
        let after = try await api.call("GET", url)
        let line2 = try #require(Self.lines(after).first { $0["id"] as? String == "l2" })
        #expect(line2["text"] as? String == "気送子" && line2["modelText"] as? String == model && line2["corrected"] as? Bool == true)
        #expect(Self.lines(after).first { $0["id"] as? String == "l3" }?["deleted"] as? Bool == true)
        // The same stale ETag again: 412, the other save kept.
        let stale = try await patch(#"{"lines":[{"id":"l2","text":"円筒形"}]}"#, ["If-Match": etag])
        #expect(stale.status == 412 && stale.header("ETag") == "\"\(revision + 1)\"")

        let history = try await api.call("GET", url + "/history")
        let entries = (history.json["history"] as? [[String: Any]]) ?? []
        #expect(entries.contains { $0["line"] as? String == "l2" && $0["change"] as? String == "text" && $0["before"] as? String == model
                    && $0["after"] as? String == "気送子" && $0["who"] as? String == "127.0.0.1" })
        #expect(entries.contains { $0["change"] as? String == "state" && $0["after"] as? String == "proofread" })

        let job = try await api.call("GET", "/v1/jobs/\(id)").json
        let figures = try #require(job["proofreading"] as? [String: Any])
        #expect(figures["pagesProofread"] as? Int == 1 && (figures["linesCorrected"] as? Int ?? 0) >= 2)
        #expect((figures["modelCER"] as? Double ?? 0) > 0 && (figures["characters"] as? Int ?? 0) > 0)
        let metrics = try await api.call("GET", "/metrics").text
        #expect(metrics.contains("koten_proofreading_pages 1\n") && metrics.contains("koten_proofreading_model_cer "), "\(metrics.suffix(600))")
    }

    @Test("8 clients PATCH one page, each saving with the revision it read and retrying on 412: no update lost")
    func eightClients() async throws {
        let (api, id) = try await ProofreadingJob.shared.get()
        let url = "/v1/jobs/\(id)/pages/2"
        let start = try await api.call("GET", url)
        let startRevision = try #require(start.json["revision"] as? Int)
        let rounds = 3
        // Round 0: every client has read the same revision before any saves, so exactly one save wins.
        let stale = try await withThrowingTaskGroup(of: Int.self) { group in
            for client in 0..<8 {
                group.addTask {
                    var stale = 0, etag = start.header("ETag") ?? ""
                    for round in 0..<rounds {
                        while true {
                            let body = #"{"lines":[{"id":"l1","text":"client \#(client) round \#(round)"}]}"#
                            let reply = try await api.call("PATCH", url, headers: ["If-Match": etag], body: .bytes(Data(body.utf8), type: "application/json"))
                            if reply.status == 200 { etag = reply.header("ETag") ?? ""; break }
                            guard reply.status == 412 else { throw ServeTestError(description: "\(reply.status) \(reply.text)") }
                            stale += 1
                            etag = try await api.call("GET", url).header("ETag") ?? ""
                        }
                    }
                    return stale
                }
            }
            return try await group.reduce(0, +)
        }
        let end = try await api.call("GET", url)
        #expect(end.json["revision"] as? Int == startRevision + 8 * rounds, "an update was lost")
        let texts = Set(((try await api.call("GET", url + "/history")).json["history"] as? [[String: Any]] ?? []).compactMap { $0["after"] as? String })
        for client in 0..<8 { for round in 0..<rounds { #expect(texts.contains("client \(client) round \(round)")) } }
        #expect(stale >= 7)
    }

    @Test("POST …/lines: the engine reads the drawn region now (201, modelText); 428 without If-Match, 422 off the page")
    func drawnLine() async throws {
        let (api, id) = try await ProofreadingJob.shared.get()
        let url = "/v1/jobs/\(id)/pages/3"
        let page = try await api.call("GET", url)
        let l1 = try #require(Self.lines(page).first)
        let read = try #require(l1["modelText"] as? String)
        let box = try #require(l1["box"] as? [String: Int])
        let body = Data(#"{"box":{"x":\#(box["x"] ?? 0),"y":\#(box["y"] ?? 0),"width":\#(box["width"] ?? 0),"height":\#(box["height"] ?? 0)},"orientation":"horizontal"}"#.utf8)
        #expect(try await api.call("POST", url + "/lines", body: .bytes(body, type: "application/json")).status == 428)
        let off = Data(#"{"box":{"x":100000,"y":0,"width":50,"height":50}}"#.utf8)
        #expect(try await api.call("POST", url + "/lines", headers: ["If-Match": page.header("ETag") ?? ""], body: .bytes(off, type: "application/json")).status == 422)
        let added = try await api.call("POST", url + "/lines", headers: ["If-Match": page.header("ETag") ?? ""], body: .bytes(body, type: "application/json"))
        #expect(added.status == 201, "\(added.text.prefix(300))")
        #expect(added.json["line"] as? String == "a1")
        let line = try #require(Self.lines(added).first { $0["id"] as? String == "a1" })
        #expect(line["added"] as? Bool == true && line["modelText"] as? String == read, "the engine read \(line["modelText"] ?? "nothing") where the page has \(read)")
        #expect(added.header("ETag") == "\"\((page.json["revision"] as? Int ?? 0) + 1)\"")
    }

    @Test("search: the engine's text found; a correction found by its new text and the old reading as `model`; a removed job not found")
    func search() async throws {
        let (api, id) = try await ProofreadingJob.shared.get()
        let url = "/v1/jobs/\(id)/pages/4"
        let page = try await api.call("GET", url)
        let model = try #require(Self.lines(page).first?["modelText"] as? String)
        let word = String(model.prefix(3))
        try #require(word.count == 3)
        let hits = try await api.call("GET", "/v1/search?q=\(word.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&job=\(id)")
        #expect(hits.status == 200, "\(hits.text.prefix(200))")
        #expect(((hits.json["hits"] as? [[String: Any]]) ?? []).contains { $0["page"] as? Int == 4 && $0["line"] as? String == "l1" })
        let saved = try await api.call("PATCH", url, headers: ["If-Match": page.header("ETag") ?? ""],
                                       body: .bytes(Data(#"{"lines":[{"id":"l1","text":"蓬莱山と國語"}]}"#.utf8), type: "application/json"))
        #expect(saved.status == 200)
        let found = try await api.call("GET", "/v1/search?q=%E5%9B%BD%E8%AA%9E")  // 国語 finds 國語 (the variant table) or 國語 itself
        let hit = ((found.json["hits"] as? [[String: Any]]) ?? []).first { $0["job"] as? String == id && $0["page"] as? Int == 4 }
        if VariantTableAvailable.installed { #expect(hit?["source"] as? String == "current", "\(found.text.prefix(300))") }
        let old = try await api.call("GET", "/v1/search?q=\(word.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&job=\(id)")
        #expect(((old.json["hits"] as? [[String: Any]]) ?? []).contains { $0["page"] as? Int == 4 && $0["source"] as? String == "model" })
        #expect(try await api.call("GET", "/v1/search").status == 400)
        #expect(try await api.call("GET", "/v1/search?q=x&limit=0").status == 400)
        // A job of its own, removed: its text is no longer found.
        let dir = try TestPaths.temporaryDirectory("proofread-removed")
        let posted = try await api.call("POST", "/v1/jobs", body: .raw(try ServeFixtures.lines(1, in: dir), type: "image/tiff"))
        let other = try #require(posted.json["id"] as? String)
        _ = try await api.finished(other)
        // Its text from the TXT file (a page JSON would store a missing reading itself): found because the job's
        // worker stored the page when it read it.
        let text = try await api.call("GET", "/v1/jobs/\(other)/pages/1?format=txt").text.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(text.count >= 3)
        let q = String(text.prefix(3)).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        #expect(((try await api.call("GET", "/v1/search?q=\(q)").json["hits"] as? [[String: Any]]) ?? []).contains { $0["job"] as? String == other })
        #expect(try await api.call("DELETE", "/v1/jobs/\(other)").status == 204)
        #expect(!((try await api.call("GET", "/v1/search?q=\(q)").json["hits"] as? [[String: Any]]) ?? []).contains { $0["job"] as? String == other })
    }

    @Test("the database full during a save (SQLite's page limit): 507 disk_full, the page as it was; saved once there is room")
    func diskFull() async throws {
        let (api, id) = try await ProofreadingJob.shared.get()
        let url = "/v1/jobs/\(id)/pages/5"
        let page = try await api.call("GET", url)
        let store = api.service.corpus.store
        try store.limitPages(try store.pageCount().pages)
        defer { try? store.limitPages(nil) }
        let body = Data(#"{"lines":[{"id":"l1","text":"\#(String(repeating: "満", count: 9_000))"}]}"#.utf8)
        let full = try await api.call("PATCH", url, headers: ["If-Match": page.header("ETag") ?? ""], body: .bytes(body, type: "application/json"))
        #expect(full.status == 507 && full.error == "disk_full", "\(full.status) \(full.text.prefix(200))")
        try store.limitPages(nil)
        let same = try await api.call("GET", url)
        #expect(same.text == page.text)
        let saved = try await api.call("PATCH", url, headers: ["If-Match": page.header("ETag") ?? ""], body: .bytes(body, type: "application/json"))
        #expect(saved.status == 200)
    }
}

/// Whether `scripts/setup.sh` installed the 旧字体/新字体 table where the server looks for it.
enum VariantTableAvailable {
    static let installed = FileManager.default.fileExists(atPath: TestPaths.packageRoot.appendingPathComponent(".deps/variants/joyokanji-kanji.json").path)
}
