import Foundation
import Testing
@testable import KotenOCRKit

/// Bad input through the real CLI: each bad input gets one line on stderr naming the file and the reason,
/// the exit status is 1, and the good page in the same run is still written.
@Suite("CLI bad input", .serialized)
struct BadInputTests {
    struct Run {
        let result: ProcessResult
        let outputDir: URL
        let paths: [String: String]
    }

    /// One run over a good page and every kind of bad input (the model runs once).
    static let run: Result<Run, Error> = Result {
        let dir = try TestPaths.temporaryDirectory("bad-input")
        let inputs = dir.appendingPathComponent("inputs")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        let empty = inputs.appendingPathComponent("empty.jpg")
        try Data().write(to: empty)
        let jpeg = try Data(contentsOf: TestPaths.image("ndlocr-lite/digidepo_11048278_po_geppo1803_00021.jpg"))
        let truncated = inputs.appendingPathComponent("truncated.jpg")
        try jpeg.prefix(jpeg.count / 2).write(to: truncated)
        let random = inputs.appendingPathComponent("random.png")
        var generator = SystemRandomNumberGenerator()
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: random)
        let noImages = dir.appendingPathComponent("no images")
        try FileManager.default.createDirectory(at: noImages, withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: noImages.appendingPathComponent("readme.txt"))
        let missing = dir.appendingPathComponent("missing.png")
        let good = TestPaths.image("ndlocr-lite-rs/scaned0.png")
        let out = dir.appendingPathComponent("out")
        let paths = ["empty": empty.path, "truncated": truncated.path, "random": random.path,
                     "noImages": noImages.path, "missing": missing.path]
        // --quiet: the progress display writes a line every 10 s to a log; on a loaded machine the run takes
        // longer than that, and the lines counted here are the failures' only (issue 17).
        let result = try runProcess(TestPaths.cli, ["--quiet", "--mode", "ppocr", "--models", try TestPaths.ppocrModels().root.path, "--output", out.path,
                                                    empty.path, truncated.path, good.path, random.path, noImages.path, missing.path])
        return Run(result: result, outputDir: out, paths: paths)
    }

    static func errorLine(for key: String) throws -> String {
        let run = try Self.run.get()
        let path = try #require(run.paths[key])
        let lines = run.result.stderr.split(separator: "\n").map(String.init).filter { $0.contains(path) }
        try #require(lines.count == 1, "expected one stderr line naming \(path), got: \(run.result.stderr)")
        return lines[0]
    }

    @Test("exit status 1 and the good page still written")
    func exitStatusAndGoodPage() throws {
        let run = try Self.run.get()
        #expect(run.result.status == 1)
        let txt = try String(contentsOf: run.outputDir.appendingPathComponent("scaned0.txt"), encoding: .utf8)
        #expect(txt.contains("対馬"))
        let json = try Data(contentsOf: run.outputDir.appendingPathComponent("scaned0.json"))
        let page = try JSONDecoder().decode(PageResult.self, from: json)
        #expect(page.lines.count >= 5)
        // Nothing else but the batch manifest and the folder's lock file, and no temporary file, in the output folder.
        let names = try FileManager.default.contentsOfDirectory(atPath: run.outputDir.path).sorted()
        #expect(names == [".koten-ocr-manifest.jsonl", ".koten-ocr.lock", "scaned0.json", "scaned0.txt"])
        #expect(run.result.stderr.split(separator: "\n").count == 5)
    }

    @Test("empty file") func emptyFile() throws { #expect(try Self.errorLine(for: "empty").hasSuffix("empty file")) }
    @Test("truncated JPEG") func truncatedJPEG() throws { #expect(try Self.errorLine(for: "truncated").contains("truncated")) }
    @Test("random bytes named .png") func randomBytes() throws {
        #expect(try Self.errorLine(for: "random").hasSuffix("not an image format this tool reads"))
    }
    @Test("directory with no images") func directoryWithoutImages() throws {
        #expect(try Self.errorLine(for: "noImages").contains("directory contains no image files"))
    }
    @Test("missing path") func missingPath() throws {
        #expect(try Self.errorLine(for: "missing").hasSuffix("no such file or directory"))
    }

    @Test("usage errors exit 2 with one line", arguments: [["--mode", "tesseract", "x.png"], [], ["--jobs", "0", "x.png"],
                                                            ["--bogus", "x.png"], ["--memory-budget", "lots", "x.png"]])
    func usageErrors(_ args: [String]) throws {
        let r = try runProcess(TestPaths.cli, args)
        #expect(r.status == 2)
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stderr.hasPrefix("koten-ocr: "))
        #expect(r.stdout.isEmpty)
    }
}
