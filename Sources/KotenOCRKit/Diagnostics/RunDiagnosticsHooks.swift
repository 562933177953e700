/// A seam at a run's boundaries for the command-line tool's test hooks (docs/diagnostics.md, "Test hooks"):
/// `koten-ocr` passes one read from its environment; the library defines none and an app cannot set one, so
/// nothing that crashes or sleeps on request is compiled into the library. Called on the thread that crosses
/// the boundary, outside the run's lock.
package protocol RunDiagnosticsHooks: Sendable {
    /// On entering stage `stage`, after the run marker records it.
    func atStageStart(_ stage: String)
    /// At the end of the first `finish()`, after the payload is written and the run marker removed.
    func atFinish()
}
