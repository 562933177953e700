import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// The batch's rules without OCR: page selection, output names, directory listing, input lists,
/// the manifest, stale temporary files, progress text, and what stops a batch before it starts.
@Suite("Batch rules")
struct BatchUnitTests {
    @Test("--pages: numbers, ranges, open ranges; page 0, reversed ranges and words are refused")
    func pageSelection() throws {
        let selection = try PageSelection(parsing: "1-3, 7,5-5,2")
        #expect(try selection.pages(of: 9) == [0, 1, 2, 4, 6])
        #expect(try PageSelection(parsing: "3-").pages(of: 5) == [2, 3, 4])
        #expect(throws: PageSelection.PastEnd(page: 8, pageCount: 7)) { try PageSelection(parsing: "2,8-9").pages(of: 7) }
        #expect(throws: PageSelection.PastEnd(page: 6, pageCount: 5)) { try PageSelection(parsing: "6-").pages(of: 5) }
        for bad in ["0", "3-1", "a", "1,,2", "", "1-2-3", "-4"] {
            #expect(throws: PageSelection.ParseError.self, "\(bad)") { try PageSelection(parsing: bad) }
        }
    }

    @Test("output names keep the whole stem; pages of multi-page inputs get _p0001; folders are mirrored")
    func outputNames() {
        func stem(_ relative: String, page: Int = 0, of count: Int = 1) -> String {
            PageTask(input: BatchInput(path: "/in/" + relative, relativePath: relative), page: page, pageCount: count).outputStem
        }
        #expect(stem("a.v1.jpg") == "a.v1")
        #expect(stem("book.pdf", page: 0, of: 3) == "book_p0001")
        #expect(stem("book.pdf", page: 11_999, of: 12_000) == "book_p12000")
        #expect(stem("vol2/0001.TIF", page: 1, of: 2) == "vol2/0001_p0002")
        #expect(stem("noext") == "noext")
        #expect(PageTask(input: BatchInput(path: "x/a.pdf", relativePath: "a.pdf"), page: 4, pageCount: 9).key == "a.pdf#5")
    }

    @Test("directories: natural order, case-insensitive extensions, hidden files and folders skipped, --recursive")
    func directoryListing() throws {
        let root = try TestPaths.temporaryDirectory("batch-list")
        let files = ["10.jpg", "2.JPG", "1.png", "notes.txt", ".hidden.png", "vol10/a.tif", "vol2/b.Jpeg", "vol2/.c.png",
                     ".cache/d.png", "Vol3/e.webp"]
        for file in files {
            let url = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([1]).write(to: url)
        }
        let flat = InputCollector.collect([root.path], recursive: false)
        #expect(flat.inputs.map(\.relativePath) == ["1.png", "2.JPG", "10.jpg"])
        #expect(flat.failures.isEmpty)
        let deep = InputCollector.collect([root.path], recursive: true)
        #expect(deep.inputs.map(\.relativePath) == ["1.png", "2.JPG", "10.jpg", "vol2/b.Jpeg", "Vol3/e.webp", "vol10/a.tif"])
        #expect(deep.inputs.last?.path == root.path + "/vol10/a.tif")
        let missing = InputCollector.collect([root.appendingPathComponent("nope").path], recursive: false)
        #expect(missing.failures.map(\.reason) == ["no such file or directory"])
        // A folder with only subfolders suggests --recursive.
        let nested = try TestPaths.temporaryDirectory("batch-nested")
        try FileManager.default.createDirectory(at: nested.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data([1]).write(to: nested.appendingPathComponent("sub/x.png"))
        let hint = InputCollector.collect([nested.path], recursive: false)
        #expect(hint.failures.count == 1 && hint.failures.first?.reason.contains("use --recursive") == true)
    }

    @Test("input lists: one path a line, blank lines and # comments ignored, CRLF and spaces trimmed")
    func inputList() {
        let text = "# scans of vol. 1\r\n/data/vol1/0001.jpg\r\n\r\n   /data/vol1/0002.jpg  \n#/data/skipped.jpg\nrelative/3.png"
        #expect(InputCollector.paths(inList: text) == ["/data/vol1/0001.jpg", "/data/vol1/0002.jpg", "relative/3.png"])
    }

    @Test("two inputs writing the same results stop the batch before it starts, naming both")
    func sameOutput() throws {
        let folder = try TestPaths.temporaryDirectory("batch-same")
        let page = RGBImage(width: 8, height: 8)
        try ImageWriter.save(page, to: folder.appendingPathComponent("a.jpg"))
        try ImageWriter.save(page, to: folder.appendingPathComponent("a.png"))
        let output = folder.appendingPathComponent("out")
        let options = BatchOptions(outputDirectory: output, formats: [.txt])
        #expect(throws: BatchSetupError.sameOutput(first: folder.path + "/a.jpg", second: folder.path + "/a.png", output: "a.*")) {
            try BatchPlan.prepare([folder.path], options: options)
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
        // The same file named twice is read once; without an output folder nothing can collide.
        let twice = try BatchPlan.prepare([folder.appendingPathComponent("a.png").path, folder.path + "/a.png"],
                                          options: BatchOptions(outputDirectory: output, formats: [.txt]))
        #expect(twice.tasks.count == 1)
        #expect(try BatchPlan.prepare([folder.path], options: BatchOptions(formats: [.txt])).tasks.count == 2)
    }

    @Test("a --pages selection past the end fails that input, naming it, a single image as a TIFF; other inputs are planned")
    func pagesPastEnd() throws {
        let folder = try TestPaths.temporaryDirectory("batch-past-end")
        let page = RGBImage(width: 8, height: 8)
        try ImageWriter.saveMultiPageTIFF([page, page, page], to: folder.appendingPathComponent("book.tif"))
        try ImageWriter.save(page, to: folder.appendingPathComponent("single.png"))
        let plan = try BatchPlan.prepare([folder.path], options: try { var o = BatchOptions(formats: [.txt]); o.pages = try PageSelection(parsing: "2,4"); return o }())
        #expect(plan.failures.map(\.description) == ["\(folder.path)/book.tif: --pages asks for page 4, but the file has 3 pages",
                                                     "\(folder.path)/single.png: --pages asks for page 2, but the file has 1 page"])
        #expect(plan.tasks.isEmpty)
        let two = try BatchPlan.prepare([folder.path], options: try { var o = BatchOptions(formats: [.txt]); o.pages = try PageSelection(parsing: "1-3"); return o }())
        #expect(two.tasks.map(\.key) == ["book.tif#1", "book.tif#2", "book.tif#3"])
        #expect(two.failures.map(\.description) == ["\(folder.path)/single.png: --pages asks for page 2, but the file has 1 page"])
        let first = try BatchPlan.prepare([folder.path], options: try { var o = BatchOptions(formats: [.txt]); o.pages = try PageSelection(parsing: "1"); return o }())
        #expect(first.tasks.map(\.key) == ["book.tif#1", "single.png#1"] && first.failures.isEmpty)
    }

    @Test("manifest: the last record of a page wins, a line cut off by a kill is skipped and closed before appending")
    func manifest() throws {
        let folder = try TestPaths.temporaryDirectory("batch-manifest")
        let url = folder.appendingPathComponent(BatchManifest.fileName(shard: nil))
        let started = BatchManifest.Record(state: .started, input: "a.png", key: "a.png#1", page: 1,
                                           outputs: [.init(file: "a.txt", sha256: nil)])
        var done = started
        done.state = .done
        done.outputs = [.init(file: "a.txt", sha256: SHA256.hex(Data("x".utf8)))]
        try BatchManifest.Writer(url: url).append(started)
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"input":"b.png","key":"b.pn"#.utf8))   // killed mid-line
        try handle.close()
        #expect(BatchManifest.load(from: folder) == ["a.png#1": started])
        try BatchManifest.Writer(url: url).append(done)
        #expect(BatchManifest.load(from: folder) == ["a.png#1": done])
        #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self).split(separator: "\n").count == 3)
        // Shards write their own files; all are read.
        let other = BatchManifest.Record(state: .started, input: "c.png", key: "c.png#1", page: 1, outputs: [])
        try BatchManifest.Writer(url: folder.appendingPathComponent(BatchManifest.fileName(shard: try Shard(parsing: "2/3")))).append(other)
        #expect(BatchManifest.load(from: folder).count == 2)
        #expect(BatchManifest.fileName(shard: try Shard(parsing: "2/3")) == ".koten-ocr-manifest.shard-2-of-3.jsonl")
    }

    @Test("stale temporary files of this batch's results are removed, no one else's")
    func staleTemporaries() throws {
        let folder = try TestPaths.temporaryDirectory("batch-temporaries")
        let names = [".a.txt.tmp-1", ".a.txt.tmp-22", ".b.txt.tmp-3", ".a.txt", "a.txt.tmp-4"]
        for name in names { try Data().write(to: folder.appendingPathComponent(name)) }
        let removed = AtomicFile.removeStaleTemporaries(for: [folder.appendingPathComponent("a.txt")])
        #expect(Set(removed.map(\.lastPathComponent)) == [".a.txt.tmp-1", ".a.txt.tmp-22"])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == [".b.txt.tmp-3", ".a.txt", "a.txt.tmp-4"])
    }

    @Test("--shard K/N parsing")
    func shardParsing() throws {
        #expect(try Shard(parsing: "3/8") == Shard(index: 3, count: 8))
        for bad in ["0/4", "5/4", "1", "a/b", "1/0", "-1/4"] {
            #expect(throws: Shard.ParseError.self, "\(bad)") { try Shard(parsing: bad) }
        }
    }

    @Test("progress: pages done, pages per minute, time left")
    func progressText() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        var progress = BatchEvent.Progress(total: 40, alreadyDone: 5, startedAt: start)
        #expect(progress.line(at: start) == "0/40 pages (0%), -- pages/min, ETA --, 5 already done")
        progress.read = 9
        progress.failedPages = 1
        progress.failures = 1
        let later = start.addingTimeInterval(30)
        #expect(progress.line(at: later) == "10/40 pages (25%), 20.0 pages/min, ETA 1m30s, 1 failed, 5 already done")
        #expect(progress.bar(width: 8, at: later) == "[██░░░░░░] 10/40 pages  20.0 pages/min  ETA 1m30s  1 failed")
        #expect(progress.summary(at: start.addingTimeInterval(7320)) == "9 pages read, 1 failed, 5 already done, in 2h02m")
    }
}
