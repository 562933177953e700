import Foundation

extension BatchEvent {
    /// How far a batch run is: counts, speed and the time left, with the two renderings the CLI shows
    /// (a one-line bar redrawn on a terminal, plain lines for logs).
    public struct Progress: Sendable, Equatable {
        /// Pages this run reads.
        public let total: Int
        /// Pages skipped as already done (`--resume`).
        public let alreadyDone: Int
        /// Pages read and written in every format.
        public internal(set) var read = 0
        /// Pages read in which no line was found (counted in `read`, or in `failedPages` when a format failed).
        public internal(set) var pagesWithoutLines = 0
        /// Pages that failed, or some of whose formats did (their other files are written).
        public internal(set) var failedPages = 0
        /// Failure lines reported (failed pages, one per failed format of a page, plus inputs that could not be
        /// read at all).
        public internal(set) var failures = 0
        /// When the run started reading.
        public let startedAt: Date

        public init(total: Int, alreadyDone: Int = 0, startedAt: Date = Date()) {
            self.total = total
            self.alreadyDone = alreadyDone
            self.startedAt = startedAt
        }

        /// The counts of pages read outside `BatchRunner` (`koten-ocr -`), for their summary.
        package init(read: Int, pagesWithoutLines: Int, failedPages: Int, failures: Int, startedAt: Date) {
            self.init(total: read + failedPages, startedAt: startedAt)
            self.read = read
            self.pagesWithoutLines = pagesWithoutLines
            self.failedPages = failedPages
            self.failures = failures
        }

        /// Counts `count` more failure lines reported outside the batch (an input that could not be read before it,
        /// a result written after it).
        package mutating func countFailures(_ count: Int) { failures += count }

        /// Pages finished (read or failed).
        public var finished: Int { read + failedPages }

        /// Pages finished per minute since the start; nil before the first page or at time zero.
        public func pagesPerMinute(at now: Date) -> Double? {
            let elapsed = now.timeIntervalSince(startedAt)
            guard finished > 0, elapsed > 0 else { return nil }
            return Double(finished) / elapsed * 60
        }

        /// Seconds until every page is finished at the speed so far; nil while the speed is unknown.
        public func secondsRemaining(at now: Date) -> Double? {
            guard let rate = pagesPerMinute(at: now), rate > 0 else { return nil }
            return Double(total - finished) / rate * 60
        }

        /// `[█████░░░░░] 12/40 pages  23.4 pages/min  ETA 1m12s` with the bar `width` cells wide.
        public func bar(width: Int, at now: Date) -> String {
            let cells = max(1, width)
            let filled = total > 0 ? min(cells, finished * cells / total) : cells
            var text = "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled) + "] "
            text += "\(finished)/\(total) pages"
            text += "  " + Self.rate(pagesPerMinute(at: now)) + "  ETA " + Self.duration(secondsRemaining(at: now))
            if failedPages > 0 { text += "  \(failedPages) failed" }
            return text
        }

        /// `12/40 pages (30%), 23.4 pages/min, ETA 1m12s, 1 failed, 5 already done` for a log.
        public func line(at now: Date) -> String {
            let percent = total > 0 ? finished * 100 / total : 100
            var text = "\(finished)/\(total) pages (\(percent)%), " + Self.rate(pagesPerMinute(at: now))
                + ", ETA " + Self.duration(secondsRemaining(at: now))
            if failedPages > 0 { text += ", \(failedPages) failed" }
            if alreadyDone > 0 { text += ", \(alreadyDone) already done" }
            return text
        }

        /// `40 pages read, 2 without lines, 1 failed, 5 already done, in 1m12s` when the run is over.
        public func summary(at now: Date) -> String {
            var text = "\(read) page\(read == 1 ? "" : "s") read"
            if pagesWithoutLines > 0 { text += ", \(pagesWithoutLines) without lines" }
            if failures > 0 { text += ", \(failures) failed" }
            if alreadyDone > 0 { text += ", \(alreadyDone) already done" }
            return text + ", in " + Self.duration(now.timeIntervalSince(startedAt))
        }

        static func rate(_ perMinute: Double?) -> String {
            guard let perMinute else { return "-- pages/min" }
            return String(format: "%.1f pages/min", perMinute)
        }

        /// `45s`, `3m05s`, `2h03m`, `3d04h`; `--` when unknown.
        static func duration(_ seconds: Double?) -> String {
            guard let seconds, seconds.isFinite, seconds >= 0 else { return "--" }
            let s = Int(seconds.rounded())
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            if s < 60 { return "\(s)s" }
            if s < 3600 { return "\(s / 60)m\(two(s % 60))s" }
            if s < 86400 { return "\(s / 3600)h\(two(s % 3600 / 60))m" }
            return "\(s / 86400)d\(two(s % 86400 / 3600))h"
        }
    }
}
