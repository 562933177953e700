import Foundation
import KotenOCRCorpus
import KotenOCRKit

/// The server's corpus (docs/serve.md, "Proofreading"): one `CorpusStore` (docs/corpus.md) for the work directory,
/// `<work>/corpus.sqlite`, opened at start-up. Every page a job reads is stored here as the engine's reading; the
/// proofreaders' corrections, their history and the search index live beside it. The jobs wing stores readings and
/// removes jobs through it, the API reads and edits pages through it; nothing else in the server calls the store.
///
/// The store's calls block (SQLite is synchronous, every write synced to disk): the async callers use `run`, which
/// takes them off Swift's cooperative threads.
final class JobCorpus: @unchecked Sendable {
    /// The database's file name in the work directory.
    static let fileName = "corpus.sqlite"

    let store: CorpusStore
    private let lock = NSLock()
    /// Each job's proofreading figures, made when first asked and dropped at each change of the job.
    private var figures: [String: ProofreadingFigures] = [:]
    /// Counts the changes, so figures made while a change landed are not kept.
    private var changes = 0

    /// Opens (or creates) `<work>/corpus.sqlite`. A damaged file, another program's database or a newer schema
    /// throws the corpus wing's one-line `CorpusError` (the server then does not start): the file is never reset.
    /// `variants`: the 旧字体/新字体 table for search (`VariantTable`); nil looks where `scripts/setup.sh` installs
    /// it (`installedVariants()`), and without one old and new forms are different characters.
    init(workDirectory: URL, variants: URL? = nil) throws {
        let table = try (variants ?? Self.installedVariants()).map(VariantTable.load(from:)) ?? .none
        store = try CorpusStore(url: workDirectory.appendingPathComponent(Self.fileName), variants: table)
    }

    /// The variant table `scripts/setup.sh` installs (`.deps/variants/joyokanji-kanji.json`), looked for in the
    /// current directory and the checkout the executable was built in (`.build/<config>/koten-ocr`); nil when none.
    static func installedVariants() -> URL? {
        var roots = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            roots.append(dir)
            dir = dir.deletingLastPathComponent()
        }
        return roots.map(VariantTable.installedFile(under:)).first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Runs `body` (the store's blocking calls) on a thread of its own, off the cooperative pool.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try body() })
            }
        }
    }

    // MARK: - the engine's readings

    /// The engine's reading of a page as the corpus takes it: the lines the text outputs hold (`PageResult.textLines`,
    /// not those flagged `lowConfidence`), in reading order, in upright page pixels.
    static func reading(_ result: PageResult) -> EngineReading {
        EngineReading(width: result.source.width, height: result.source.height, lines: result.textLines.map { line in
            EngineLine(text: line.text, box: CorpusBox(x: line.box.x, y: line.box.y, width: line.box.width, height: line.box.height),
                       polygon: line.polygon, orientation: line.orientation, confidence: line.confidence.map(Double.init))
        })
    }

    /// Stores the engine's reading of page `page` of `job` (a re-read keeps every correction: docs/corpus.md, "Re-reads").
    func storeReading(_ result: PageResult, job: String, page: Int) throws {
        try store.storeReading(Self.reading(result), job: job, page: page)
        changed(job)
    }

    /// Whether page `page` of `job` has a reading stored.
    func hasPage(job: String, page: Int) -> Bool {
        (try? store.pageNumbers(job: job).contains(page)) ?? false
    }

    /// The page numbers of `job` stored, ascending.
    func pageNumbers(job: String) -> Set<Int> { Set((try? store.pageNumbers(job: job)) ?? []) }

    /// The jobs the corpus has pages of.
    func jobNames() -> [String] { (try? store.jobs()) ?? [] }

    /// Removes a job's pages, corrections, history and index entries.
    func removeJob(_ job: String) throws {
        try store.removeJob(job)
        changed(job)
    }

    // MARK: - pages and edits

    /// The page with its correction layer; nil when it has no reading stored. What the exports take: `currentText`
    /// (corrections applied, deleted lines out, added lines in) and `modelText`, per line `text` and `modelText`.
    func page(job: String, page: Int) throws -> CorpusPage? {
        do { return try store.page(job: job, page: page) } catch CorpusError.pageNotFound { return nil }
    }

    /// Test hook (docs/serve.md, "Test hooks"): `KOTEN_OCR_TEST_CORPUS_FULL_WHILE=PATH` — while the file PATH exists, a
    /// proofreader's edit finds the database full (SQLite's `max_page_count` held at the pages it has: an edit that
    /// needs a new page is refused, `507 disk_full`).
    static let fullWhile: String? = ProcessInfo.processInfo.environment["KOTEN_OCR_TEST_CORPUS_FULL_WHILE"].flatMap { $0.isEmpty ? nil : $0 }

    /// A proofreader's edits and state, if the page's revision is still `ifRevision` (`CorpusStore.update`).
    func update(job: String, page: Int, ifRevision: Int, edits: [LineEdit], state: KotenOCRCorpus.PageState?, by who: String) throws -> CorpusPage {
        defer { changed(job) }
        if let flag = Self.fullWhile {   // a test's full disk (docs/serve.md, "Test hooks")
            try store.limitPages(FileManager.default.fileExists(atPath: flag) ? store.pageCount().pages : nil)
        }
        return try store.update(job: job, page: page, ifRevision: ifRevision, edits: edits, state: state, by: who)
    }

    /// A line a proofreader drew, with the engine's reading of it (`CorpusStore.addLine`).
    func addLine(_ line: AddedLine, job: String, page: Int, ifRevision: Int, by who: String) throws -> (page: CorpusPage, id: String) {
        defer { changed(job) }
        return try store.addLine(line, job: job, page: page, ifRevision: ifRevision, by: who)
    }

    func history(job: String, page: Int) throws -> [HistoryEntry] { try store.history(job: job, page: page) }

    func search(_ query: SearchQuery) throws -> SearchResults { try store.search(query) }

    // MARK: - figures

    /// The job's proofreading figures (`ProofreadingFigures`), kept until the job next changes.
    func figures(job: String) throws -> ProofreadingFigures {
        let (known, seen) = lock.withLock { (figures[job], changes) }
        if let known { return known }
        let made = try store.figures(job: job)
        lock.withLock { if changes == seen { figures[job] = made } }
        return made
    }

    /// Every job's figures together: pages proofread, lines corrected and characters summed; the CER over all the
    /// proofread pages' characters (nil without any).
    func totals(jobs: [String]) -> ProofreadingFigures {
        var total = ProofreadingFigures(pagesProofread: 0, linesCorrected: 0, characters: 0, modelCER: nil)
        var errors = 0.0
        for job in jobs {
            guard let f = try? figures(job: job) else { continue }
            total.pagesProofread += f.pagesProofread
            total.linesCorrected += f.linesCorrected
            total.characters += f.characters
            errors += (f.modelCER ?? 0) * Double(f.characters)
        }
        if total.characters > 0 { total.modelCER = errors / Double(total.characters) }
        return total
    }

    private func changed(_ job: String) {
        lock.withLock {
            changes += 1
            figures[job] = nil
        }
    }
}
