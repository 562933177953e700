import Foundation
import Testing
@testable import KotenOCRServer

/// `StreamedBody`: a streamed response holds at most one chunk for a client that stops reading, and the pump
/// stops when the connection goes (the job event stream's bound, docs/serve.md).
@Suite("A streamed body holds one chunk for a client that stops reading")
struct StreamedBodyTests {
    /// Chunk `k`: 1,000 bytes that say which it is.
    static func chunk(_ k: Int) -> Data {
        var data = Data("chunk \(k);".utf8)
        data.append(Data(repeating: UInt8(ascii: "."), count: 1_000 - data.count))
        return data
    }

    /// Wakes the reader when the pump resumes it (the connection's resume, in the server).
    final class Wake: Sendable {
        let signals: AsyncStream<Void>
        let continuation: AsyncStream<Void>.Continuation
        init() { (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1)) }
    }

    /// Reads `body` to its end: each read at most `max` bytes, waiting for a resume when it suspended.
    static func readAll(_ body: StreamedBody, wake: Wake, max: Int = 300) async -> Data {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: max)
        var signals = wake.signals.makeAsyncIterator()
        while true {
            let read = buffer.withUnsafeMutableBytes { raw in
                body.read(into: raw.baseAddress!, max: max, suspend: {})  // test buffer, never empty
            }
            switch read {
            case .bytes(let n): received.append(contentsOf: buffer[0..<n])
            case .end: return received
            case .suspended: if await signals.next() == nil { return received }  // cancelled (the time limit)
            }
        }
    }

    /// Waits for `task`, cancelling it when the test is cancelled (its time limit): a pump that never ends fails the
    /// test instead of hanging it.
    @discardableResult
    static func finish<T: Sendable>(_ task: Task<T, Never>) async -> T {
        await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
    }

    @Test("100 snapshots published while nobody reads: one chunk waits, the reader gets the newest, then the end",
          .timeLimit(.minutes(1)))
    func stalledReader() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .bufferingNewest(1))
        let body = StreamedBody(), wake = Wake()
        let pump = Task { await body.pump(stream) { wake.continuation.yield() } }
        continuation.yield(Self.chunk(1))
        while body.mostPending == 0 { await Task.yield() }  // the pump holds chunk 1, waiting for it to be sent
        for k in 2...100 { continuation.yield(Self.chunk(k)) }
        continuation.finish()
        let received = await Self.readAll(body, wake: wake)
        await Self.finish(pump)
        #expect(body.mostPending <= 1_000, "\(body.mostPending) bytes waited at once")
        #expect(received == Self.chunk(1) + Self.chunk(100), "\(received.count) bytes")
    }

    @Test("a reader that keeps up gets every chunk, in order", .timeLimit(.minutes(1)))
    func everyChunk() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self)
        let body = StreamedBody(), wake = Wake()
        let pump = Task { await body.pump(stream) { wake.continuation.yield() } }
        let reader = Task { await Self.readAll(body, wake: wake, max: 4096) }
        for k in 1...20 { continuation.yield(Self.chunk(k)) }
        continuation.finish()
        let received = await Self.finish(reader)
        await Self.finish(pump)
        #expect(received == (1...20).reduce(into: Data()) { $0.append(Self.chunk($1)) })
        #expect(body.mostPending <= 1_000)
    }

    @Test("the connection gone: the pump waiting for its chunk to be sent stops", .timeLimit(.minutes(1)))
    func closed() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .bufferingNewest(1))
        let body = StreamedBody()
        let pump = Task { await body.pump(stream) {} }
        continuation.yield(Self.chunk(1))
        // The pump holds chunk 1 and waits for it to be read; the stream stays open.
        while body.mostPending == 0 { await Task.yield() }
        body.close()
        await Self.finish(pump)  // returns: nothing was read, nothing finished the stream
        var byte = [UInt8](repeating: 0, count: 1)
        let read = byte.withUnsafeMutableBytes { body.read(into: $0.baseAddress!, max: 1, suspend: {}) }
        #expect(read == .bytes(1))  // what waited is still readable; nothing more will be taken
        continuation.finish()
    }
}
