import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// A PDF can never hang or exhaust the process (issue 17; docs/reliability.md, "PDFs: opened under a limit"): the
/// fuzz crash file, whose damaged page tree makes poppler allocate without end when its second page is looked up,
/// is refused by the command line's child-process check, and the rest of the batch is read. Real libvips, real CLI.
/// The child is stopped by its memory limit (1 GB: about 5 s here), not by the clock (60 s).
@Suite("PDF guard: a looping PDF is refused, the batch goes on", .serialized)
struct PDFGuardTests {
    static let crashFile = TestPaths.fixtures.appendingPathComponent("fuzz/crashes/pdf-timeout-7bdceb59.pdf")

    static func cli(_ rest: [String]) throws -> [String] { try BatchFixtures.cliArguments(["--quiet", "--mode", "ppocr"] + rest) }

    /// A guard that refuses every file it is asked about, and remembers which.
    final class RefusingGuard: PDFGuard, @unchecked Sendable {
        private let lock = NSLock()
        private var asked: [String] = []
        var files: [String] { lock.withLock { asked } }

        func check(_ file: FileSystemPath) throws(PDFRefusal) {
            lock.withLock { asked.append(file.display) }
            throw PDFRefusal(reason: "refused by the test guard")
        }
    }

    @Test("the fuzz crash PDF beside a good page: the good page read, the PDF named in one line with the limits, exit 1")
    func crashFileInAFolder() throws {
        let root = try TestPaths.temporaryDirectory("pdf-guard-folder")
        let folder = root.appendingPathComponent("in")
        _ = try BatchFixtures.writePages(0..<1, to: folder) { _ in "good.png" }
        let bad = folder.appendingPathComponent("damaged.pdf")
        try FileManager.default.copyItem(at: Self.crashFile, to: bad)
        let out = root.appendingPathComponent("out")
        let run = try runCLI(try Self.cli(["--output", out.path, folder.path]))
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(run.stderrLines.first?.hasPrefix("koten-ocr: \(bad.path): PDF could not be opened within 60 s / 1 GB (") == true,
                "\(run.stderr)")
        let text = try String(contentsOf: out.appendingPathComponent("good.txt"), encoding: .utf8)
        #expect(!text.isEmpty)
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(written == ["good.json", "good.txt"])
        // Stopped by the memory limit (the child's peak, which GNU time counts in its parent's figure), not grown on.
        if let peak = run.peakResidentBytes { #expect(peak < 1_300 << 20, "peak \(peak >> 20) MB") }
    }

    @Test("the child check itself: the crash file ends by a signal under the memory limit, a good PDF exits 0, a non-PDF 10")
    func checkCommand() throws {
        let folder = try TestPaths.temporaryDirectory("pdf-guard-check")
        let good = folder.appendingPathComponent("book.pdf")
        try BatchFixtures.pdf(ofCrops: [3, 4], scratch: folder).write(to: good)
        let png = try BatchFixtures.writePages(0..<1, to: folder) { _ in "page.png" }[0]
        let crashed = try runCLI(["__check-pdf", "256", "60", Self.crashFile.path])
        #expect(crashed.status > 128, "status \(crashed.status)")  // signal: std::bad_alloc past RLIMIT_DATA
        #expect(try runCLI(["__check-pdf", "256", "60", good.path]).status == 0)
        #expect(try runCLI(["__check-pdf", "256", "60", png.path]).status == 10)
    }

    @Test("a good PDF through the guarded CLI reads as the library reads it unguarded, page for page")
    func goodPDFUnchanged() async throws {
        let root = try TestPaths.temporaryDirectory("pdf-guard-good")
        let book = root.appendingPathComponent("book.pdf")
        try BatchFixtures.pdf(ofCrops: [3, 4], scratch: root).write(to: book)
        let out = root.appendingPathComponent("out")
        let run = try runCLI(try Self.cli(["--output", out.path, book.path]))
        #expect(run.status == 0, "\(run.stderr)")
        let engine = try KotenOCR(configuration: OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels(),
                                                                  maxConcurrentInferences: 1))
        for page in 0..<2 {
            let source = try engine.open(book, page: page)
            let expected = try ResultFormat.txt.render(try await engine.read(source), image: source)
            let written = try Data(contentsOf: out.appendingPathComponent("book_p000\(page + 1).txt"))
            #expect(written == expected, "page \(page + 1)")
            #expect(!written.isEmpty)
        }
    }

    @Test("the plan asks its guard about PDFs only; a refusal is the input's one failure, its other inputs planned")
    func planAsksTheGuard() throws {
        let folder = try TestPaths.temporaryDirectory("pdf-guard-plan")
        let png = try BatchFixtures.writePages(0..<1, to: folder) { _ in "page.png" }[0]
        let book = folder.appendingPathComponent("book.pdf")
        try BatchFixtures.pdf(ofCrops: [3, 4], scratch: folder).write(to: book)
        let refusing = RefusingGuard()
        var options = BatchOptions(formats: [.txt])
        options.pdfGuard = refusing
        let plan = try BatchPlan.prepare([png.path, book.path], options: options)
        #expect(refusing.files == [book.path])
        #expect(plan.failures.map(\.description) == ["\(book.path): refused by the test guard"])
        #expect(plan.tasks.map(\.input.path) == [png.path])
        // Without a guard (the library's default, as in an app) the PDF is opened in this process.
        let unguarded = try BatchPlan.prepare([png.path, book.path], options: BatchOptions(formats: [.txt]))
        #expect(unguarded.failures.isEmpty && unguarded.tasks.count == 3)
    }
}

extension PDFGuardTests {
    @Test("the crash PDF on standard input: one line naming stdin and the limits, exit 1; a good PDF there reads")
    func standardInput() throws {
        let refused = try runCLI(try Self.cli(["-"]), stdin: try Data(contentsOf: Self.crashFile))
        #expect(refused.status == 1)
        #expect(refused.stderrLines.count == 1 && refused.stderr.hasPrefix("koten-ocr: stdin: PDF could not be opened within 60 s / 1 GB ("),
                "\(refused.stderr)")
        let folder = try TestPaths.temporaryDirectory("pdf-guard-stdin")
        let good = try BatchFixtures.pdf(ofCrops: [3], scratch: folder)
        let read = try runCLI(try Self.cli(["-"]), stdin: good)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(!read.stdout.isEmpty)
    }
}
