import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// Batches that survive kills: a run killed with SIGKILL part-way and resumed gives exactly the bytes of an
/// uninterrupted run, no partial result ever exists under its final name, and nothing that is not the
/// batch's own is replaced without --overwrite.
@Suite("Batch resume: kills, manifest, overwrite", .serialized)
struct BatchResumeTests {
    struct Corpus {
        let folder: URL
        /// Results of an uninterrupted run (relative path → bytes, hidden files left out).
        let reference: [String: Data]
    }

    /// Nine one-line PNG pages and a 3-page TIFF, and the results of one uninterrupted run over them.
    static let corpus: Result<Corpus, Error> = Result {
        let folder = try TestPaths.temporaryDirectory("batch-resume-corpus")
        _ = try BatchFixtures.writePages(12..<21, to: folder, lines: true, name: { "p\($0 - 11).png" })
        try ImageWriter.saveMultiPageTIFF([21, 22, 23].map { try BatchFixtures.line($0) }, to: folder.appendingPathComponent("book.tif"))
        let output = try TestPaths.temporaryDirectory("batch-resume-reference")
        let run = try runCLI(try BatchFixtures.cliArguments(["--output", output.path, folder.path]))
        try #require(run.status == 0, "\(run.stderr)")
        return Corpus(folder: folder, reference: try BatchFixtures.snapshot(output))
    }

    static func manifestRecords(_ output: URL) throws -> [BatchManifest.Record] {
        let data = try Data(contentsOf: output.appendingPathComponent(BatchManifest.fileName(shard: nil)))
        return data.split(separator: 0x0A).compactMap { try? JSONDecoder().decode(BatchManifest.Record.self, from: Data($0)) }
    }

    static func startedCount(_ records: [BatchManifest.Record], key: String) -> Int {
        records.filter { $0.key == key && $0.state == .started }.count
    }

    @Test("SIGKILL mid-run, then --resume: byte-identical to an uninterrupted run, never a partial result")
    func killAndResume() throws {
        let corpus = try Self.corpus.get()
        try #require(corpus.reference.count == 24)
        let output = try TestPaths.temporaryDirectory("batch-resume-killed")
        let manifest = output.appendingPathComponent(BatchManifest.fileName(shard: nil))

        let process = try BatchFixtures.startCLI(try BatchFixtures.cliArguments(["--output", output.path, corpus.folder.path]))
        // Watch the folder while the batch runs: every visible file is a complete result, every hidden one is
        // the manifest or a temporary file of a result. Kill once four pages are recorded as done.
        var resultsSeen = Set<String>()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline {
            for (name, data) in try BatchFixtures.snapshot(output, hidden: true) {
                if name == manifest.lastPathComponent || name == OutputLock.fileName { continue }
                if name.hasPrefix(".") {
                    let target = corpus.reference.keys.first { name.hasPrefix(AtomicFile.temporaryPrefix(for: $0)) }
                    #expect(target != nil, "unexpected hidden file \(name)")
                } else {
                    #expect(corpus.reference[name] == data, "\(name) is not a complete result")
                    resultsSeen.insert(name)
                }
            }
            let done = (try? Self.manifestRecords(output))?.filter { $0.state == .done }.count ?? 0
            if done >= 4 { kill(process.processIdentifier, SIGKILL); break }
            usleep(2000)
        }
        process.waitUntilExit()
        #expect(!resultsSeen.isEmpty)   // the watcher saw results appear while the batch ran
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)

        // After the kill: only complete results under final names, and not all of them yet.
        let afterKill = try BatchFixtures.snapshot(output)
        for (name, data) in afterKill { #expect(corpus.reference[name] == data, "\(name) is not a complete result") }
        #expect(afterKill.count < corpus.reference.count)
        let doneBeforeKill = Set(try Self.manifestRecords(output).filter { $0.state == .done }.map(\.key))
        #expect(doneBeforeKill.count >= 4)

        // A temporary file as a kill during a write leaves it: removed on resume.
        let stale = output.appendingPathComponent(AtomicFile.temporaryPrefix(for: "p9.txt") + "12345")
        try Data("partial".utf8).write(to: stale)

        // Without --resume the earlier results are not touched: exit 2 before anything is read.
        let before = try BatchFixtures.snapshot(output, hidden: true)
        let refused = try runCLI(try BatchFixtures.cliArguments(["--output", output.path, corpus.folder.path]))
        #expect(refused.status == 2)
        #expect(refused.stderrLines.count == 1 && refused.stderr.contains("--resume"), "\(refused.stderr)")
        #expect(try BatchFixtures.snapshot(output, hidden: true) == before)

        let resumed = try runCLI(try BatchFixtures.cliArguments(["--output", output.path, "--resume", corpus.folder.path]))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try BatchFixtures.snapshot(output) == corpus.reference)
        let hidden = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix(".") }.sorted()
        #expect(hidden == [manifest.lastPathComponent, OutputLock.fileName])
        // Pages done before the kill were not read again.
        let records = try Self.manifestRecords(output)
        for key in doneBeforeKill { #expect(Self.startedCount(records, key: key) == 1, "\(key) was read again") }
        #expect(Set(records.filter { $0.state == .done }.map(\.key)).count == 12)
    }

    @Test("--resume checks each result's SHA-256: a changed or missing result is read again, the rest are not")
    func resumeVerifiesHashes() throws {
        let corpus = try Self.corpus.get()
        let output = try TestPaths.temporaryDirectory("batch-resume-verify")
        let first = try runCLI(try BatchFixtures.cliArguments(["--output", output.path, corpus.folder.path]))
        try #require(first.status == 0)
        #expect(try BatchFixtures.snapshot(output) == corpus.reference)
        let changed = output.appendingPathComponent("p1.txt")
        try (try Data(contentsOf: changed) + Data("x".utf8)).write(to: changed)
        try FileManager.default.removeItem(at: output.appendingPathComponent("book_p0002.json"))

        let resumed = try runCLI(try BatchFixtures.cliArguments(["--output", output.path, "--resume", corpus.folder.path]))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try BatchFixtures.snapshot(output) == corpus.reference)
        let records = try Self.manifestRecords(output)
        #expect(Self.startedCount(records, key: "p1.png#1") == 2)
        #expect(Self.startedCount(records, key: "book.tif#2") == 2)
        #expect(Self.startedCount(records, key: "p2.png#1") == 1)
        #expect(Self.startedCount(records, key: "book.tif#1") == 1)
    }

    @Test("a result file that is not the batch's is never replaced without --overwrite")
    func foreignFile() throws {
        let corpus = try Self.corpus.get()
        let output = try TestPaths.temporaryDirectory("batch-resume-foreign")
        let foreign = output.appendingPathComponent("p3.txt")
        try Data("my corrected transcription\n".utf8).write(to: foreign)
        let page = corpus.folder.appendingPathComponent("p3.png").path
        for flags in [[], ["--resume"]] {
            let refused = try runCLI(try BatchFixtures.cliArguments(["--output", output.path] + flags + [page]))
            #expect(refused.status == 2)
            #expect(refused.stderrLines == ["koten-ocr: \(foreign.path): already exists and is not recorded in this folder's "
                                            + "batch manifest (use --overwrite to replace it)"])
            #expect(try String(contentsOf: foreign, encoding: .utf8) == "my corrected transcription\n")
            #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("p3.json").path))
        }
        let replaced = try runCLI(try BatchFixtures.cliArguments(["--output", output.path, "--overwrite", page]))
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try Data(contentsOf: foreign) == corpus.reference["p3.txt"])
    }
}
