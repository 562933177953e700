import Foundation
import KotenOCRKit

/// Runs a planned batch for the command line: results to standard output (when there is no --output),
/// one line per failure and the progress display (pages, and the lines of the page being read) to standard error.
struct Runner {
    let batch: BatchRunner
    let quiet: Bool

    func run(_ plan: BatchPlan) async -> BatchEvent.Progress {
        let display = ProgressDisplay(style: quiet || plan.tasks.count < 2 ? .none : isatty(2) != 0 ? .bar : .lines)
        let toStdout = batch.options.outputDirectory == nil
        var output = StdoutResults()
        var last = BatchEvent.Progress(total: plan.tasks.count, alreadyDone: plan.alreadyDone)
        var withoutLines: [String] = []
        func name(_ task: PageTask) -> String {
            task.pageCount > 1 ? "\(task.input.relativePath) p\(task.page + 1)" : task.input.relativePath
        }
        for await event in batch.events(plan) {
            switch event {
            case .failed(let failure, let progress):
                display.clear()
                stderrLine("koten-ocr: \(failure)")
                display.show(progress)
            case .pageStarted(let task, let progress):
                display.show(progress, current: name(task))
            case .linesRead(let task, let lines, let progress):
                display.show(progress, current: "\(name(task)) \(lines.done)/\(lines.total) lines")
            case .pageRead(_, let results, let progress):
                if toStdout {
                    display.clear()
                    for result in results { output.write(result.format, result.data) }
                }
                display.show(progress)
            case .pageWithoutLines(let task, _):
                withoutLines.append(task.displayName)
            case .runRead(let result, let progress):
                if toStdout {
                    display.clear()
                    output.write(result.format, result.data)
                }
                display.show(progress)
            case .documentWritten(_, _, let progress):
                display.show(progress)
            case .finished(let progress):
                last = progress
            }
        }
        display.clear()
        // Not failures (blank pages exist), but a batch user never looks at each page: name every one.
        for name in withoutLines { stderrLine("koten-ocr: \(name): no line found (the page's text is empty)") }
        return last
    }
}
