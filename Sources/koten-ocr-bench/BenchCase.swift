import Foundation
import KotenOCRKit

/// One measured configuration, run in its own process: `koten-ocr-bench case NAME [options]`.
enum BenchCase {
    struct Options {
        var photo = ""
        var models = ".deps/models"
        var mode = OCRMode.ppocr
        var jobs = 4
        var eager = false
        var naive = false
        var budget: Int?
        var standins = ".deps/standins"
        var release = false
        var pages = 4
        var onlyMode: OCRMode?
        var unbounded = false
        var repeats = 4
        var stages = false
        var keepLoaded = false

        init(_ args: [String]) throws {
            var i = 0
            func value() throws -> String {
                i += 1
                guard i < args.count else { throw BenchError.usage("\(args[i - 1]) needs a value") }
                return args[i]
            }
            while i < args.count {
                switch args[i] {
                case "--photo": photo = try value()
                case "--models": models = try value()
                case "--mode": mode = OCRMode(rawValue: try value()) ?? .ppocr
                case "--jobs": jobs = Int(try value()) ?? 4
                case "--eager": eager = true
                case "--naive": naive = true
                case "--budget": budget = MemoryBudget.parse(try value())
                case "--standins": standins = try value()
                case "--release": release = true
                case "--only": onlyMode = OCRMode(rawValue: try value())
                case "--unbounded": unbounded = true
                case "--repeat": repeats = Int(try value()) ?? 4
                case "--pages": pages = Int(try value()) ?? 4
                case "--stages": stages = true
                case "--prepare": keepLoaded = true
                default: throw BenchError.usage("unknown option \(args[i])")
                }
                i += 1
            }
        }
    }

    static func run(_ name: String, _ args: [String]) async throws {
        let o = try Options(args)
        switch name {
        case "page": try await page(o)
        case "preprocess": try preprocess(o)
        case "pressure": try await pressure(o)
        case "alternate": try await alternate(o)
        case "recognise": try await RecognitionStageCase.run(o, unbounded: o.unbounded, repeats: o.repeats)
        case "baseline": try BaselineBreakdown.run(photo: o.photo)
        default: throw BenchError.usage("unknown case \(name)")
        }
    }

    /// Reads the photo with one mode: lazy or eager model loading, bounded or unbounded runs.
    static func page(_ o: Options) async throws {
        let root = try ModelRoot.combined(ppocr: URL(fileURLWithPath: o.models), standins: URL(fileURLWithPath: o.standins))
        let config = OCRConfiguration(mode: o.mode, models: ModelDirectory(root: root),
                                      memoryBudgetBytes: o.budget, maxConcurrentInferences: o.jobs, tuneAllocator: true)
        let engine = try KotenOCR(configuration: config)
        let source = try engine.open(URL(fileURLWithPath: o.photo))
        let baseline = ResidentReader.bytes()
        let start = Date()
        if o.eager {
            // The app's start-up: every model of every mode loaded at launch (NDL's as stand-ins).
            for mode in OCRMode.allCases { try await engine.prepare(mode, keepLoaded: true) }
        } else if o.keepLoaded {
            try await engine.prepare()  // as the CLI does: the check's models kept as the budget allows
        }
        await engine.store.markLastPage()  // as the CLI does for its last (here only) page
        let recorder = StageRecorder(store: engine.store)
        if o.stages { recorder.start() }
        let result = try await PipelineStage.observing(o.stages ? recorder.observer : nil) { try await engine.read(source) }
        let stages = recorder.finish()
        var report = BenchReport(name: "page", peakBytes: ProcessMemory.highWaterMarkBytes(), baselineBytes: baseline,
                                 seconds: Date().timeIntervalSince(start))
        report.stages = stages
        report.notes.append("mode \(o.mode.rawValue)")
        report.facts["floorInput"] = Double(await engine.store.floor(of: o.mode).inputBytes)
        report.facts["residentEnd"] = Double(ResidentReader.bytes())
        report.facts["modelsEnd"] = Double(await engine.store.residentModelBytes())
        await engine.store.releaseAll()
        MappedLibraryPages.release()
        report.facts["residentReleased"] = Double(ResidentReader.bytes())
        report.absorb(await engine.store.eventLog())
        report.facts["lines"] = Double(result.lines.count)
        report.facts["runsInFlightMax"] = Double(await engine.store.limiter.highWaterMark)
        try BenchReport.emit(report)
    }

    /// A batch of `pages` pages in ppocr while the NDL modes' (stand-in) models sit loaded and inactive, as
    /// after an eager start or a mode switch. With `--release`, a memory-pressure event after the first page
    /// releases them; the report gives what was freed, how fast, and the resident size at the end.
    static func pressure(_ o: Options) async throws {
        let root = try ModelRoot.combined(ppocr: URL(fileURLWithPath: o.models), standins: URL(fileURLWithPath: o.standins))
        // Only the manual event below releases: the engine's own sources (PSI on a busy machine) would release the
        // inactive models before it, and the case would measure nothing.
        let config = OCRConfiguration(mode: .ppocr, models: ModelDirectory(root: root), memoryBudgetBytes: o.budget,
                                      maxConcurrentInferences: o.jobs, tuneAllocator: true, watchMemoryPressure: false)
        let engine = try KotenOCR(configuration: config)
        let source = try engine.open(URL(fileURLWithPath: o.photo))
        let baseline = ResidentReader.bytes()
        let start = Date()
        // The NDL modes' models loaded and kept, as after an eager start or a mode switch; ppocr's page makes them inactive.
        for mode in [OCRMode.ndl, .koten] { try await engine.prepare(mode, keepLoaded: true) }
        let inactive = await engine.store.loadedModels().filter { !$0.key.hasPrefix("ppocr/") }.values.reduce(0, +)
        let monitor = MemoryPressureMonitor(store: engine.store)
        let manual = ManualPressureSource()
        monitor.start([manual])
        var report = BenchReport(name: "pressure", peakBytes: 0, baselineBytes: baseline, seconds: 0)
        for page in 0..<o.pages {
            _ = try await engine.read(source)
            if page == 0 {
                report.facts["residentBeforeRelease"] = Double(ResidentReader.bytes())
                if o.release {
                    let r = await monitor.release(for: MemoryPressureEvent(source: "manual", level: .critical))
                    report.facts["freedBytes"] = Double(r.freedBytes)
                    report.facts["releasedModelBytes"] = Double(r.releasedModelBytes)
                    report.facts["releaseSeconds"] = r.seconds
                }
            }
        }
        monitor.stop()
        report.facts["inactiveModelBytes"] = Double(inactive)
        report.facts["residentEnd"] = Double(ResidentReader.bytes())
        report.peakBytes = ProcessMemory.highWaterMarkBytes()
        report.seconds = Date().timeIntervalSince(start)
        report.absorb(await engine.store.eventLog())
        try BenchReport.emit(report)
    }

    /// The three modes alternating page by page under `--budget` (ppocr with its real models, ndl and koten
    /// with their stand-ins, from a model root holding all three). Each page's outcome, the high-water mark after
    /// it, and every eviction are reported; a mode the budget cannot hold is refused with the bytes it needs.
    static func alternate(_ o: Options) async throws {
        let root = try ModelRoot.combined(ppocr: URL(fileURLWithPath: o.models), standins: URL(fileURLWithPath: o.standins))
        let config = OCRConfiguration(mode: .ppocr, models: ModelDirectory(root: root), memoryBudgetBytes: o.budget,
                                      maxConcurrentInferences: o.jobs, tuneAllocator: true)
        let engine = try KotenOCR(configuration: config)
        let pages = [URL(fileURLWithPath: o.photo)]
        let baseline = ResidentReader.bytes()
        let start = Date()
        var report = BenchReport(name: "alternate", peakBytes: 0, baselineBytes: baseline, seconds: 0)
        let modes: [OCRMode] = o.onlyMode.map { [$0] } ?? [.ppocr, .ndl, .koten]
        var read = 0, refused = 0
        for i in 0..<o.pages {
            let mode = modes[i % modes.count]
            do {
                let recorder = StageRecorder(store: engine.store)
                if o.stages { recorder.start() }
                let source = try engine.open(pages[i % pages.count])
                _ = try await PipelineStage.observing(o.stages ? recorder.observer : nil) { try await engine.read(source, mode: mode) }
                let stages = recorder.finish().map { "\($0.name) \(mb($0.before))→\(mb($0.peak))→\(mb($0.after)) (models \(mb($0.models)))" }
                read += 1
                report.notes.append("page \(i + 1) \(mode): read, resident \(mb(ResidentReader.bytes())), high-water mark \(mb(ProcessMemory.highWaterMarkBytes()))"
                                    + (stages.isEmpty ? "" : "; stages: " + stages.joined(separator: ", ")))
            } catch let e as ModelStoreError {
                refused += 1
                report.notes.append("page \(i + 1) \(mode): refused: \(e)")
            }
        }
        for event in await engine.store.eventLog() {
            if case .evicted = event { report.notes.append("\(event)") }
        }
        for (model, bytes) in await engine.store.loadedModels().sorted(by: { $0.key < $1.key }) {
            report.notes.append("\(model): resident \(mb(bytes)), load peak \(mb(await engine.store.loadPeak(of: model) ?? 0))")
        }
        report.facts["pagesRead"] = Double(read)
        report.facts["pagesRefused"] = Double(refused)
        report.facts["evictions"] = Double(await engine.store.eventLog().filter { if case .evicted = $0 { return true }; return false }.count)
        report.peakBytes = ProcessMemory.highWaterMarkBytes()
        report.seconds = Date().timeIntervalSince(start)
        report.absorb(await engine.store.eventLog())
        try BenchReport.emit(report)
    }

    /// Prepares the detector input from the photo: the naive way (full decode, pad to a square RGBA canvas,
    /// then resize) or the engine's (decode at reduced size, resize, never pad at full resolution).
    static func preprocess(_ o: Options) throws {
        let source = try ImageSource(url: URL(fileURLWithPath: o.photo))
        let baseline = ResidentReader.bytes()
        let start = Date()
        let square = o.mode == .ndl ? 800 : o.mode == .koten ? 1280 : nil
        let size = square.map { (width: $0, height: $0) } ?? DBDetector.inputSize(width: source.width, height: source.height, maxSide: 960)
        let input: RGBImage
        if o.naive {
            input = try NaivePreprocess.padThenResize(source, width: size.width, height: size.height)
        } else if let square {
            input = PaddedSquarePage.resized(try PaddedSquarePage.decode(source, inputSide: square).image, inputSide: square)
        } else {
            input = try source.decode(fitting: size.width, size.height)
        }
        var report = BenchReport(name: "preprocess", peakBytes: ProcessMemory.highWaterMarkBytes(), baselineBytes: baseline,
                                 seconds: Date().timeIntervalSince(start))
        report.facts["checksum"] = Double(input.pixels[input.pixels.count / 2])
        try BenchReport.emit(report)
    }
}

enum BenchError: Error, CustomStringConvertible {
    case usage(String)
    case child(String)
    var description: String {
        switch self {
        case .usage(let s): return "usage: \(s)"
        case .child(let s): return s
        }
    }
}
