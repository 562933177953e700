import Foundation
import KotenOCRKit

/// `koten-ocr -`: one image read from standard input — the bytes of any file the tool reads, every page of a
/// multi-page one (or `--pages`) — decoded in memory (`KotenOCR.open(_:name:page:)`, no file is written), its
/// results on standard output exactly as for a file. Results and errors name it `stdin`.
enum StandardInput {
    static let name = "stdin"

    /// Why `-` cannot be read with these arguments (a usage error), if it is an input.
    static func problem(_ arguments: Arguments, formats: [ResultFormat]) -> String? {
        guard arguments.inputs.contains("-") else { return nil }
        if arguments.inputs.count > 1 { return "standard input ('-') is read alone, without other inputs" }
        if arguments.inputList != nil { return "standard input ('-') cannot be combined with --input-list" }
        if arguments.output != nil { return "the results of standard input ('-') go to standard output; --output is for files" }
        if formats.contains(.tei) { return "--format tei is written per run of files, not for standard input ('-')" }
        if let binary = formats.first(where: { !$0.isText }) {
            return "--format \(binary.rawValue) writes files; the results of standard input ('-') go to standard output"
        }
        return nil
    }

    /// Reads the image on standard input and writes its pages' results. Returns the exit status: 0, or 1 when
    /// the image or a page cannot be read (one line on standard error naming `stdin` and the reason); and what it
    /// read, for the run's summary line.
    static func run(engine: KotenOCR, formats: [ResultFormat], pages selection: PageSelection?) async
        -> (status: Int32, read: BatchEvent.Progress?) {
        let started = Date()
        let data = FileHandle.standardInput.readDataToEndOfFile()
        var output = StdoutResults()
        var read = 0, withoutLines = 0, failedPages = 0, failures = 0
        func counted() -> BatchEvent.Progress {
            BatchEvent.Progress(read: read, pagesWithoutLines: withoutLines, failedPages: failedPages, failures: failures, startedAt: started)
        }
        if let refusal = checkedPDF(data) {
            stderrLine("koten-ocr: \(name): \(refusal)")
            failures += 1
            return (1, counted())
        }
        do {
            let first = try engine.open(data, name: name)
            let pages = try selection?.pages(of: first.pageCount) ?? Array(0..<first.pageCount)
            for page in pages {
                let where_ = first.pageCount > 1 ? "\(name) page \(page + 1)" : name
                do {
                    let source = page == first.page ? first : try engine.open(data, name: name, page: page)
                    let result = try await engine.read(source)
                    // Each format's failure is its own (issue 25): the page's other formats are still written.
                    var formatFailures = 0
                    for format in formats {
                        do {
                            output.write(format, try format.renderForStream(result, image: source))
                        } catch {
                            stderrLine("koten-ocr: \(where_): format \(format.rawValue): \(reason(error))")
                            formatFailures += 1
                        }
                    }
                    if formatFailures == 0 { read += 1 } else { failedPages += 1 }
                    if result.textLines.isEmpty { withoutLines += 1 }
                    failures += formatFailures
                } catch {
                    stderrLine("koten-ocr: \(where_): \(reason(error))")
                    failedPages += 1
                    failures += 1
                }
            }
        } catch let e as PageSelection.PastEnd {
            stderrLine("koten-ocr: \(name): \(e.reason(of: "image"))")
            failures += 1
        } catch {
            stderrLine("koten-ocr: \(name): \(reason(error))")
            failures += 1
        }
        return (failures == 0 ? 0 : 1, counted())
    }

    /// Why a PDF on standard input is refused by the command line's `PDFGuard` (its child process checks a private
    /// temporary copy, removed at once), nil when it is no PDF or passes.
    private static func checkedPDF(_ data: Data) -> PDFRefusal? {
        #if os(Linux) || os(macOS)
        guard ImageSource.isPDF(data) else { return nil }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("koten-ocr-stdin-\(UUID().uuidString).pdf")
        defer { try? FileManager.default.removeItem(at: copy) }
        let descriptor = open(copy.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            return PDFRefusal(reason: "PDF not opened: its check could not start (\(String(cString: strerror(errno))))")
        }
        do {
            try FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).write(contentsOf: data)
        } catch {
            return PDFRefusal(reason: "PDF not opened: its check could not start (\(ErrorText.line(error)))")
        }
        do {
            try ChildProcessPDFGuard().check(FileSystemPath(copy.path))
        } catch {
            return error
        }
        #endif
        return nil
    }

    /// The reason part of an error, without the name an `ImageError` starts with.
    private static func reason(_ error: Error) -> String {
        let text = String(describing: error)
        return text.hasPrefix(name + ": ") ? String(text.dropFirst(name.count + 2)) : text
    }
}
