import Foundation
import Testing
@testable import KotenOCRServer

/// `StreamedBody`: a streamed response holds at most one chunk for a client that stops reading, and the pump
/// stops when the connection goes (the job event stream's bound, docs/serve.md). No time limits: the suite runs
/// beside tests that hold the cooperative threads for minutes on two busy cores; each wait here ends by itself.
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

    @Test("100 snapshots published while nobody reads: one chunk waits, the reader gets the newest, then the end")
    func stalledReader() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .bufferingNewest(1))
        let body = StreamedBody(), wake = Wake()
        let pump = Task { await body.pump(stream) { wake.continuation.yield() } }
        continuation.yield(Self.chunk(1))
        while body.mostPending == 0 { await Task.yield() }  // the pump holds chunk 1, waiting for it to be sent
        for k in 2...100 { continuation.yield(Self.chunk(k)) }
        continuation.finish()
        let received = await Self.readAll(body, wake: wake)
        await pump.value
        #expect(body.mostPending <= 1_000, "\(body.mostPending) bytes waited at once")
        #expect(received == Self.chunk(1) + Self.chunk(100), "\(received.count) bytes")
    }

    @Test("a reader that keeps up gets every chunk, in order")
    func everyChunk() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self)
        let body = StreamedBody(), wake = Wake()
        let pump = Task { await body.pump(stream) { wake.continuation.yield() } }
        let reader = Task { await Self.readAll(body, wake: wake, max: 4096) }
        for k in 1...20 { continuation.yield(Self.chunk(k)) }
        continuation.finish()
        let received = await reader.value
        await pump.value
        #expect(received == (1...20).reduce(into: Data()) { $0.append(Self.chunk($1)) })
        #expect(body.mostPending <= 1_000)
    }

    @Test("the connection gone: the pump waiting for its chunk to be sent is let go at once and takes nothing more")
    func closed() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .bufferingNewest(1))
        let body = StreamedBody(), wake = Wake()
        let pump = Task { await body.pump(stream) { wake.continuation.yield() } }
        continuation.yield(Self.chunk(1))
        while body.mostPending == 0 { await Task.yield() }  // the pump took chunk 1
        continuation.yield(Self.chunk(2))
        // It waits for chunk 1 to be read (a pump that did not wait would take chunk 2: both end this loop).
        while !body.pumpWaits && body.mostPending <= 1_000 { await Task.yield() }
        body.close()
        #expect(!body.pumpWaits)  // let go inside close(), not when a read comes
        continuation.finish()
        // Read before waiting for the pump: reading chunk 1 lets a pump go that close() did not, so no wait here hangs.
        #expect(await Self.readAll(body, wake: wake) == Self.chunk(1))  // what waited is still sent; chunk 2 is not
        await pump.value
    }
}
