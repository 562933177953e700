import Foundation
import KotenOCRKit

/// The progress display on standard error: a bar redrawn in place on a terminal, or a plain line every
/// `interval` seconds for logs. Anything else written to the terminal clears the bar first (`clear()`),
/// so progress never mixes with results or error lines. The run's summary line, on a terminal as on a log,
/// is `summaryLine(_:)`'s, written by `CLI` when everything else is.
final class ProgressDisplay {
    enum Style { case none, bar, lines }

    let style: Style
    let interval: TimeInterval
    private var barShown = false
    private var lastDraw = Date.distantPast
    private var current: String?

    init(style: Style, interval: TimeInterval = 10) {
        self.style = style
        self.interval = interval
    }

    /// Shows `progress`; `current` names the page being read (kept until the next one).
    func show(_ progress: BatchEvent.Progress, current: String? = nil) {
        let now = Date()
        if let current { self.current = current }
        switch style {
        case .none:
            return
        case .bar:
            let columns = Self.terminalColumns()
            var text = progress.bar(width: 20, at: now)
            if let current = self.current, text.count + 2 + 8 < columns { text += "  " + current }
            if text.count >= columns { text = String(text.prefix(max(1, columns - 2))) + "…" }
            write("\r\u{1B}[K" + text)
            barShown = true
            lastDraw = now
        case .lines:
            if lastDraw == .distantPast { lastDraw = progress.startedAt }
            guard now.timeIntervalSince(lastDraw) >= interval else { return }
            write("koten-ocr: " + progress.line(at: now) + "\n")
            lastDraw = now
        }
    }

    /// Erases the bar (a terminal) so the next line starts clean.
    func clear() {
        if barShown { write("\r\u{1B}[K") }
        barShown = false
    }

    /// The line every run that read ends with, whatever standard error is and however short the run
    /// (`40 pages read, 2 without lines, 1 failed, in 1m12s`; issue 35: a Slurm shard done within the first
    /// progress interval left an empty log). Nil under `--quiet`.
    static func summaryLine(_ progress: BatchEvent.Progress, quiet: Bool) -> String? {
        quiet ? nil : "koten-ocr: " + progress.summary(at: Date())
    }

    private func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }

    private static func terminalColumns() -> Int {
        var size = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
