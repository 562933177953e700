import Foundation
import KotenOCRKit
import KotenOCRTestSupport

/// `koten-ocr-bench speed` (`make bench-speed`): koten-ocr's `ppocr` mode against RapidOCR 3.10 and a plain ONNX
/// Runtime pipeline on the same PP-OCRv5 files (`make peers`), each run a whole process measured from spawn to exit
/// (wall, user + system CPU, peak resident memory), the engines alternated round by round, medians reported.
/// Inputs: `samples/scaned0.png`, a 12 MP photo (made as the memory benchmark makes it) and a 50-page batch (the
/// repository's fixture pages, cycled). docs/performance.md, "Speed", has the tables and how to read them.
struct SpeedBenchmark {
    var rounds = 5
    var batchRounds = 3
    var models = ".deps/models"
    var python = ".deps/peers/bin/python"
    var source = "Tests/Fixtures/images/ndlocr-lite/digidepo_11048278_po_geppo1803_00021.jpg"
    var photo: String?
    var only: Set<String> = []
    /// More koten-ocr builds to run beside this one, `NAME=PATH` (e.g. the build before a change).
    var variants: [(name: String, path: String)] = []
    var batchPages = 50

    init(arguments: [String]) throws {
        var i = 0
        while i < arguments.count {
            let flag = arguments[i]
            guard i + 1 < arguments.count else { throw BenchError.usage("\(flag) needs a value") }
            let value = arguments[i + 1]
            switch flag {
            case "--rounds": rounds = max(1, Int(value) ?? rounds)
            case "--batch-rounds": batchRounds = max(1, Int(value) ?? batchRounds)
            case "--models": models = value
            case "--python": python = value
            case "--photo": photo = value
            case "--source": source = value
            case "--only": only = Set(value.split(separator: ",").map(String.init))
            case "--batch-pages": batchPages = max(1, Int(value) ?? batchPages)
            case "--koten":
                let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { throw BenchError.usage("--koten NAME=PATH") }
                variants.append((parts[0], parts[1]))
            default: throw BenchError.usage("unknown option \(flag)")
            }
            i += 2
        }
    }

    /// One engine configuration: a name and the command that reads the given input paths.
    struct Engine {
        let name: String
        /// Set in the child's environment beside the model-run report.
        var environment: [String: String] = [:]
        let command: (_ inputs: [String]) -> (String, [String])
    }

    func run() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("koten-ocr-bench-speed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let photoPath: String
        if let photo {
            photoPath = photo
        } else {
            photoPath = work.appendingPathComponent("photo-12mp.jpg").path
            try TestPhoto.make12MP(from: URL(fileURLWithPath: source), to: URL(fileURLWithPath: photoPath))
        }
        let batch = try makeBatch(in: work.appendingPathComponent("batch"))
        let koten = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("koten-ocr").path
        let peers = FileManager.default.isExecutableFile(atPath: python)
        print("# Speed benchmark: ppocr against RapidOCR 3.10 and a plain ONNX Runtime pipeline\n")
        print("Whole processes (start-up and model loading included), engines alternated, median of the rounds. "
              + "\(UsableCPUs.count) usable CPUs, load average before: \(loadAverage()). ONNX Runtime "
              + "\((try? InferenceEnvironment.shared().runtimeVersion) ?? "?") (koten-ocr), the peers' own from `make peers`.\n")
        if !peers { print("**\(python) not found: run `make peers`; only koten-ocr is measured.**\n") }

        let pages: [(name: String, inputs: [String], rounds: Int)] = [
            ("scaned0", ["samples/scaned0.png"], rounds), ("photo", [photoPath], rounds), ("batch", batch, batchRounds),
        ].filter { only.isEmpty || only.contains($0.0) }
        for page in pages {
            let size = try ImageSource(url: URL(fileURLWithPath: page.inputs[0]))
            let rapidSide = Self.rapidOCRDetectorSide(width: size.width, height: size.height)
            var engines = [kotenEngine("koten-ocr", koten)] + variants.map { kotenEngine($0.name, $0.path) }
            // The same build with the detector's buffers unmapped on free, as before issue 28 (DetectorBuffers).
            var uncached = kotenEngine("koten-ocr, detector buffers not kept (KOTEN_OCR_DETECTOR_CACHE_MB=0)", koten)
            uncached.environment = ["KOTEN_OCR_DETECTOR_CACHE_MB": "0"]
            engines.append(uncached)
            if page.name == "batch" {
                // The same build reading one page at a time, as before the batch read ahead (PagesInFlight).
                var sequential = kotenEngine("koten-ocr, one page at a time (KOTEN_OCR_READ_AHEAD=0)", koten)
                sequential.environment = ["KOTEN_OCR_READ_AHEAD": "0"]
                engines.append(sequential)
            }
            if page.name != "scaned0" { engines.append(kotenEngine("koten-ocr --memory-budget 200MB", koten, ["--memory-budget", "200MB"])) }
            if page.name != "batch" && rapidSide > 960 {
                engines.append(kotenEngine("koten-ocr --det-max-side \(rapidSide) (RapidOCR's scale)", koten, ["--det-max-side", "\(rapidSide)"]))
            }
            if peers {
                engines.append(peerEngine("RapidOCR (defaults)", "rapidocr_run.py", []))
                engines.append(peerEngine("RapidOCR at koten-ocr's detector settings (long side 960)", "rapidocr_run.py",
                                          ["--param", "Det.limit_side_len=960", "--param", "Det.limit_type=max"]))
                engines.append(peerEngine("plain ONNX Runtime pipeline (long side 960)", "plain_ppocr.py", []))
            }
            try measure(page.name, page.inputs, engines: engines, rounds: page.rounds, rapidSide: rapidSide,
                        size: (size.width, size.height))
        }
    }

    private func kotenEngine(_ name: String, _ binary: String, _ extra: [String] = []) -> Engine {
        let models = self.models
        return Engine(name: name) { inputs in
            (binary, ["--mode", "ppocr", "--models", models, "-q", "-f", "json"] + extra + inputs)
        }
    }

    private func peerEngine(_ name: String, _ script: String, _ extra: [String]) -> Engine {
        let python = self.python, models = self.models + "/ppocr"
        return Engine(name: name) { inputs in (python, ["scripts/peers/\(script)", "--models", models] + extra + inputs) }
    }

    private func measure(_ page: String, _ inputs: [String], engines: [Engine], rounds: Int, rapidSide: Int,
                         size: (Int, Int)) throws {
        var runs = [[MeasuredProcess]](repeating: [], count: engines.count)
        var failures = [String?](repeating: nil, count: engines.count)
        for round in 0..<rounds {
            // Alternated, the starting engine rotating, so slow drifts of the machine fall on every engine alike.
            for k in 0..<engines.count {
                let e = (k + round) % engines.count
                let (exe, args) = engines[e].command(inputs)
                var environment = ProcessInfo.processInfo.environment
                environment["KOTEN_OCR_REPORT_MODEL_RUNS"] = "1"
                for (key, value) in engines[e].environment { environment[key] = value }
                do {
                    runs[e].append(try MeasuredProcess.run(exe, args, environment: environment))
                } catch {
                    failures[e] = failures[e] ?? "\(error)".split(separator: "\n").first.map(String.init)
                }
            }
        }
        let med = runs.map { r in (wall: median(r.map(\.wall)), cpu: median(r.map(\.cpu)), system: median(r.map(\.system)),
                                   peak: Int(median(r.map { Double($0.peakBytes) })),
                                   busy: r.allSatisfy { $0.busy != nil } ? median(r.compactMap(\.busy)) : nil,
                                   models: Set(r.flatMap(\.modelRuns.keys)).sorted().map { name in
                                       (name, median(r.map { $0.modelRuns[name] ?? 0 }))
                                   }) }
        let title = page == "batch" ? "a \(inputs.count)-page batch (\(Set(inputs.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().lastPathComponent }).count) fixture pages cycled)"
            : page == "photo" ? "the 12 MP photo (4032×3024 JPEG, EXIF 6; upright \(size.0)×\(size.1))" : "`samples/scaned0.png` (\(size.0)×\(size.1))"
        print("## \(title), \(rounds) rounds\n")
        print("RapidOCR's defaults put this page's detector input at a long side of about \(rapidSide) px; koten-ocr's at 960.\n")
        print("| engine | wall | model runs | overhead | CPU (user+sys) | cores busy | system | peak RSS | pages/min | wall ÷ koten-ocr's |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for (k, (e, m)) in zip(engines, med).enumerated() {
            if runs[k].isEmpty {
                print("| \(e.name) | failed: \(failures[k].map { String($0.suffix(200)) } ?? "?") | | | | | | | | |")
                continue
            }
            let ppm = Double(inputs.count) / m.wall * 60
            // Model runs: the wall time with a run in flight, and each model's summed runs; overhead = wall − that.
            let models = m.models.map { "\(Self.shortName($0.0)) \(String(format: "%.2f", $0.1))" }.joined(separator: " + ")
            let inside = m.busy.map { String(format: "%.2f s", $0) + (models.isEmpty ? "" : " (\(models))") } ?? "–"
            let overhead = m.busy.map { String(format: "%.2f s (%.0f%%)", m.wall - $0, 100 * (m.wall - $0) / m.wall) } ?? "–"
            // CPU utilisation: CPU seconds per wall second, of the usable CPUs.
            let cores = String(format: "%.2f of %d", m.cpu / max(m.wall, 1e-9), UsableCPUs.count)
            print("| \(e.name) | \(String(format: "%.2f s", m.wall)) | \(inside) | \(overhead) | \(String(format: "%.2f s", m.cpu)) | \(cores) | \(String(format: "%.2f s", m.system)) | "
                  + "\(mb(m.peak)) | \(String(format: "%.1f", ppm)) | \(String(format: "%.2f", m.wall / med[0].wall)) |")
        }
        func find(_ prefix: String) -> Int? { engines.firstIndex { $0.name.hasPrefix(prefix) } }
        var checks: [String] = []
        if let r = find("RapidOCR at") {
            checks.append("koten-ocr ÷ RapidOCR at the same detector settings: \(String(format: "%.2f", med[0].wall / med[r].wall))")
        }
        if let r = find("RapidOCR (defaults)") {
            checks.append("koten-ocr ÷ RapidOCR at its defaults: \(String(format: "%.2f", med[0].wall / med[r].wall))")
            if page == "batch" {
                checks.append("pages per minute, koten-ocr ÷ RapidOCR (defaults): \(String(format: "%.2f", med[r].wall / med[0].wall)) (target ≥ 2)")
            }
        }
        if let p = find("plain") {
            checks.append("koten-ocr ÷ plain pipeline: \(String(format: "%.2f", med[0].wall / med[p].wall)) (issue 28: ≤ 1.0"
                          + (page == "batch" ? ", i.e. pages per minute ≥ 1.1×: \(String(format: "%.2f", med[p].wall / med[0].wall))×)" : ")"))
        }
        if let busy = med[0].busy {
            let share = (med[0].wall - busy) / med[0].wall
            checks.append("koten-ocr's overhead beyond the model runs: \(String(format: "%.0f%%", 100 * share)) of wall (issue 28: ≤ \(page == "batch" ? 8 : 15)%)")
        }
        if let s = find("koten-ocr, one page at a time") {
            checks.append("read ahead ÷ one page at a time: wall \(String(format: "%.2f", med[0].wall / med[s].wall)), cores busy "
                          + "\(String(format: "%.2f", med[0].cpu / med[0].wall)) against \(String(format: "%.2f", med[s].cpu / med[s].wall))")
        }
        checks.append("koten-ocr's system time: \(String(format: "%.1f%%", 100 * med[0].system / max(med[0].cpu, 1e-9))) of CPU (issue 28: ≤ 5%)")
        if page == "photo" { checks.append("koten-ocr peak: \(mb(med[0].peak)) (target ≤ 200 MB)") }
        if let b = find("koten-ocr --memory-budget") {
            let most = runs[b].map(\.peakBytes).max() ?? 0
            checks.append("under --memory-budget 200MB the highest peak of \(runs[b].count) runs: \(mb(most)) (\(most <= 200_000_000 ? "within" : "ABOVE") the budget)")
        }
        print("")
        for c in checks { print("- \(c)") }
        for (e, f) in zip(engines, failures) where f != nil && !runs[engines.firstIndex { $0.name == e.name } ?? 0].isEmpty {
            print("- \(e.name) failed in some rounds: \(f.map { String($0.suffix(300)) } ?? "")")
        }
        print("")
    }

    /// A model file's short name in the table: `det`, `cls`, `rec` for PP-OCR's files, else the file's stem.
    static func shortName(_ file: String) -> String {
        let stem = (file as NSString).deletingPathExtension.lowercased()
        for short in ["det", "cls", "rec"] where stem.hasSuffix("_" + short) || stem.contains("_\(short)_") { return short }
        return stem
    }

    /// The batch: `batchPages` links in `folder`, the fixture pages in turn.
    private func makeBatch(in folder: URL) throws -> [String] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fixtures = ["samples/scaned0.png"] + [
            "ndlocr-lite/digidepo_11048278_po_geppo1803_00021.jpg", "ndlocr-lite/digidepo_2531162_0024.jpg",
            "ndlocr-lite/tategaki2026-04-24-094138.png", "ndlocr-lite/yokogaki2026-04-24-103617.png",
            "ndlkotenocr-lite/10301438_0017.jpg", "ndlkotenocr-lite/11892692_0004.jpg", "ndlkotenocr-lite/1287221_0002.jpg",
        ].map { "Tests/Fixtures/images/" + $0 }
        let cwd = FileManager.default.currentDirectoryPath
        return try (0..<batchPages).map { i in
            let target = fixtures[i % fixtures.count]
            let link = folder.appendingPathComponent(String(format: "page-%03d.", i + 1) + (target as NSString).pathExtension)
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: cwd + "/" + target)
            return link.path
        }
    }

    /// The long side of RapidOCR 3.10's detector input for a page at its defaults: the page bounded to 2000 px
    /// (`Global.max_side_len`), then its short side enlarged to 736 when shorter (`Det.limit_type: min`), sides
    /// rounded to multiples of 32.
    static func rapidOCRDetectorSide(width: Int, height: Int) -> Int {
        let bound = min(1.0, 2000 / Double(max(width, height)))
        let w = Double(width) * bound, h = Double(height) * bound
        let ratio = min(w, h) < 736 ? 736 / min(w, h) : 1
        return Int((max(w, h) * ratio / 32).rounded()) * 32
    }

    private func loadAverage() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
    }
}
