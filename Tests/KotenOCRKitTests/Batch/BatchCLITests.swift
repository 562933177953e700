import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// The batch options of the real CLI: an input list on standard input, --recursive with mirrored folders,
/// --pages, the natural order on standard output, and the errors that stop a batch before it starts.
@Suite("Batch CLI: lists, folders, pages, errors", .serialized)
struct BatchCLITests {
    struct Tree {
        let root: URL
        let extra: URL
        var list: Data { Data("# a list\n\(root.path)\n\n   \(extra.path)  \n#\(extra.path)\n".utf8) }
    }

    /// tree/{vol2/1.png, vol10/1.png, .hidden/x.png, book.tif (3 pages)} and extra.png outside it.
    static let tree: Result<Tree, Error> = Result {
        let base = try TestPaths.temporaryDirectory("batch-cli-tree")
        let root = base.appendingPathComponent("tree")
        _ = try BatchFixtures.writePages(0..<1, to: root.appendingPathComponent("vol2"), lines: true, name: { _ in "1.png" })
        _ = try BatchFixtures.writePages(1..<2, to: root.appendingPathComponent("vol10"), lines: true, name: { _ in "1.png" })
        _ = try BatchFixtures.writePages(2..<3, to: root.appendingPathComponent(".hidden"), lines: true, name: { _ in "x.png" })
        try ImageWriter.saveMultiPageTIFF([3, 4, 5].map { try BatchFixtures.line($0) }, to: root.appendingPathComponent("book.tif"))
        let extra = try BatchFixtures.writePages(6..<7, to: base, lines: true, name: { _ in "extra.png" })[0]
        return Tree(root: root, extra: extra)
    }

    @Test("--input-list - with --recursive and --pages 2-3: subfolders mirrored, hidden skipped, pages selected; a single image has no page 2")
    func listRecursivePages() throws {
        let tree = try Self.tree.get()
        let output = try TestPaths.temporaryDirectory("batch-cli-out")
        let run = try runCLI(try BatchFixtures.cliArguments(["--input-list", "-", "-r", "--pages", "2-3", "--output", output.path]),
                             stdin: tree.list)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").filter { $0.hasSuffix(": --pages asks for page 2, but the file has 1 page") }.count == 3,
                "\(run.stderr)")
        let stems = ["book_p0002", "book_p0003"]
        #expect(Set(try BatchFixtures.snapshot(output).keys) == Set(stems.flatMap { ["\($0).txt", "\($0).json"] }))
        let page = try JSONDecoder().decode(PageResult.self, from: Data(contentsOf: output.appendingPathComponent("book_p0003.json")))
        #expect(page.source.page == 3 && page.source.pageCount == 3)
    }

    @Test("relative paths in an input list keep their folders; absolute ones and ../ ones are named by file name")
    func listKeepsFolders() throws {
        let tree = try Self.tree.get()
        let output = try TestPaths.temporaryDirectory("batch-cli-list-out")
        let input = Pipe()
        let process = try BatchFixtures.startCLI(try BatchFixtures.cliArguments(["--input-list", "-", "--output", output.path]),
                                                 in: tree.root, stdin: input)
        input.fileHandleForWriting.write(Data("./vol2/1.png\nvol10//1.png\n../extra.png\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(Set(try BatchFixtures.snapshot(output).keys)
                == Set(["vol2/1", "vol10/1", "extra"].flatMap { ["\($0).txt", "\($0).json"] }))
        #expect(InputCollector.relativeFolders("/data/vol1/0001.jpg") == "0001.jpg")
        #expect(InputCollector.relativeFolders("a/../b/2.png") == "2.png")
    }

    @Test("standard output: pages in natural order, JSON one line per page, text separated by form feeds")
    func naturalOrderOnStdout() throws {
        let tree = try Self.tree.get()
        let run = try runCLI(try BatchFixtures.cliArguments(["-r", "--pages", "1", "--format", "json", tree.root.path, tree.extra.path]))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("\u{0C}"))
        let pages = try run.stdout.split(separator: "\n").map { try JSONDecoder().decode(PageResult.self, from: Data($0.utf8)) }
        let text = try runCLI(try BatchFixtures.cliArguments(["-r", "--pages", "1", tree.root.path, tree.extra.path]))
        #expect(text.stdout.split(separator: "\u{0C}", omittingEmptySubsequences: false).count == 4)
        #expect(pages.map { "\(URL(fileURLWithPath: $0.source.path).lastPathComponent)#\($0.source.page)" }
                == ["book.tif#1", "1.png#1", "1.png#1", "extra.png#1"])
        #expect(pages[1].source.path.hasSuffix("/vol2/1.png") && pages[2].source.path.hasSuffix("/vol10/1.png"))
    }

    @Test("--pages 5 on a single image: exit 1 with the message a 3-page TIFF gets, nothing read (issue 25)")
    func pagesPastSingleImage() throws {
        let folder = try TestPaths.temporaryDirectory("batch-cli-pages-single")
        let png = try BatchFixtures.writePages(4..<5, to: folder, lines: true, name: { _ in "single.png" })[0]
        let tiff = folder.appendingPathComponent("book.tif")
        try ImageWriter.saveMultiPageTIFF([2, 3, 4].map { try BatchFixtures.line($0) }, to: tiff)
        let single = try runCLI(try BatchFixtures.cliArguments(["-q", "--pages", "5", png.path]))
        #expect(single.status == 1)
        #expect(single.stdout.isEmpty)
        #expect(single.stderrLines == ["koten-ocr: \(png.path): --pages asks for page 5, but the file has 1 page"])
        let book = try runCLI(try BatchFixtures.cliArguments(["-q", "--pages", "5", tiff.path]))
        #expect(book.status == 1)
        #expect(book.stderrLines == ["koten-ocr: \(tiff.path): --pages asks for page 5, but the file has 3 pages"])
    }

    @Test("two inputs that would write the same results: exit 2 naming both, nothing written")
    func sameOutput() throws {
        let folder = try TestPaths.temporaryDirectory("batch-cli-same")
        let page = try BatchFixtures.line(7)
        let jpg = folder.appendingPathComponent("scan.jpg"), png = folder.appendingPathComponent("sub/scan.png")
        try FileManager.default.createDirectory(at: png.deletingLastPathComponent(), withIntermediateDirectories: true)
        try ImageWriter.save(page, to: jpg)
        try ImageWriter.save(page, to: png)
        let output = folder.appendingPathComponent("out")
        let run = try runCLI(try BatchFixtures.cliArguments(["--output", output.path, jpg.path, png.path]))
        #expect(run.status == 2)
        #expect(run.stderrLines == ["koten-ocr: \(jpg.path) and \(png.path) would both write the results scan.* (rename one of them)"])
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("usage errors of the batch options exit 2 with one line",
          arguments: [["--resume", "x.png"], ["--overwrite", "x.png"], ["--shard", "5/4", "x.png"], ["--shard", "1", "x.png"],
                      ["--pages", "0", "x.png"], ["--pages", "4-2", "x.png"], ["--pdf-dpi", "0", "x.png"], ["--input-list"]])
    func usageErrors(_ args: [String]) throws {
        let run = try runCLI(args)
        #expect(run.status == 2)
        #expect(run.stderrLines.count == 1 && run.stderr.hasPrefix("koten-ocr: "), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test("an input list that cannot be read: exit 2 naming it")
    func unreadableList() throws {
        let missing = try TestPaths.temporaryDirectory("batch-cli-list").appendingPathComponent("list.txt")
        let run = try runCLI(try BatchFixtures.cliArguments(["--input-list", missing.path]))
        #expect(run.status == 2)
        #expect(run.stderrLines == ["koten-ocr: \(missing.path): cannot read the input list"])
    }
}
