import Foundation
import Testing
@testable import KotenOCRKit

/// The API as a client generated from its OpenAPI document sees it (docs/serve.md, "The OpenAPI document"):
/// schemathesis 4.32.5 (hash-pinned, `.deps/schemathesis`, installed by scripts/setup.sh) against a live
/// `koten-ocr serve` with a token, every check but positive data acceptance (a random body is no page), its
/// examples, coverage, fuzzing and stateful phases, with a fixed seed. The job routes are given two real jobs
/// (one to read, one to delete) through schemathesis' dictionaries, which it uses for valid values only; the
/// `manifest` parameter is the server's own `/healthz` (no request leaves the machine). 0 failures.
@Suite("serve: schemathesis over /openapi.json")
struct SchemathesisTests {
    static let schemathesis = TestPaths.packageRoot.appendingPathComponent(".deps/schemathesis/bin/schemathesis")

    @Test("every check but positive data acceptance: 0 failures", .timeLimit(.minutes(10)))
    func generatedClient() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.schemathesis.path), "schemathesis missing: run scripts/setup.sh")
        let dir = try TestPaths.temporaryDirectory("schemathesis")
        let token = "s3cret-token-0123456789abcdef"
        let tokenFile = dir.appendingPathComponent("token")
        try Data((token + "\n").utf8).write(to: tokenFile)
        // No client limit that the run's own requests would reach, no page limit a busy machine could.
        let server = try ServeProcess(work: dir.appendingPathComponent("work"),
                                      ["--token-file", tokenFile.path, "--client-rate", "1000000", "--page-timeout", "3600"])
        let auth = ["-H", "Authorization: Bearer \(token)"]
        var jobs: [String] = []
        for n in 0..<2 {
            let posted = try curl(server.base + "/v1/jobs", auth + ["-F", "file=@\(try ServeFixtures.lines(1 + n, in: dir).path)"])
            let id = try #require(posted.json["id"] as? String, "\(posted.text)")
            #expect(try curl(server.base + "/v1/jobs/\(id)/events", auth + ["-N"]).text.contains("event: end"))
            jobs.append(id)
        }
        let config = dir.appendingPathComponent("schemathesis.toml")
        try Data("""
            [dictionaries.manifests]
            values = ["\(server.base)/healthz"]

            [dictionaries.done-jobs]
            values = ["\(jobs[0])"]

            [dictionaries.doomed-jobs]
            values = ["\(jobs[1])"]

            [parameters]
            "query.manifest" = { dictionary = "manifests", probability = 1.0 }

            [[operations]]
            include-path-regex = '^/v1/jobs/\\{id\\}'
            include-method = "GET"
            parameters = { "path.id" = { dictionary = "done-jobs", probability = 0.9 } }

            [[operations]]
            include-method = "DELETE"
            parameters = { "path.id" = { dictionary = "doomed-jobs", probability = 0.9 } }

            """.utf8).write(to: config)
        let run = try runProcess(Self.schemathesis, ["--config-file", config.path, "run", server.base + "/openapi.json",
                                                     "--checks", "all", "--exclude-checks", "positive_data_acceptance",
                                                     "-H", "Authorization: Bearer \(token)", "--seed", "1", "--workers", "1",
                                                     "--no-color"],
                                 environment: ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1", "COLUMNS": "120"]) { $1 },
                                 directory: dir)
        let summary = run.stdout.split(separator: "\n").last { $0.contains("generated") } ?? "no summary"
        #expect(run.status == 0 && !summary.contains("failure"), "\(summary)\n\(run.stdout.suffix(6000))\n\(run.stderr.suffix(2000))\n\(server.state)")
        server.kill9()
    }
}
