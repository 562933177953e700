import Foundation
import KotenOCRKit

/// The progress display on standard error: a bar redrawn in place on a terminal, or a plain line every
/// `interval` seconds for logs. Anything else written to the terminal clears the bar first (`clear()`),
/// so progress never mixes with results or error lines.
final class ProgressDisplay {
    enum Style { case none, bar, lines }

    let style: Style
    let interval: TimeInterval
    private var barShown = false
    private var lastDraw = Date.distantPast
    private var linesPrinted = 0
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
            linesPrinted += 1
            lastDraw = now
        }
    }

    /// Erases the bar (a terminal) so the next line starts clean.
    func clear() {
        if barShown { write("\r\u{1B}[K") }
        barShown = false
    }

    /// Ends the display: the bar is erased; a log that got progress lines gets a summary line.
    func finish(_ progress: BatchEvent.Progress) {
        clear()
        if style == .lines && linesPrinted > 0 { write("koten-ocr: " + progress.summary(at: Date()) + "\n") }
    }

    private func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }

    private static func terminalColumns() -> Int {
        var size = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
