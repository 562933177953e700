import Foundation
import KotenOCRIIIF
import KotenOCRKit

/// `koten-ocr`: a thin layer over `KotenOCR`.
enum CLI {
    static let version = KotenOCR.version

    static func run(_ args: [String]) async -> Int32 {
        if args.first == PDFCheckCommand.name { return PDFCheckCommand.run(Array(args.dropFirst())) }
        if args.first == "diagnostics" { return await DiagnosticsCommand.run(Array(args.dropFirst())) }
        if args.first == "models" { return await ModelsCommand.run(Array(args.dropFirst())) }
        if args.first == "serve" { return await ServeCommand.run(Array(args.dropFirst())) }
        let arguments: Arguments
        do {
            arguments = try Arguments.parse(args)
        } catch {
            stderrLine("koten-ocr: \(error)")
            return 2
        }
        if arguments.showHelp {
            print(Arguments.help)
            return 0
        }
        if arguments.showVersion {
            let ort = (try? InferenceEnvironment.shared().runtimeVersion) ?? "unavailable"
            print("koten-ocr \(version) (ONNX Runtime \(ort), CPU execution provider)")
            return 0
        }
        let mode = arguments.mode ?? DefaultMode.choose(models: arguments.models, quiet: arguments.quiet)
        guard let models = modelDirectory(arguments.models, for: mode) else { return 2 }
        do {
            _ = try models.files(for: mode.descriptor)  // before anything starts: the engine finds the same files
        } catch {
            stderrLine("koten-ocr: \(error)")
            return 2
        }
        let outputDir = arguments.output.map { URL(fileURLWithPath: $0, isDirectory: true) }
        let formats = arguments.formats.isEmpty ? DefaultMode.formats(for: mode, toDirectory: outputDir != nil) : arguments.formats
        if let problem = DefaultMode.formatProblem(formats, mode: mode, arguments: arguments)
            ?? StandardInput.problem(arguments, formats: formats) {
            stderrLine("koten-ocr: \(problem)")
            return 2
        }
        let config = arguments.engine.configuration(mode: mode, models: models)
        let diagnostics = DiagnosticsCommand.begin(arguments)
        let engine: KotenOCR
        do {
            engine = try KotenOCR(configuration: config, diagnostics: diagnostics)
            try await engine.prepare(mode)  // the models checked stay loaded for the pages as the budget allows
        } catch {
            stderrLine("koten-ocr: \(error)")
            await DiagnosticsCommand.end(diagnostics, file: arguments.diagnosticsFile)
            return 2
        }
        let (status, read) = await DiagnosticsCommand.withStages(diagnostics) {
            arguments.inputs == ["-"]
                ? await StandardInput.run(engine: engine, formats: formats, pages: arguments.pages)
                : await runBatch(arguments, engine: engine, outputDir: outputDir, formats: formats)
        }
        let summary = read.flatMap { ProgressDisplay.summaryLine($0, quiet: arguments.quiet) }
        await DiagnosticsCommand.end(diagnostics, file: arguments.diagnosticsFile)
        if let summary { stderrLine(summary) }  // the run's last line (docs/cluster.md, "Logs")
        return status
    }

    /// The model folder: `--models PATH` (which must be a folder), or the first of the search path holding `mode`'s
    /// files. Nil after one line on standard error saying why.
    static func modelDirectory(_ path: String?, for mode: OCRMode) -> ModelDirectory? {
        if let path {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else {
                stderrLine("koten-ocr: --models \(path): no such folder")
                return nil
            }
            return ModelDirectory(root: URL(fileURLWithPath: path))
        }
        if let found = ModelDirectory.locate(mode.descriptor) { return found }
        stderrLine("koten-ocr: no models for mode \(mode) found in "
                   + ModelDirectory.searchPath().map(\.path).joined(separator: ", ") + " (use --models DIR)")
        return nil
    }

    /// Plans the batch (inputs, pages, names, shard, resume) and reads it. Returns the exit status and, when the
    /// batch was read (not refused before), what it read for the run's summary line.
    private static func runBatch(_ arguments: Arguments, engine: KotenOCR, outputDir: URL?, formats: [ResultFormat]) async
        -> (status: Int32, read: BatchEvent.Progress?) {
        var listed: [FileSystemPath] = []
        if let list = arguments.inputList {
            do {
                let data = list == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: list))
                listed = InputCollector.paths(inList: data)
            } catch {
                stderrLine("koten-ocr: \(list): cannot read the input list")
                return (2, nil)
            }
        }
        var options = BatchOptions(outputDirectory: outputDir, formats: formats, recursive: arguments.recursive, resume: arguments.resume,
                                   overwrite: arguments.overwrite)
        options.ruby = arguments.ruby
        options.acceptDamagedImages = arguments.engine.acceptDamagedImages
        options.pages = arguments.pages
        options.shard = arguments.shard
        #if os(Linux) || os(macOS)
        options.pdfGuard = ChildProcessPDFGuard()
        #endif
        options.iiifBase = arguments.iiifBase ?? outputDir.map { URL(fileURLWithPath: $0.standardizedFileURL.path + "/", isDirectory: true) }
        // PAGE XML's Created: when each page is read, or SOURCE_DATE_EPOCH's time (reproducible builds' convention).
        options.readingTime = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"].flatMap { Int($0) }
            .map { .fixed(Date(timeIntervalSince1970: Double($0))) } ?? .eachPage
        // IIIF manifests (URLs, .json files) are books whose canvases are pages fetched as they are read (docs/iiif.md).
        let iiif = await IIIFRun.load(arguments, outputDir: outputDir)
        let files = RawArguments.paths(arguments.inputs).enumerated().filter { !IIIFBook.isManifest(arguments.inputs[$0.offset]) }.map(\.element)
        let plan: BatchPlan
        do {
            plan = try BatchPlan.prepare(files: files, listed: listed, remote: iiif.inputs, options: options)
        } catch {
            stderrLine("koten-ocr: \(error)")
            return (2, nil)
        }
        let runner = Runner(batch: BatchRunner(engine: engine, options: options), quiet: arguments.quiet)
        // Test hook (docs/diagnostics.md, "Test hooks"): one format fails on every page.
        let failing = ProcessInfo.processInfo.environment["KOTEN_OCR_TEST_FAIL_FORMAT"].flatMap(ResultFormat.init(rawValue:))
        var progress = await BatchRunner.$failingFormat.withValue(failing) { await runner.run(plan) }
        let written = iiif.finish(plan, options: options)
        progress.countFailures(iiif.failures + (written ? 0 : 1))  // manifests not read, a manifest.json not written
        return (progress.failures == 0 ? 0 : 1, progress)
    }
}

func stderrLine(_ s: String) {
    FileHandle.standardError.write(Data((s + "\n").utf8))
}
