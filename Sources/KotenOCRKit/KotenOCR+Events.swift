/// What reading one page reports (`KotenOCR.events(reading:mode:)`), in order.
public enum PageEvent: Sendable {
    /// How many lines the page has and how many are read: once when they are found, then after each line.
    case lines(LineProgress)
    /// The page was read: the last event.
    case read(PageResult)
}

extension KotenOCR {
    /// Reads `source` in a new task and delivers its progress as it happens, ending with `.read(result)`; the
    /// sequence throws what `read(_:mode:)` throws. Cancelling the task that iterates (or dropping the
    /// sequence) cancels the read, which stops within about one model run.
    ///
    /// ```swift
    /// for try await event in ocr.events(reading: try ocr.open(jpegData)) {
    ///     switch event {
    ///     case .lines(let progress): bar.value = Double(progress.done) / Double(max(1, progress.total))
    ///     case .read(let page): show(page.text)
    ///     }
    /// }
    /// ```
    public func events(reading source: ImageSource, mode: OCRMode? = nil) -> AsyncThrowingStream<PageEvent, Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: PageEvent.self)
        let task = Task {
            do {
                let page = try await LineProgress.observing({ continuation.yield(.lines($0)) }) {
                    try await read(source, mode: mode)
                }
                continuation.yield(.read(page))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return stream
    }
}
