import Foundation
import KotenOCRKit

/// `koten-ocr`: a thin layer over `KotenOCR`.
enum CLI {
    static let version = "0.1.0"

    static func run(_ args: [String]) async -> Int32 {
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
        let formats = arguments.formats.isEmpty ? DefaultMode.formats(for: mode, toDirectory: outputDir != nil) : arguments.formats
        if let unsupported = formats.first(where: { !$0.supports(mode) }) {
            stderrLine("koten-ocr: --format \(unsupported.rawValue) is not available in mode \(mode) (\(unsupported == .tei ? "koten" : "ndl and koten") only)")
            return 2
        }
        let config = OCRConfiguration(mode: mode, models: models, memoryBudgetBytes: arguments.memoryBudget,
                                      maxConcurrentInferences: arguments.jobs, maxPixels: arguments.maxPixels,
                                      ppocrDetectorMaxSide: arguments.detectorMaxSide,
                                      ppocrOrientationClassifier: arguments.orientationClassifier)
        let engine: KotenOCR
        do {
            engine = try KotenOCR(configuration: config)
            try await engine.prepare(mode)
        } catch {
            stderrLine("koten-ocr: \(error)")
            return 2
        }
        var runner = Runner(engine: engine, formats: formats, outputDir: outputDir,
                            progress: !arguments.quiet && isatty(2) != 0)
        await runner.run(InputList.expand(arguments.inputs))
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
    var tei = TEIRun()

    mutating func run(_ entries: [InputList.Entry]) async {
        let files = entries.compactMap { if case .file(let u) = $0 { return u } else { return nil } }
        let showProgress = progress && files.count > 1
        for entry in entries {
            switch entry {
            case .failure(let path, let reason):
                fail("\(path): \(reason)")
            case .file(let url):
                await process(url, total: files.count, showProgress: showProgress)
            }
        }
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        if formats.contains(.tei) { writeRunOutputs() }
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
                try emit(result, stem: InputList.stem(for: url, page: page, pageCount: pageCount))
            } catch {
                fail(describe(error, url: url))
            }
            page += 1
        } while page < pageCount
        pagesDone += 1
    }

    private mutating func emit(_ result: PageResult, stem: String) throws {
        if formats.contains(.tei) { try tei.add(result, stem: stem) }
        let formats = self.formats.filter(\.isPerPage)
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

    /// The run's TEI document (`<first-stem>_tei.xml`), after every page.
    private mutating func writeRunOutputs() {
        guard let file = tei.file else { return }
        do {
            if let outputDir {
                try AtomicFile.write(file.contents, to: outputDir.appendingPathComponent(file.name))
            } else {
                if !firstStdoutPage { FileHandle.standardOutput.write(Data("\u{0C}".utf8)) }
                FileHandle.standardOutput.write(Data(file.contents.utf8))
            }
        } catch {
            fail("\(outputDir?.appendingPathComponent(file.name).path ?? "stdout"): cannot write the TEI document (\(error))")
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
