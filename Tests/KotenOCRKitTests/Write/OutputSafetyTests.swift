import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// One output folder, one writer; nothing written outside it; a page's files all or none (issue 17).
@Suite("Output folder: lock, links, all-or-none pages", .serialized)
struct OutputSafetyTests {
    static func cli(_ rest: [String]) throws -> [String] { try BatchFixtures.cliArguments(["--quiet", "--mode", "ppocr"] + rest) }

    /// A folder with three small pages.
    static func pages(_ name: String) throws -> (root: URL, inputs: URL) {
        let root = try TestPaths.temporaryDirectory(name)
        let inputs = root.appendingPathComponent("in")
        _ = try BatchFixtures.writePages(0..<3, to: inputs) { "p\($0).png" }
        return (root, inputs)
    }

    @Test("a second writer on the folder exits 2 at once naming the holder's pid and changes nothing; shards share it")
    func secondWriter() throws {
        let (root, inputs) = try Self.pages("lock-second-writer")
        let out = root.appendingPathComponent("out")
        let holder = try BatchPlan.prepare([inputs.path], options: BatchOptions(outputDirectory: out, formats: [.txt]))
        let before = try BatchFixtures.snapshot(out, hidden: true)
        let refused = try runCLI(try Self.cli(["--output", out.path, inputs.path]))
        #expect(refused.status == 2)
        #expect(refused.stderrLines == ["koten-ocr: \(out.path): output folder in use: another process (pid \(getpid())) is writing "
                                        + "a batch to it (wait for it to end, or write to another folder)"], "\(refused.stderr)")
        #expect(try BatchFixtures.snapshot(out, hidden: true) == before)
        let shard = try runCLI(try Self.cli(["--output", out.path, "--shard", "1/2", inputs.path]))
        #expect(shard.status == 2, "an unsharded batch holds the folder: \(shard.stderr)")
        _ = holder

        // Shards of one batch write side by side; an unsharded writer is kept out while they do.
        let sharded = root.appendingPathComponent("sharded")
        var options = BatchOptions(outputDirectory: sharded, formats: [.txt])
        options.shard = try Shard(parsing: "1/2")
        let first = try BatchPlan.prepare([inputs.path], options: options)
        let second = try runCLI(try Self.cli(["--output", sharded.path, "--shard", "2/2", inputs.path]))
        #expect(second.status == 0, "\(second.stderr)")
        let sameShard = try runCLI(try Self.cli(["--output", sharded.path, "--shard", "1/2", inputs.path]))
        #expect(sameShard.status == 2 && sameShard.stderr.contains("pid \(getpid())"), "\(sameShard.stderr)")
        let whole = try runCLI(try Self.cli(["--output", sharded.path, inputs.path]))
        #expect(whole.status == 2 && whole.stderr.contains("output folder in use"), "\(whole.stderr)")
        _ = first
    }

    @Test("a lock left by a writer killed with SIGKILL never blocks the next run")
    func staleLock() throws {
        let (root, inputs) = try Self.pages("lock-stale")
        let out = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        // A shell takes the folder's lock exclusively and kills itself with SIGKILL while holding it.
        let lock = out.appendingPathComponent(OutputLock.fileName).path
        let shell = try runProcess(URL(fileURLWithPath: "/bin/bash"),
                                   ["-c", "exec 9>>\"$1\" && /usr/bin/flock -xn 9 && kill -9 $$", "_", lock])
        #expect(shell.status != 0)  // killed
        #expect(FileManager.default.fileExists(atPath: lock))
        let run = try runCLI(try Self.cli(["--output", out.path, "--format", "txt", inputs.path]))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("p2.txt").path))
    }

    @Test("a symbolic link inside the output folder, as a subfolder or as the manifest, is refused and nothing reaches its target")
    func links() throws {
        let root = try TestPaths.temporaryDirectory("links")
        let inputs = root.appendingPathComponent("in")
        _ = try BatchFixtures.writePages(0..<1, to: inputs.appendingPathComponent("vol1")) { _ in "a.png" }
        let elsewhere = root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)

        let out = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent("vol1"), withDestinationURL: elsewhere)
        let folder = try runCLI(try Self.cli(["--output", out.path, "--recursive", inputs.path]))
        #expect(folder.status == 2)
        #expect(folder.stderrLines == ["koten-ocr: \(out.path)/vol1: is a symbolic link; results are never written through one"])

        let out2 = root.appendingPathComponent("out2")
        try FileManager.default.createDirectory(at: out2, withIntermediateDirectories: true)
        let target = elsewhere.appendingPathComponent("manifest.jsonl")
        try FileManager.default.createSymbolicLink(at: out2.appendingPathComponent(BatchManifest.fileName(shard: nil)), withDestinationURL: target)
        let manifest = try runCLI(try Self.cli(["--output", out2.path, "--recursive", inputs.path]))
        #expect(manifest.status == 2)
        #expect(manifest.stderr.contains("is a symbolic link; the manifest is never written through one"), "\(manifest.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)

        // A link made after planning (a race) is refused by the commit itself.
        let out3 = root.appendingPathComponent("out3")
        try FileManager.default.createDirectory(at: out3, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: out3.appendingPathComponent("vol1"), withDestinationURL: elsewhere)
        #expect(throws: OutputFolder.Refused.self) {
            try PageCommit.commit([.init(name: "vol1/a.txt", data: Data("x".utf8))], in: out3)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
    }

    @Test("a page whose commit fails after its first file is renamed has none of its files, stays 'started', and --resume writes both")
    func allOrNone() async throws {
        let (root, inputs) = try Self.pages("all-or-none")
        let out = root.appendingPathComponent("out")
        let engine = try KotenOCR(configuration: OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels(),
                                                                  maxConcurrentInferences: 1, watchMemoryPressure: false))
        let options = BatchOptions(outputDirectory: out, formats: [.txt, .json])
        do {
            let plan = try BatchPlan.prepare([inputs.path], options: options)
            // The write failure is injected through the test seam: after one rename, as a full disk or a folder
            // removed under the batch would fail the second.
            let progress = try await PageCommit.$failAfterRenames.withValue(1) {
                try await BatchRunner(engine: engine, options: options).run(plan) { _ in }
            }
            #expect(progress.failedPages == 3 && progress.read == 0)
        }
        #expect(try BatchFixtures.snapshot(out, hidden: true).keys.sorted() == [".koten-ocr-manifest.jsonl", ".koten-ocr.lock"])
        #expect(BatchManifest.load(from: out).values.allSatisfy { $0.state == .started })

        var resumeOptions = options
        resumeOptions.resume = true
        let plan = try BatchPlan.prepare([inputs.path], options: resumeOptions)
        let progress = try await BatchRunner(engine: engine, options: resumeOptions).run(plan) { _ in }
        #expect(progress.read == 3 && progress.failures == 0)
        #expect(try BatchFixtures.snapshot(out).keys.sorted() == ["p0.json", "p0.txt", "p1.json", "p1.txt", "p2.json", "p2.txt"])
    }

    @Test("on a full disk (a tmpfs with 12 KiB free) a page's files are all there or none, never a .txt without its .json",
          .enabled(if: OutputSafetyTests.canMountTmpfs, "needs the right to mount a tmpfs (root)"))
    func fullDisk() throws {
        let (root, inputs) = try Self.pages("full-disk")
        let mount = root.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        try #require(Foundation.mount("tmpfs", mount.path, "tmpfs", 0, "size=64k") == 0)
        defer { _ = umount(mount.path) }
        try Data(count: 52 * 1024).write(to: mount.appendingPathComponent("filler.bin"))
        let run = try runCLI(try Self.cli(["--output", mount.path, "--format", "txt,json", inputs.path]))
        let records = BatchManifest.load(from: mount)
        var complete = 0
        for page in ["p0", "p1", "p2"] {
            let txt = FileManager.default.fileExists(atPath: mount.appendingPathComponent(page + ".txt").path)
            let json = FileManager.default.fileExists(atPath: mount.appendingPathComponent(page + ".json").path)
            #expect(txt == json, "\(page): txt \(txt), json \(json)")
            #expect(json == (records[BatchManifest.Key(page + ".png#1")]?.state == .done))
            if json { complete += 1 }
        }
        #expect(complete < 3 && run.status == 1, "the disk filled up: \(run.stderr)")
        #expect(run.stderr.contains("no space left on device"), "\(run.stderr)")
        let temporaries = try FileManager.default.contentsOfDirectory(atPath: mount.path).filter { $0.contains(".tmp-") }
        #expect(temporaries.isEmpty, "temporaries left: \(temporaries)")
    }

    /// Whether this process may mount a tmpfs (root, with the capability), probed once.
    static let canMountTmpfs: Bool = {
        guard getuid() == 0, let probe = try? TestPaths.temporaryDirectory("tmpfs-probe") else { return false }
        guard Foundation.mount("tmpfs", probe.path, "tmpfs", 0, "size=4k") == 0 else { return false }
        _ = umount(probe.path)
        return true
    }()
}
