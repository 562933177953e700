import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// Operators' logs (issue 35, docs/cluster.md "Logs"): every run of the CLI that reads ends with its summary line
/// on standard error, a file here as under a job runner, however short the run: a shard done within the first
/// progress interval, a shard that owns no page, a resumed run, an image on standard input; under `--quiet`, none.
/// Under Slurm, four of eight shards' logs were empty (the summary came only after a progress line, 10 s in).
@Suite("Every run ends with its summary line")
struct RunSummaryTests {
    /// `40 pages read, 2 without lines, 1 failed, 5 already done, in 1m12s`: the counts, nil for a part left out.
    static func counts(_ line: String) -> (read: Int, withoutLines: Int?, failed: Int?, alreadyDone: Int?)? {
        let summary = /koten-ocr: (\d+) pages? read(?:, (\d+) without lines)?(?:, (\d+) failed)?(?:, (\d+) already done)?, in (?:\d+[dhms])+/
        guard let match = line.wholeMatch(of: summary), let read = Int(match.output.1) else { return nil }
        return (read, match.output.2.flatMap { Int($0) }, match.output.3.flatMap { Int($0) }, match.output.4.flatMap { Int($0) })
    }

    /// The log's lines but the progress lines a slow run may write (`1/2 pages (50%), ...`).
    static func lines(_ log: String) -> [String] {
        log.split(separator: "\n").map(String.init).filter { $0.firstMatch(of: /^koten-ocr: \d+\/\d+ pages \(/) == nil }
    }

    @Test("four shards of a folder (two pages with text, a blank one, a truncated JPEG), each log ends with its own counts; resumed; --quiet none")
    func shards() throws {
        let dir = try TestPaths.temporaryDirectory("run-summary")
        let corpus = dir.appendingPathComponent("corpus"), out = dir.appendingPathComponent("out")
        _ = try BatchFixtures.writePages(0..<2, to: corpus, lines: true) { "line\($0).png" }
        var white = RGBImage(width: 400, height: 200)
        for i in white.pixels.indices { white.pixels[i] = 255 }
        try ImageWriter.save(white, to: corpus.appendingPathComponent("blank.png"))
        let jpeg = try Data(contentsOf: TestPaths.image("ndlocr-lite/digidepo_2531162_0024.jpg"))
        try jpeg.prefix(jpeg.count / 2).write(to: corpus.appendingPathComponent("cut.jpg"))
        let owners = ["line0.png", "line1.png", "blank.png", "cut.jpg"].map { (name: $0, shard: Shard.owner(of: "\($0)#1", count: 4)) }
        try #require(Set(owners.map(\.shard)).count < 4, "a shard owns no page: \(owners)")  // 4 pages, 4 shards, by the hash

        for shard in 1...4 {
            let own = owners.filter { $0.shard == shard }.map(\.name)
            let run = try runCLI(try BatchFixtures.cliArguments(["--mode", "ppocr", "-o", out.path, "--shard", "\(shard)/4", corpus.path]))
            let failing = own.contains("cut.jpg")
            #expect(run.status == (failing ? 1 : 0), "shard \(shard): \(run.stderr)")
            let lines = Self.lines(run.stderr)
            let last = try #require(lines.last.flatMap(Self.counts), "shard \(shard) (pages \(own)): its log does not end with a summary:\n\(run.stderr)")
            let readable = own.filter { $0 != "cut.jpg" }
            #expect(last.read == readable.count && last.withoutLines == (own.contains("blank.png") ? 1 : nil)
                    && last.failed == (failing ? 1 : nil) && last.alreadyDone == nil, "shard \(shard) (pages \(own)): \(run.stderr)")
        }

        let resumed = try runCLI(try BatchFixtures.cliArguments(["--mode", "ppocr", "-o", out.path, "--resume", corpus.path]))
        let again = try #require(Self.lines(resumed.stderr).last.flatMap(Self.counts), "resumed: \(resumed.stderr)")
        #expect(again.read == 0 && again.alreadyDone == 3 && again.failed == 1, "the truncated JPEG is tried again: \(resumed.stderr)")

        let quiet = try runCLI(try BatchFixtures.cliArguments(["--mode", "ppocr", "-q", "-o", out.path, "--resume", corpus.path]))
        #expect(quiet.stderrLines.count == 1 && quiet.stderr.hasPrefix("koten-ocr: \(corpus.path)/cut.jpg: truncated"),
                "--quiet: the failure only: \(quiet.stderr)")
    }

    @Test("an image on standard input: its results on standard output, the summary last on standard error")
    func standardInput() throws {
        let page = try Data(contentsOf: try BatchFixtures.writePages(0..<1, to: try TestPaths.temporaryDirectory("run-summary-stdin"), lines: true) { "line\($0).png" }[0])
        let run = try runCLI(try BatchFixtures.cliArguments(["--mode", "ppocr", "-"]), stdin: page)
        #expect(run.status == 0 && !run.stdout.isEmpty, "\(run.stderr)")
        let last = try #require(Self.lines(run.stderr).last.flatMap(Self.counts), "\(run.stderr)")
        #expect(last.read == 1 && last.failed == nil, "\(run.stderr)")
        let bad = try runCLI(try BatchFixtures.cliArguments(["--mode", "ppocr", "-"]), stdin: Data("not an image".utf8))
        #expect(bad.status == 1 && Self.lines(bad.stderr).last.flatMap(Self.counts).map { $0.read == 0 && $0.failed == 1 } == true, "\(bad.stderr)")
    }
}
