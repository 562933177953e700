import Foundation
import KotenOCRKit
import KotenOCRTestSupport

/// `koten-ocr-bench memory`: the four failures of docs/memory-design.md ("The four failures"), each measured as a before/after pair in
/// this one run (each configuration in its own child process), plus the page breakdown and model ratios.
struct MemoryBenchmark {
    var photo: String?
    var models = ".deps/models"
    var standins = ".deps/standins"
    var source = "Tests/Fixtures/images/ndlocr-lite/digidepo_11048278_po_geppo1803_00021.jpg"
    /// The page the modes alternate on (a 2048×1446 scan).
    var scan = "Tests/Fixtures/images/ndlocr-lite/digidepo_2531162_0024.jpg"
    var budget = "200MB"

    init(arguments: [String]) throws {
        var i = 0
        while i < arguments.count {
            let flag = arguments[i]
            guard i + 1 < arguments.count else { throw BenchError.usage("\(flag) needs a value") }
            switch flag {
            case "--photo": photo = arguments[i + 1]
            case "--models": models = arguments[i + 1]
            case "--source": source = arguments[i + 1]
            case "--standins": standins = arguments[i + 1]
            case "--scan": scan = arguments[i + 1]
            case "--budget": budget = arguments[i + 1]
            default: throw BenchError.usage("unknown option \(flag)")
            }
            i += 2
        }
    }

    func run() async throws {
        let photoPath: String
        if let photo {
            photoPath = photo
        } else {
            photoPath = FileManager.default.temporaryDirectory.appendingPathComponent("koten-ocr-bench-12mp.jpg").path
            try TestPhoto.make12MP(from: URL(fileURLWithPath: source), to: URL(fileURLWithPath: photoPath))
        }
        let common = ["--photo", photoPath, "--models", models, "--standins", standins]
        print("# Memory benchmark\n")
        print("Input: 12 MP photo (4032×3024 JPEG, EXIF orientation 6) made from `\(source)`. Peak = the child process's")
        print("VmHWM. ONNX Runtime \((try? InferenceEnvironment.shared().runtimeVersion) ?? "?"), \(ProcessInfo.processInfo.activeProcessorCount) cores.\n")

        let lazy = try child("page", common + ["--mode", "ppocr"])
        try printBreakdown(lazy)

        print("\n## Runtime baseline by mapping\n")
        print("Clean = code and read-only data identical to their files (the kernel can drop them; Darwin's footprint does not")
        print("count them); dirty = heap, stacks, relocated data.\n")
        BaselineBreakdown.table(try child("baseline", common)).forEach { print($0) }

        print("\n## The four failures, before and after (each pair measured in this run)\n")
        print("| failure | before | peak before | after | peak after |")
        print("|---|---|---|---|---|")
        let eager = try child("page", common + ["--mode", "ppocr", "--eager"])
        row("1. all models loaded at launch", "eager: all \(eager.modelBytes.count) models of the three modes", eager,
            "lazy: ppocr's \(lazy.modelBytes.count) models on first use", lazy)
        let naive = try child("preprocess", common + ["--naive"])
        let fitted = try child("preprocess", common)
        row("2. pad to the full-resolution square, then resize", "decode 12 MP, pad to 4032² RGBA, resize", naive,
            "decode at reduced size, resize, no padding", fitted)
        let unbounded = try child("recognise", common + ["--unbounded", "--repeat", "4"])
        let bounded = try child("recognise", common + ["--repeat", "4"])
        print("| 3. unbounded recognitions (\(Int(bounded.facts["lines"] ?? 0)) lines: the photo's lines ×4) | one task per line, all at once "
              + "(\(Int(unbounded.facts["runsInFlightMax"] ?? 0)) runs in flight): recognition stage grows | +\(mb(unbounded.facts["growth"] ?? 0)) | "
              + "at most 4 lines and 4 runs in flight (max \(Int(bounded.facts["runsInFlightMax"] ?? 0))): grows | +\(mb(bounded.facts["growth"] ?? 0)) |")
        let kept = try child("pressure", common)
        let released = try child("pressure", common + ["--release"])
        let freed = released.facts["freedBytes"] ?? 0, inactive = released.facts["inactiveModelBytes"] ?? 0
        let ms = (released.facts["releaseSeconds"] ?? 0) * 1000
        print("| 4. no reaction to memory pressure | NDL modes' models kept through a 4-page ppocr batch: resident at the end | \(mb(kept.facts["residentEnd"] ?? 0)) | "
              + "pressure after page 1 releases them: \(mb(freed)) freed (\(String(format: "%.0f", inactive > 0 ? 100 * freed / inactive : 0))% of \(mb(inactive)) inactive) in \(String(format: "%.0f", ms)) ms; resident at the end | \(mb(released.facts["residentEnd"] ?? 0)) |")

        let modeRuns = try perMode(common)
        try alternation(common)

        print("\n## Model memory ratio (resident ÷ file size)\n")
        print("| model | file | resident | ratio | activation peak |")
        print("|---|---|---|---|---|")
        for (id, resident) in eager.modelBytes.sorted(by: { $0.key < $1.key }) {
            let file = eager.modelFileBytes[id] ?? 0
            let measured = modeRuns.compactMap { $0.activationBytes[id] } + [lazy.activationBytes[id], eager.activationBytes[id]].compactMap { $0 }
            let act = measured.max().map { mb($0) } ?? "–"
            print("| \(id) | \(mb(file)) | \(mb(resident)) | \(file > 0 ? String(format: "%.2f", Double(resident) / Double(file)) : "–") | \(act) |")
        }
    }

    /// The 12 MP photo's peak with lazy models per mode that a change must not pass (bytes): the peaks of 0145ba9,
    /// to which issue 34 brought memory back (docs/memory-design.md, "Where the peaks stand").
    static let lazyPeakBounds: [String: Int] = ["ppocr": 180_000_000, "ndl": 265_000_000, "koten": 258_000_000]

    /// Each mode on the photo: lazy vs eager models, and its detector input made naively vs the engine's way; then
    /// each mode's floor, bound and peak, and its stages' memory.
    func perMode(_ common: [String]) throws -> [BenchReport] {
        var runs: [BenchReport] = []
        print("\n## Each mode on the 12 MP photo (ndl and koten with stand-in models)\n")
        print("| mode | lines | page time | peak, lazy models | peak, all 9 models eager | detector input: pad then resize | resize, never pad (engine) |")
        print("|---|---|---|---|---|---|---|")
        for mode in OCRMode.allCases.sorted(by: { $0.rawValue > $1.rawValue }) {
            let m = ["--mode", mode.rawValue]
            let lazy = try child("page", common + m + ["--stages"]), eager = try child("page", common + m + ["--eager"])
            let naive = try child("preprocess", common + m + ["--naive"]), engine = try child("preprocess", common + m)
            runs.append(lazy)
            print("| \(mode) | \(Int(lazy.facts["lines"] ?? 0)) | \(String(format: "%.2f s", lazy.seconds)) | \(mb(lazy.peakBytes)) | "
                  + "\(mb(eager.peakBytes)) | \(mb(naive.peakBytes)) | \(mb(engine.peakBytes)) |")
        }
        let verdicts = runs.map { r -> String in
            let mode = r.notes.first { $0.hasPrefix("mode ") }.map { String($0.dropFirst(5)) } ?? "?"
            let bound = Self.lazyPeakBounds[mode] ?? 0
            return "\(mode) \(mb(r.peakBytes)) ≤ \(mb(bound)): \(r.peakBytes <= bound ? "yes" : "NO")"
        }
        print("\nPeak, lazy models, within the 12 MP photo's bounds (0145ba9's peaks, issue 34): \(verdicts.joined(separator: "; ")).")
        print("\n## Floor, bound and peak of each mode (12 MP photo, one page, models loaded lazily)\n")
        print("Floor = runtime baseline + the largest stage (its model's weights + its activations + its input tensors) + the budget's headroom;")
        print("bound = (baseline + largest stage) × 1.1. At the default budget the engine keeps a mode's models once loaded;")
        print("`under its bound` reads the page with `--memory-budget` set to the bound, where the store evicts a stage's idle models.\n")
        print("| mode | baseline | largest stage | bound (+10%) | peak | gap (peak − bound) | under its bound: peak |")
        print("|---|---|---|---|---|---|---|")
        for r in runs {
            let mode = r.notes.first { $0.hasPrefix("mode ") }.map { String($0.dropFirst(5)) } ?? "?"
            let (model, weights) = r.modelBytes.filter { $0.key.hasSuffix("/detector") }.first.map { ($0.key, $0.value) } ?? ("?", 0)
            let act = r.activationBytes[model] ?? 0, input = Int(r.facts["floorInput"] ?? 0)
            let bound = Int(Double(r.baselineBytes + weights + act + input) * 1.1)
            let tight = try? child("page", common + ["--mode", mode, "--budget", "\(bound)"])
            print("| \(mode) | \(mb(r.baselineBytes)) | \(model): \(mb(weights)) + \(mb(act)) + \(mb(input)) | \(mb(bound)) | \(mb(r.peakBytes)) | "
                  + "\(r.peakBytes > bound ? "+" : "−")\(mb(abs(r.peakBytes - bound))) | "
                  + "\(tight.map { "\(mb($0.peakBytes)) (\($0.peakBytes <= bound ? "≤" : ">") bound)" } ?? "refused") |")
        }
        for r in runs {
            let mode = r.notes.first { $0.hasPrefix("mode ") }.map { String($0.dropFirst(5)) } ?? "?"
            print("\n### \(mode): memory by stage\n")
            print("Held = resident at the stage's start minus the baseline and the models' load-time weights: what the page, the")
            print("sessions' own state after their first runs and re-touched library code hold across it.\n")
            print("| stage | resident before | peak | resident after | models resident | held across it |")
            print("|---|---|---|---|---|---|")
            for st in r.stages {
                print("| \(st.name) | \(mb(st.before)) | \(mb(st.peak)) | \(mb(st.after)) | \(mb(st.models)) | \(mb(st.before - r.baselineBytes - st.models)) |")
            }
        }
        return runs
    }

    /// The three modes alternating page by page on `scan` under 200, 250 and 300 MB (issue 15's three budgets).
    func alternation(_ common: [String]) throws {
        var base = common
        if let i = base.firstIndex(of: "--photo") { base[i + 1] = scan }
        print("\n## Three modes alternating page by page, 30 pages, under 200, 250 and 300 MB\n")
        print("ppocr with its real models, ndl and koten with their stand-ins; page: `\(scan)`.\n")
        print("| --memory-budget | pages read | ppocr pages read | pages refused | evictions | high-water mark | within budget |")
        print("|---|---|---|---|---|---|---|")
        var notes: [String] = []
        for budget in ["200MB", "250MB", "300MB"] {
            let r = try child("alternate", base + ["--budget", budget, "--pages", "30"])
            let limit = MemoryBudget.parse(budget) ?? 0
            let ppocr = r.notes.filter { $0.contains(" ppocr: read") }.count
            print("| \(budget) | \(Int(r.facts["pagesRead"] ?? 0)) | \(ppocr) of 10 | \(Int(r.facts["pagesRefused"] ?? 0)) | "
                  + "\(Int(r.facts["evictions"] ?? 0)) | **\(mb(r.peakBytes))** | \(r.peakBytes <= limit ? "yes" : "NO") |")
            var seen = Set<String>()
            for note in r.notes where note.contains("refused") {
                let key = note.replacingOccurrences(of: #"^page \d+ "#, with: "", options: .regularExpression)
                if seen.insert(key).inserted { notes.append("- \(budget): \(note)") }
            }
        }
        print("")
        notes.forEach { print($0) }
    }

    func printBreakdown(_ r: BenchReport) throws {
        let weights = r.modelBytes.values.reduce(0, +)
        let largest = r.activationBytes.values.max() ?? 0
        let bound = Double(r.baselineBytes + weights + largest) * 1.10
        print("## ppocr on the 12 MP photo\n")
        print("| runtime baseline | resident weights | largest stage activations | bound (+10%) | peak | time | lines |")
        print("|---|---|---|---|---|---|---|")
        print("| \(mb(r.baselineBytes)) | \(mb(weights)) | \(mb(largest)) | \(mb(bound)) | **\(mb(r.peakBytes))** | \(String(format: "%.2f s", r.seconds)) | \(Int(r.facts["lines"] ?? 0)) |")
        print("\nPeak within baseline + weights + largest stage + 10%: \(Double(r.peakBytes) <= bound ? "yes" : "NO"); ≤ 200 MB: \(r.peakBytes <= 200_000_000 ? "yes" : "NO").")
    }

    func row(_ failure: String, _ beforeLabel: String, _ before: BenchReport, _ afterLabel: String, _ after: BenchReport) {
        print("| \(failure) | \(beforeLabel) | \(mb(before.peakBytes)) | \(afterLabel) | \(mb(after.peakBytes)) |")
    }

    /// Runs `koten-ocr-bench case NAME ARGS` and decodes its report.
    func child(_ name: String, _ args: [String]) throws -> BenchReport {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.resolvingSymlinksInPath()
        if !FileManager.default.isExecutableFile(atPath: p.executableURL?.path ?? "") {
            p.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        }
        p.arguments = ["case", name] + args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0, let line = data.split(separator: UInt8(ascii: "\n")).last else {
            throw BenchError.child("case \(name) \(args.joined(separator: " ")) failed: \(String(decoding: errors, as: UTF8.self))")
        }
        return try JSONDecoder().decode(BenchReport.self, from: Data(line))
    }
}
