import Foundation
import KotenOCRCorpus
import KotenOCRTestSupport

/// `koten-ocr-bench corpus [--pages N] [--queries N] [--edits N] [--dir DIR] [--variants FILE]`: the corpus
/// wing's benchmark (docs/corpus.md, "Benchmark"). Makes N pages of Japanese-like text (no OCR: words drawn from a
/// fixed vocabulary by a seeded generator, some kanji in their old forms), in jobs of 1,000 pages, stores them in
/// a new database under DIR (a real disk: every commit is synced), and prints one Markdown table: the index's
/// build time and size, the latency of searches of 1, 2 and 3+ characters and of 旧字体/新字体 queries, and of
/// corrections on a 1,000-page job.
struct CorpusBenchmark {
    var pages = 10_000
    var queries = 200
    var edits = 1_000
    var dir = ".build/corpus-bench"
    var variants = VariantTable.installedFile(under: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).path

    init(arguments: [String]) throws {
        try readOptions(arguments) { name, value in
            switch name {
            case "--pages": pages = Int(try value()) ?? pages
            case "--queries": queries = Int(try value()) ?? queries
            case "--edits": edits = Int(try value()) ?? edits
            case "--dir": dir = try value()
            case "--variants": variants = try value()
            default: throw BenchError.usage("unknown option \(name)")
            }
        }
    }

    func run() throws {
        let folder = URL(fileURLWithPath: dir)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("corpus.sqlite")
        let table = try VariantTable.load(from: URL(fileURLWithPath: variants))
        var text = BenchText(seed: 0x5EED)
        let perJob = 1_000
        var book: [(job: String, page: Int, reading: EngineReading)] = []
        var characters = 0
        for n in 1...pages {
            let reading = text.page()
            characters += reading.lines.reduce(0) { $0 + $1.text.count }
            book.append((job: String(format: "book-%02d", (n - 1) / perJob + 1), page: (n - 1) % perJob + 1, reading: reading))
        }

        var store = try CorpusStore(url: url, variants: table)
        let buildStart = Date()
        for chunk in stride(from: 0, to: book.count, by: 100) {
            try store.storeReadings(Array(book[chunk..<min(chunk + 100, book.count)]))
        }
        let build = Date().timeIntervalSince(buildStart)
        let size = try store.pageCount()
        // One page a transaction, as a server stores each page it reads.
        var single: [Double] = []
        for n in 1...100 {
            let r = text.page()
            single.append(try time { try store.storeReading(r, job: "single", page: n) })
        }
        store.close()
        let reopen = try time { store = try CorpusStore(url: url, variants: table) }

        var pick = BenchText(seed: 0xC0FFEE)
        func sample(_ length: ClosedRange<Int>) -> String {
            let p = book[pick.next(book.count)].reading.lines
            let line = Array(p[pick.next(p.count)].text)
            let n = min(line.count, length.lowerBound + pick.next(length.count))
            let start = pick.next(max(1, line.count - n + 1))
            return String(line[start..<(start + n)])
        }
        let variantQueries = ["国", "國", "学", "學", "会", "會", "図", "圖", "広", "廣", "國語", "学問", "大學", "會議"]
        var rows: [(String, [Double], Int)] = []
        for (name, make) in [("1 character", { sample(1...1) }), ("2 characters", { sample(2...2) }),
                             ("3–6 characters", { sample(3...6) }),
                             ("旧字体/新字体 (国/國 …)", { variantQueries[pick.next(variantQueries.count)] })] as [(String, () -> String)] {
            var times: [Double] = [], hits = 0
            for _ in 0..<queries {
                let q = make()
                var r: SearchResults?
                times.append(try time { r = try store.search(SearchQuery(text: q, limit: 20)) })
                hits += r?.hits.count ?? 0
            }
            rows.append((name, times, hits))
        }
        // Corrections on book-01 (1,000 pages): read the page, then the measured compare-and-swap update.
        var editTimes: [Double] = [], editCPU: [Double] = [], readTimes: [Double] = []
        for n in 0..<edits {
            let page = 1 + pick.next(min(perJob, pages))
            var view: CorpusPage?
            readTimes.append(try time { view = try store.page(job: "book-01", page: page) })
            guard let view, !view.lines.isEmpty else { continue }
            let line = view.lines[pick.next(view.lines.count)]
            let cpu = threadCPU()
            editTimes.append(try time {
                _ = try store.update(job: "book-01", page: page, ifRevision: view.revision,
                                     edits: [.text(id: line.id, line.text + "訂\(n)")], by: "bench")
            })
            editCPU.append(threadCPU() - cpu)
        }
        store.close()

        let mb = Double(size.pages * size.pageSize) / 1e6
        print("""
        ## Corpus (koten-ocr-bench corpus): \(pages) pages, \(characters) characters, \(table.count) variant pairs

        | measure | value |
        |---|---|
        | index build (\(pages) pages stored and indexed, 100 a transaction) | \(String(format: "%.1f", build)) s (\(String(format: "%.2f", build / Double(pages) * 1000)) ms a page) |
        | database size | \(String(format: "%.1f", mb)) MB (\(String(format: "%.1f", mb * 1e6 / Double(characters))) bytes a character) |
        | a page stored in its own transaction, p50 / p95 | \(ms(single, 0.5)) / \(ms(single, 0.95)) ms |
        | open (schema and quick_check) | \(String(format: "%.0f", reopen * 1000)) ms |
        """)
        for (name, times, hits) in rows {
            print("| search, \(name): p50 / p95 (\(times.count) queries, \(hits) hits) | \(ms(times, 0.5)) / \(ms(times, 0.95)) ms |")
        }
        print("| page read on a 1,000-page job, p50 / p95 | \(ms(readTimes, 0.5)) / \(ms(readTimes, 0.95)) ms |")
        print("| correction (compare-and-swap update, synced) on a 1,000-page job, p50 / p95 (\(editTimes.count)) | \(ms(editTimes, 0.5)) / \(ms(editTimes, 0.95)) ms |")
        print("| … its CPU time (the calling thread's), p50 / p95 | \(ms(editCPU, 0.5)) / \(ms(editCPU, 0.95)) ms |")
        print("\nMachine: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverage()) at the end; database in \(dir).")
    }

    /// The calling thread's CPU time in seconds.
    private func threadCPU() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    private func loadAverage() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
    }

    private func time(_ body: () throws -> Void) throws -> Double {
        let t = Date()
        try body()
        return Date().timeIntervalSince(t)
    }

    private func ms(_ values: [Double], _ q: Double) -> String {
        guard !values.isEmpty else { return "–" }
        let sorted = values.sorted()
        return String(format: "%.2f", sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q))] * 1000)
    }
}

/// Seeded Japanese-like text: lines of words drawn with a Zipf-like skew from a fixed vocabulary of kana and
/// kanji, a tenth of the kanji that have an old form written in it.
struct BenchText {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { random.next() }
    mutating func next(_ n: Int) -> Int { random.next(n) }

    static let kana = Array("のにはをたがでてとしれさあいうえおかきくけこすせそつなぬねひふへほまみむめもやゆよらりるろわん")
    static let kanji = Array("源氏物語月花雪風山川人日本国学会図広大小上下中年時行見言思事手心出気前後生子女男天地光夜空道家門"
                             + "書読文字語問答今古春夏秋冬東西南北明暗白黒赤青金銀木水火土石田町村寺社宮殿京都御所位官位")
    static let old: [Character: Character] = ["国": "國", "学": "學", "会": "會", "図": "圖", "広": "廣", "気": "氣",
                                              "声": "聲", "読": "讀", "円": "圓", "売": "賣"]
    static let words: [String] = {
        var g = BenchText(seed: 42)
        var out = ["源氏", "物語", "月", "國語", "学問", "大学", "会議", "図書", "広間", "京都", "御所"]
        while out.count < 400 {
            let n = 1 + g.next(3)
            out.append(String((0..<n).map { _ in g.next(3) == 0 ? kana[g.next(kana.count)] : kanji[g.next(kanji.count)] }))
        }
        return out
    }()

    mutating func word() -> String {
        let u = Double(next() % 1_000_000) / 1_000_000
        let w = Self.words[min(Self.words.count - 1, Int(pow(u, 2.2) * Double(Self.words.count)))]
        return String(w.map { c in Self.old[c].map { next(10) == 0 ? $0 : c } ?? c }) + String(Self.kana[next(Self.kana.count)])
    }

    /// A vertical page of 16–24 lines of 18–30 characters, right to left.
    mutating func page() -> EngineReading {
        let count = 16 + next(9)
        let lines = (0..<count).map { i -> EngineLine in
            var text = ""
            let length = 18 + next(13)
            while text.count < length { text += word() }
            return EngineLine(text: text, box: CorpusBox(x: 1900 - i * 70, y: 120, width: 48, height: 1500),
                              orientation: "vertical", confidence: 0.9)
        }
        return EngineReading(width: 2000, height: 1800, lines: lines)
    }
}
