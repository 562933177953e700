import Foundation
import Testing
@testable import KotenOCRKit

/// The pieces in-process: stage timing, failure attribution, pressure events, the store's bounds and lookups,
/// and marker collection.
@Suite("Diagnostics: recorder and store")
struct DiagnosticsUnitTests {
    struct Boom: Error {}

    @Test("nested stages: times exclude nested stages; counts and the failing stage are recorded")
    func stageTiming() async throws {
        let run = RunDiagnostics(store: nil)
        let outer: PipelineStage = "outer", inner: PipelineStage = "inner"
        let start = Date()
        await run.withStages {
            await outer.measure {
                try? await Task.sleep(nanoseconds: 30_000_000)
                await inner.measure { try? await Task.sleep(nanoseconds: 20_000_000) }
            }
        }
        let total = Date().timeIntervalSince(start)
        await #expect(throws: Boom.self) {
            try await run.page(path: "p.png", page: 3) {
                try PipelineStage.decode.measure { throw Boom() }
            }
        }
        let p = try await run.finish()
        let stages = Dictionary(uniqueKeysWithValues: p.stages.map { ($0.name, $0) })
        let o = try #require(stages["outer"]), i = try #require(stages["inner"])
        #expect(p.stages.map(\.name) == ["outer", "inner", "decode"])
        #expect(o.count == 1 && i.count == 1)
        #expect(i.seconds >= 0.02 && o.seconds >= 0.03)
        #expect(o.seconds + i.seconds <= total + 0.001)
        #expect(o.seconds <= total - i.seconds + 0.001)
        #expect(stages["decode"]?.failures == 1)
        #expect(p.pages.processed == 0 && p.pages.failed == 1)
        #expect(p.pages.failures == [.init(path: "p.png", page: 3, stage: "decode", reason: "Boom()")])
        #expect((p.memory.samples ?? 0) >= 6)  // stage boundaries and the end
        #expect((p.memory.peakResidentBytes ?? 0) >= (p.memory.startResidentBytes ?? .max))
    }

    @Test("without a bound run, measure only runs the body")
    func unbound() {
        #expect(RunDiagnostics.context == nil)
        #expect(PipelineStage.order.measure { 42 } == 42)
    }

    @Test("pressure events, failures and the bound on failures")
    func pressureAndBounds() async throws {
        let run = RunDiagnostics(store: nil, options: .init(maxFailures: 2))
        run.recordPressure(freedBytes: 40_000_000, seconds: 0.012, source: "psi")
        for n in 1...3 { run.recordFailure(path: "missing\(n)", page: nil, stage: nil, reason: "no such file or directory") }
        let p = try await run.finish()
        #expect(p.pressureEvents.count == 1)
        #expect(p.pressureEvents.first.map { ($0.source, $0.freedBytes, $0.seconds) } ?? ("", 0, 0) == ("psi", 40_000_000, 0.012))
        #expect(p.pages.failed == 3 && p.pages.failures.map(\.path) == ["missing1", "missing2"] && p.droppedEvents == 1)
        #expect(try await run.finish() == p)  // finishing twice gives the same payload
    }

    @Test("model store events are recorded from attach on")
    func modelEvents() async throws {
        let files = PPOCRModelFiles(directory: try TestPaths.ppocrModels().directory(for: .ppocr))
        let store = try ModelStore(budgetBytes: 1 << 34)
        try await store.withModel(files.classifier) { _ in }  // before the run: not recorded
        _ = await store.releaseAll()
        let run = RunDiagnostics(store: nil)
        await run.attach(store)
        try await store.withModel(files.classifier) { _ in }
        let freed = await store.releaseAll(reason: "test")
        let p = try await run.finish()
        #expect(p.modelEvents.map(\.event) == ["loaded", "released"])
        #expect(p.modelEvents.allSatisfy { $0.model == "ppocr/classifier" })
        #expect(p.modelEvents.last?.bytes == freed && p.modelEvents.last?.reason == "test")
        #expect(p.modelEvents.first?.fileBytes == files.classifier.fileBytes)
    }

    @Test("JSON round trip keeps dates to the millisecond")
    func roundTrip() throws {
        var p = RunDiagnostics.Payload(id: "x", kind: .probableMemoryKill, source: .runMarker, runId: "x",
                                       start: Date(timeIntervalSince1970: 1_795_978_730.253), end: Date(timeIntervalSince1970: 1_795_978_731))
        p.memory.watermarkBytes = 123
        let data = try ResultJSON.encode(p)
        #expect(String(decoding: data, as: UTF8.self).contains("\"kind\" : \"probable-memory-kill\""))
        #expect(String(decoding: data, as: UTF8.self).contains("\"start\" : \"2026-11-29T18:58:50.253Z\""))
        #expect(try ResultJSON.decode(RunDiagnostics.Payload.self, from: data) == p)
    }

    @Test("the store keeps the newest payloads within its count and size bounds")
    func storeBounds() throws {
        let dir = try TestPaths.temporaryDirectory("diagnostics-store")
        let store = DiagnosticsStore(directory: dir, maxPayloads: 3, maxBytes: 1_000_000)
        for n in 1...5 { try store.save(RunDiagnostics.Payload(id: "2026110\(n)-000000-aaaaaa", kind: .run, source: .engine)) }
        #expect(store.payloads().map(\.id) == ["20261103-000000-aaaaaa", "20261104-000000-aaaaaa", "20261105-000000-aaaaaa"])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("20261105-000000-aaaaaa.json").path)[.size] as? Int)
        let small = DiagnosticsStore(directory: dir, maxPayloads: 50, maxBytes: 2 * size + size / 2)
        try small.save(RunDiagnostics.Payload(id: "20261106-000000-aaaaaa", kind: .run, source: .engine))
        #expect(small.payloads().map(\.id) == ["20261105-000000-aaaaaa", "20261106-000000-aaaaaa"])
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }.isEmpty)

        #expect(try small.payload(matching: "20261106").id == "20261106-000000-aaaaaa")
        #expect(throws: DiagnosticsError.self) { try small.payload(matching: "2026110") }
        #expect(throws: DiagnosticsError.self) { try small.payload(matching: "nope") }
    }

    @Test("a stale marker becomes a probable memory kill; a locked one is left alone")
    func markers() throws {
        let store = DiagnosticsStore(directory: try TestPaths.temporaryDirectory("diagnostics-markers"))
        try store.prepare()
        let text = """
        koten-ocr-run 1
        pid 0000999999
        run 20261129-000000-abcdef                  
        start 001795978730253
        updated 001795978731253
        stage recognise               
        resident 000000000200000000
        watermark 000000000250000000
        end

        """
        try Data(text.utf8).write(to: store.markerURL("20261129-000000-abcdef"))
        try Data(text.replacingOccurrences(of: "abcdef", with: "fedcba").utf8).write(to: store.markerURL("20261129-000000-fedcba"))
        guard case .stale(let held) = ProcessRunState.claim(store.markerURL("20261129-000000-fedcba")) else {
            Issue.record("could not lock the marker")
            return
        }
        defer { close(held) }
        let made = store.collectAbandonedRuns()
        #expect(made.map(\.id) == ["20261129-000000-abcdef-probable-memory-kill"])
        let kill = try #require(made.first)
        #expect(kill.memory.watermarkBytes == 250_000_000 && kill.memory.lastStage == "recognise")
        #expect(kill.memory.endResidentBytes == 200_000_000 && kill.termination?.pid == 999_999)
        #expect(kill.start == Date(timeIntervalSince1970: 1_795_978_730.253))
        #expect(FileManager.default.fileExists(atPath: store.markerURL("20261129-000000-fedcba").path))
        #expect(!FileManager.default.fileExists(atPath: store.markerURL("20261129-000000-abcdef").path))
    }
}
