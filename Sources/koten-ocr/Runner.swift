import Foundation
import KotenOCRKit

/// Runs a planned batch for the command line: results to standard output (when there is no --output),
/// one line per failure and the progress display to standard error.
struct Runner {
    let batch: BatchRunner
    let quiet: Bool

    func run(_ plan: BatchPlan) async -> BatchProgress {
        let display = ProgressDisplay(style: quiet || plan.tasks.count < 2 ? .none : isatty(2) != 0 ? .bar : .lines)
        let toStdout = batch.options.outputDirectory == nil
        var firstStdoutResult = true
        var withoutLines: [String] = []
        let progress = await batch.run(plan) { event in
            switch event {
            case .failed(let failure, let progress):
                display.clear()
                stderrLine("koten-ocr: \(failure)")
                display.show(progress)
            case .pageStarted(let task, let progress):
                display.show(progress, current: task.pageCount > 1 ? "\(task.input.relativePath) p\(task.page + 1)" : task.input.relativePath)
            case .pageRead(_, let results, let progress):
                if toStdout {
                    display.clear()
                    for result in results {
                        // Text pages are separated by a form feed (as Tesseract does); JSON is one line per page.
                        if !firstStdoutResult && result.format != .json { FileHandle.standardOutput.write(Data("\u{0C}".utf8)) }
                        firstStdoutResult = false
                        FileHandle.standardOutput.write(result.data)
                    }
                }
                display.show(progress)
            case .pageWithoutLines(let task, _):
                withoutLines.append(task.displayName)
            case .runRead(let result, let progress):
                if toStdout {
                    display.clear()
                    if !firstStdoutResult { FileHandle.standardOutput.write(Data("\u{0C}".utf8)) }
                    firstStdoutResult = false
                    FileHandle.standardOutput.write(result.data)
                }
                display.show(progress)
            }
        }
        display.finish(progress)
        // Not failures (blank pages exist), but a batch user never looks at each page: name every one.
        for name in withoutLines { stderrLine("koten-ocr: \(name): no line found (the page's text is empty)") }
        return progress
    }
}
