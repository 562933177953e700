import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// The proofreading corpus of `koten-ocr serve` across kills and starts, with child servers (docs/serve.md,
/// "Proofreading"): every edit the server answered survives `kill -9` (between edits and with one in flight), a
/// restart's resume reads the job's other pages without touching a correction, a damaged database stops the server
/// at start-up with one line and the file as it was, and 10,000 edits in a row leave the server's memory flat.
@Suite("serve: proofreading across kill -9 and start-up")
struct ProofreadingRestartTests {
    /// `PATCH` of line `line` of page `n` to `text` with `etag`: (status, new ETag).
    static func patch(_ server: ServeProcess, _ id: String, _ n: Int, _ line: String, _ text: String, etag: String) throws -> (Int, String) {
        let reply = try curl("\(server.base)/v1/jobs/\(id)/pages/\(n)", ["-X", "PATCH", "-H", "If-Match: \(etag)", "-H", "Content-Type: application/json",
                                                                        "--data-binary", #"{"lines":[{"id":"\#(line)","text":"\#(text)"}]}"#])
        return (reply.status, reply.header("ETag") ?? "")
    }

    static func page(_ server: ServeProcess, _ id: String, _ n: Int) throws -> (lines: [[String: Any]], etag: String, history: [[String: Any]]) {
        let page = try curl("\(server.base)/v1/jobs/\(id)/pages/\(n)")
        let history = try curl("\(server.base)/v1/jobs/\(id)/pages/\(n)/history")
        return ((page.json["lines"] as? [[String: Any]]) ?? [], page.header("ETag") ?? "", (history.json["history"] as? [[String: Any]]) ?? [])
    }

    @Test("kill -9 between edits and during one, twice; restarts: every answered edit is there, the resumed job's reading leaves the corrections")
    func killDuringEdits() throws {
        let dir = try TestPaths.temporaryDirectory("proofread-kill")
        let work = dir.appendingPathComponent("work")
        let tiff = try ServeFixtures.lines(4, in: dir)
        let unlimited = ["--page-timeout", "3600"]
        // The worker holds after page 2: pages 3 and 4 are left for the restarts' resume.
        var server = try ServeProcess(work: work, unlimited, environment: ["KOTEN_OCR_TEST_SERVE_HOLD_AFTER_PAGES": "2"])
        let posted = try curl(server.base + "/v1/jobs", ["-F", "file=@\(tiff.path)"])
        let id = try #require(posted.json["id"] as? String, "\(posted.text)")
        _ = try waitForJob(server, id) { ($0["progress"] as? [String: Any])?["done"] as? Int == 2 }
        var answered: [String] = []
        for round in 0..<2 {
            var etag = try Self.page(server, id, 1).etag
            for i in 0..<5 {
                let text = "round \(round) edit \(i)"
                let (status, next) = try Self.patch(server, id, 1, "l1", text, etag: etag)
                try #require(status == 200, "edit \(text): \(status); \(server.state)")
                answered.append(text)
                etag = next
            }
            if round == 1 {
                // One more edit in flight when the server is killed: it may land or not, wholly.
                let inFlight = Process()
                inFlight.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
                inFlight.arguments = ["-s", "-o", "/dev/null", "-X", "PATCH", "-H", "If-Match: \(etag)", "-H", "Content-Type: application/json",
                                      "--data-binary", #"{"lines":[{"id":"l1","text":"in flight"}]}"#, "\(server.base)/v1/jobs/\(id)/pages/1"]
                try inFlight.run()
                server.kill9()
                inFlight.waitUntilExit()
            } else {
                server.kill9()
            }
            // Started again with the hold (round 0) or without it (round 1: the job resumes pages 3 and 4).
            server = try ServeProcess(work: work, unlimited, environment: round == 0 ? ["KOTEN_OCR_TEST_SERVE_HOLD_AFTER_PAGES": "1000"] : [:])
            let (lines, _, history) = try Self.page(server, id, 1)
            let afters = history.compactMap { $0["after"] as? String }
            for text in answered { #expect(afters.contains(text), "answered edit \(text) lost after kill \(round)") }
            let current = lines.first { $0["id"] as? String == "l1" }?["text"] as? String
            #expect(current == answered.last || (round == 1 && current == "in flight" && afters.last == "in flight"), "\(current ?? "none")")
            // Each answered edit is one revision (its first also made the page inProgress, an entry of the same one).
            let revisions = history.compactMap { $0["revision"] as? Int }
            let texts = history.filter { $0["change"] as? String == "text" }.compactMap { $0["revision"] as? Int }
            #expect(revisions == revisions.sorted() && Set(texts).count == texts.count, "history's revisions \(revisions)")
        }
        let resumed = try waitForJob(server, id)
        #expect((resumed["progress"] as? [String: Any])?["done"] as? Int == 4, "\(resumed)")
        let (lines, _, _) = try Self.page(server, id, 1)
        let l1 = try #require(lines.first { $0["id"] as? String == "l1" })
        #expect(l1["corrected"] as? Bool == true && (l1["text"] as? String)?.hasPrefix("round 1") == true || l1["text"] as? String == "in flight")
        #expect(try Self.page(server, id, 4).lines.count == 1, "the resumed pages are in the corpus")
        server.kill9()
    }

    @Test("a damaged database: the server does not start, says so in one line, and leaves the file as it was")
    func damagedDatabase() throws {
        let dir = try TestPaths.temporaryDirectory("proofread-damaged")
        let work = dir.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let file = work.appendingPathComponent("corpus.sqlite")
        var garbage = Data("SQLite format 3\0".utf8)
        garbage.append(Data((0..<8176).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }))
        try garbage.write(to: file)
        let run = try runProcess(TestPaths.cli, ["serve", "--port", "0", "--mode", "ppocr", "--models", try TestPaths.ppocrModels().root.path,
                                                 "--work-dir", work.path, "--memory-budget", "800MB"])
        #expect(run.status == 2, "\(run.stdout) \(run.stderr)")
        #expect(!run.stdout.contains("serving on"))
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("koten-ocr: \(file.path): the corpus database is damaged") && $0.hasSuffix("restore a backup") },
                "\(run.stderr)")
        #expect(try Data(contentsOf: file) == garbage, "the damaged file was changed")
    }

    @Test("10,000 edits in a row over HTTP: the server's resident memory flat (growth from edit 1,000 to 10,000 under 8 MB)")
    func tenThousandEdits() throws {
        // On /dev/shm where there is one (a sync costs nothing there: the edits' own work is measured, not the disk's).
        let shm = URL(fileURLWithPath: "/dev/shm")
        let base = FileManager.default.isWritableFile(atPath: shm.path) ? shm.appendingPathComponent("koten-proofread-\(UUID().uuidString.prefix(8))")
            : try TestPaths.temporaryDirectory("proofread-edits")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let tiff = try ServeFixtures.lines(1, in: base)
        let server = try ServeProcess(work: base.appendingPathComponent("work"), ["--page-timeout", "3600", "--client-rate", "1000000"])
        let posted = try curl(server.base + "/v1/jobs", ["-F", "file=@\(tiff.path)"])
        let id = try #require(posted.json["id"] as? String, "\(posted.text)")
        _ = try waitForJob(server, id)
        let script = """
            import http.client, json, sys
            port, job, pid = int(sys.argv[1]), sys.argv[2], sys.argv[3]
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            c.request("GET", f"/v1/jobs/{job}/pages/1"); r = c.getresponse(); r.read(); etag = r.getheader("ETag")
            for i in range(1, 10001):
                body = json.dumps({"lines": [{"id": "l1", "text": f"edit {i} " + "字" * (i % 50)}]})
                c.request("PATCH", f"/v1/jobs/{job}/pages/1", body=body, headers={"If-Match": etag, "Content-Type": "application/json"})
                r = c.getresponse(); r.read()
                if r.status != 200: print("status", i, r.status); sys.exit(1)
                etag = r.getheader("ETag")
                if i % 1000 == 0:
                    rss = [l for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS")][0].split()[1]
                    print(i, rss, flush=True)
            """
        let run = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, "\(server.port)", id, "\(server.process.processIdentifier)"])
        #expect(run.status == 0, "\(run.stdout.suffix(500)) \(run.stderr.suffix(500)) \(server.state)")
        let rss = run.stdout.split(separator: "\n").compactMap { line -> (Int, Int)? in
            let f = line.split(separator: " ")
            return f.count == 2 ? Int(f[0]).flatMap { a in Int(f[1]).map { (a, $0) } } : nil
        }
        #expect(rss.count == 10, "\(run.stdout)")
        if let first = rss.first, let last = rss.last {
            #expect(last.1 - first.1 < 8 * 1024, "VmRSS kB by edit: \(rss)")
        }
        let history = try curl("\(server.base)/v1/jobs/\(id)/pages/1/history").json["history"] as? [[String: Any]] ?? []
        #expect(history.filter { $0["change"] as? String == "text" }.count == 10_000)
        server.kill9()
    }
}
