import Foundation
import KotenOCRKit

/// `koten-ocr`: a thin layer over `KotenOCR`.
enum CLI {
    static let version = KotenOCR.version

    static func run(_ args: [String]) async -> Int32 {
        if args.first == "diagnostics" { return await DiagnosticsCommand.run(Array(args.dropFirst())) }
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
        let mode = arguments.mode ?? .ppocr
        let models: ModelDirectory
        if let path = arguments.models {
            models = ModelDirectory(root: URL(fileURLWithPath: path))
        } else if let found = ModelDirectory.locate(mode) {
            models = found
        } else {
            stderrLine("koten-ocr: no models for mode \(mode) found in "
                       + ModelDirectory.searchPath().map(\.path).joined(separator: ", ") + " (use --models DIR)")
            return 2
        }
        let missing = models.missingFiles(for: mode)
        if !missing.isEmpty {
            stderrLine("koten-ocr: \(models.directory(for: mode).path): mode \(mode) needs \(missing.joined(separator: ", ")) (not found)")
            return 2
        }
        let outputDir = arguments.output.map { URL(fileURLWithPath: $0, isDirectory: true) }
        if let outputDir {
            do {
                try FileManager.default.createDirectory(at: outputDir, withIntermediateDirectories: true)
            } catch {
                stderrLine("koten-ocr: \(outputDir.path): cannot create output directory")
                return 2
            }
        }
        let formats = arguments.formats.isEmpty ? (outputDir == nil ? [.txt] : [.txt, .json]) : arguments.formats
        let config = OCRConfiguration(mode: mode, models: models, memoryBudgetBytes: arguments.memoryBudget,
                                      maxConcurrentInferences: arguments.jobs, maxPixels: arguments.maxPixels,
                                      ppocrDetectorMaxSide: arguments.detectorMaxSide,
                                      ppocrOrientationClassifier: arguments.orientationClassifier)
        let diagnostics = DiagnosticsCommand.begin(arguments)
        let engine: KotenOCR
        do {
            engine = try KotenOCR(configuration: config, diagnostics: diagnostics)
            _ = try engine.pipeline(for: mode)
        } catch {
            stderrLine("koten-ocr: \(error)")
            await DiagnosticsCommand.end(diagnostics, file: arguments.diagnosticsFile)
            return 2
        }
        var runner = Runner(engine: engine, formats: formats, outputDir: outputDir,
                            progress: !arguments.quiet && isatty(2) != 0)
        await DiagnosticsCommand.withStages(diagnostics) { await runner.run(InputList.expand(arguments.inputs)) }
        await DiagnosticsCommand.end(diagnostics, file: arguments.diagnosticsFile)
        return runner.failures == 0 ? 0 : 1
    }
}

/// Processes the pages of every input, one page at a time; a failing page is reported and skipped.
struct Runner {
    let engine: KotenOCR
    let formats: [ResultFormat]
    let outputDir: URL?
    let progress: Bool
    var failures = 0
    var pagesDone = 0
    var firstStdoutPage = true

    mutating func run(_ entries: [InputList.Entry]) async {
        let files = entries.compactMap { if case .file(let u) = $0 { return u } else { return nil } }
        let showProgress = progress && files.count > 1
        for entry in entries {
            switch entry {
            case .failure(let path, let reason):
                engine.diagnostics?.recordFailure(path: path, page: nil, stage: nil, reason: reason)
                fail("\(path): \(reason)")
            case .file(let url):
                await process(url, total: files.count, showProgress: showProgress)
            }
        }
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    private mutating func process(_ url: URL, total: Int, showProgress: Bool) async {
        var page = 0, pageCount = 1
        repeat {
            if showProgress {
                FileHandle.standardError.write(Data("\r\u{1B}[K[\(pagesDone + 1)/\(total)] \(url.lastPathComponent)".utf8))
            }
            do {
                let source = try engine.open(url, page: page)
                pageCount = source.pageCount
                let result = try await engine.read(source)
                try PipelineStage.write.measure { try emit(result, stem: InputList.stem(for: url, page: page, pageCount: pageCount)) }
            } catch {
                fail(describe(error, url: url))
            }
            page += 1
        } while page < pageCount
        pagesDone += 1
    }

    private mutating func emit(_ result: PageResult, stem: String) throws {
        if let outputDir {
            for format in formats {
                let target = outputDir.appendingPathComponent("\(stem).\(format.fileExtension)")
                try AtomicFile.write(try format.render(result), to: target)
            }
        } else {
            for format in formats {
                if !firstStdoutPage { FileHandle.standardOutput.write(Data("\u{0C}".utf8)) }
                firstStdoutPage = false
                FileHandle.standardOutput.write(try format.render(result))
            }
        }
    }

    private mutating func fail(_ message: String) {
        failures += 1
        stderrLine("koten-ocr: \(message)")
    }

    private func describe(_ error: Error, url: URL) -> String {
        if let e = error as? ImageError { return e.description }
        let text = String(describing: error).replacingOccurrences(of: "\n", with: " ")
        return "\(url.path): \(text)"
    }
}

func stderrLine(_ s: String) {
    FileHandle.standardError.write(Data((s + "\n").utf8))
}
