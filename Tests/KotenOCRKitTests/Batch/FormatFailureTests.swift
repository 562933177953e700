import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// One format failing on a page is that format's failure (issue 25): the page's other files are written together,
/// the error line names the format, the exit status is 1, and `--resume` writes only the missing format.
/// The failure is made by the CLI's test hook `KOTEN_OCR_TEST_FAIL_FORMAT` (docs/diagnostics.md, "Test hooks").
@Suite("A format that fails on a page")
struct FormatFailureTests {
    static func cli(_ arguments: [String], failing: String? = nil) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["KOTEN_OCR_TEST_FAIL_FORMAT"] = failing
        return try runProcess(TestPaths.cli, try BatchFixtures.cliArguments(["-q"] + arguments), environment: environment)
    }

    /// The inode of each file in `folder` by name (a file written again gets a new one: files are renamed into place).
    static func inodes(_ folder: URL) throws -> [String: UInt64] {
        var inodes: [String: UInt64] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
            inodes[name] = (try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.systemFileNumber] as? NSNumber)?.uint64Value
        }
        return inodes
    }

    @Test("html fails: txt, json, viz and pdf are still written, the line names html, exit 1; --resume writes html alone")
    func oneFormatFails() throws {
        let folder = try TestPaths.temporaryDirectory("format-failure")
        let page = try BatchFixtures.writePages(0..<1, to: folder.appendingPathComponent("in"), lines: true, name: { _ in "page.png" })[0]
        let output = folder.appendingPathComponent("out")
        let formats = ["-f", "txt,json,viz,pdf,html", "-o", output.path]
        let failed = try Self.cli(formats + [page.path], failing: "html")
        #expect(failed.status == 1)
        #expect(failed.stderr.split(separator: "\n").contains {
            $0 == "koten-ocr: \(page.path): format html: failure injected by the test seam for format html"
        }, "\(failed.stderr)")
        let written = try Self.inodes(output)
        #expect(Set(written.keys) == ["page.txt", "page.json", "page.viz.png", "page.pdf"])
        let records = BatchManifest.load(from: output)
        #expect(records["page.png#1"]?.state == .done)
        #expect(Set(records["page.png#1"]?.outputs.map(\.file) ?? []) == ["page.txt", "page.json", "page.viz.png", "page.pdf"])

        // --resume writes the missing format only: the others keep their files (same inodes), and all are recorded.
        let resumed = try Self.cli(formats + ["--resume", page.path])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let after = try Self.inodes(output)
        #expect(Set(after.keys) == ["page.txt", "page.json", "page.viz.png", "page.pdf", "page.html"])
        for (name, inode) in written { #expect(after[name] == inode, "\(name) was written again") }
        let html = try String(contentsOf: output.appendingPathComponent("page.html"), encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        let done = BatchManifest.load(from: output)["page.png#1"]
        #expect(Set(done?.outputs.map(\.file) ?? []) == ["page.txt", "page.json", "page.viz.png", "page.pdf", "page.html"])
        #expect(done?.outputs.allSatisfy { $0.sha256 != nil } == true)
        // ... and the next --resume finds the page done.
        let again = try Self.cli(formats + ["--resume", page.path])
        let unchanged = try Self.inodes(output)
        #expect(again.status == 0 && unchanged == after)
    }

    @Test("on standard output the page's other formats are printed; the failure names the format")
    func toStandardOutput() throws {
        let folder = try TestPaths.temporaryDirectory("format-failure-stdout")
        let page = try BatchFixtures.writePages(1..<2, to: folder, lines: true, name: { _ in "page.png" })[0]
        let run = try Self.cli(["-f", "txt,json", page.path], failing: "json")
        #expect(run.status == 1)
        #expect(run.stderr.contains("koten-ocr: \(page.path): format json: failure injected"), "\(run.stderr)")
        #expect(!run.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && !run.stdout.contains("{"))
    }

    @Test("a multi-page input whose pdf failed on a page: its other pages' files are written, the PDF names the page not written")
    func documentPageFails() throws {
        let folder = try TestPaths.temporaryDirectory("format-failure-book")
        let book = folder.appendingPathComponent("book.tif")
        try ImageWriter.saveMultiPageTIFF([try BatchFixtures.line(2), try BatchFixtures.line(3)], to: book)
        let output = folder.appendingPathComponent("out")
        let run = try Self.cli(["-f", "txt,pdf", "-o", output.path, book.path], failing: "pdf")
        #expect(run.status == 1)
        #expect(run.stderr.contains("koten-ocr: \(book.path) page 1: format pdf: failure injected"), "\(run.stderr)")
        #expect(run.stderr.contains("book.pdf not written: pages 1, 2 not written"), "\(run.stderr)")
        #expect(Set(try Self.inodes(output).keys) == ["book_p0001.txt", "book_p0002.txt"])
        let resumed = try Self.cli(["-f", "txt,pdf", "-o", output.path, "--resume", book.path])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(Set(try Self.inodes(output).keys) == ["book_p0001.txt", "book_p0002.txt", "book.pdf"])
    }
}
