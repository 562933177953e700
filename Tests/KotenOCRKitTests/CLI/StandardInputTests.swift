import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// `koten-ocr -` reads one image from standard input, decoded in memory (issue 14).
@Suite("Command line: standard input")
struct StandardInputTests {
    static func cli(_ arguments: [String], input: URL? = nil) throws -> ProcessResult {
        try runProcess(TestPaths.cli, ["--mode", "ppocr", "--models", try TestPaths.ppocrModels().root.path] + arguments,
                       input: input)
    }

    @Test("koten-ocr - < page.png prints what koten-ocr page.png prints; JSON names it stdin")
    func sameTextAsTheFile() throws {
        let page = TestPaths.image("ndlocr-lite-rs/scaned0.png")
        let fromFile = try Self.cli([page.path])
        let fromStdin = try Self.cli(["-"], input: page)
        #expect(fromFile.status == 0 && fromStdin.status == 0, "\(fromStdin.stderr)")
        #expect(!fromFile.stdout.isEmpty)
        #expect(fromStdin.stdout == fromFile.stdout)
        let json = try Self.cli(["--format", "json", "-"], input: page)
        let line = try #require(json.stdout.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect((object["source"] as? [String: Any])?["path"] as? String == "stdin")
    }

    @Test("pages of a multi-page TIFF on standard input, --pages as for a file")
    func multiPage() throws {
        let dir = try TestPaths.temporaryDirectory("stdin-tiff")
        let tiff = dir.appendingPathComponent("book.tif")
        try ImageWriter.saveMultiPageTIFF([BatchFixtures.crop(0), BatchFixtures.crop(1), BatchFixtures.crop(2)], to: tiff)
        let fromFile = try Self.cli(["--pages", "1,3", tiff.path])
        let fromStdin = try Self.cli(["--pages", "1,3", "-"], input: tiff)
        #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
        #expect(fromStdin.stdout == fromFile.stdout)
        #expect(fromStdin.stdout.split(separator: "\u{0C}").count == 2)
        let past = try Self.cli(["--pages", "4", "-"], input: tiff)
        #expect(past.status == 1)
        #expect(past.stderr.hasPrefix("koten-ocr: stdin: --pages asks for page 4, but the image has 3 pages\nkoten-ocr: 0 pages read, 1 failed, in "),
                "\(past.stderr)")
    }

    @Test("not an image on standard input: one line naming stdin, exit 1; '-' with --output or other inputs: exit 2")
    func refusals() throws {
        let dir = try TestPaths.temporaryDirectory("stdin-bad")
        let text = dir.appendingPathComponent("notes.txt")
        try Data("not an image\n".utf8).write(to: text)
        let bad = try Self.cli(["-"], input: text)
        #expect(bad.status == 1 && bad.stdout.isEmpty)
        #expect(bad.stderr.hasPrefix("koten-ocr: stdin: not an image format this tool reads\nkoten-ocr: 0 pages read, 1 failed, in "), "\(bad.stderr)")
        let empty = try Self.cli(["-"], input: URL(fileURLWithPath: "/dev/null"))
        #expect(empty.status == 1 && empty.stderr.hasPrefix("koten-ocr: stdin: "), "\(empty.stderr)")
        let toFolder = try Self.cli(["-o", dir.appendingPathComponent("out").path, "-"], input: text)
        #expect(toFolder.status == 2 && toFolder.stderr.contains("--output"), "\(toFolder.stderr)")
        let mixed = try Self.cli(["-", TestPaths.image("ndlocr-lite-rs/scaned0.png").path], input: text)
        #expect(mixed.status == 2, "\(mixed.stderr)")
    }
}
