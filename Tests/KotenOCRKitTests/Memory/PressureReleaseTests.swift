import Foundation
import Testing
@testable import KotenOCRKit

@Suite("Memory pressure release")
struct PressureReleaseTests {
    /// Runs `koten-ocr-bench case pressure` (its own process, so the resident figures are its own): ppocr reads
    /// pages while the NDL modes' six stand-in models (≈ 260 MB) sit loaded and inactive; a pressure event after
    /// the first page must return at least 90% of their resident bytes to the system.
    @Test("a pressure event releases ≥ 90% of the inactive models' resident bytes",
          .disabled(if: Sanitizers.active, "a sanitizer's allocator changes the resident bytes measured"))
    func releasesInactiveModels() throws {
        let standins = try StandInFiles.current.get()
        let bench = TestPaths.cli.deletingLastPathComponent().appendingPathComponent("koten-ocr-bench")
        let r = try runProcess(bench, ["case", "pressure", "--photo", TestPaths.image("ndlocr-lite-rs/scaned0.png").path,
                                       "--models", try TestPaths.ppocrModels().root.path, "--standins", standins.path,
                                       "--release", "--pages", "2"])
        try #require(r.status == 0, "bench failed: \(r.stderr)")
        let line = try #require(r.stdout.split(separator: "\n").last)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let facts = try #require(report["facts"] as? [String: Double])
        let inactive = try #require(facts["inactiveModelBytes"]), freed = try #require(facts["freedBytes"])
        let released = try #require(facts["releasedModelBytes"])
        print("PRESSURE inactive \(Int(inactive / 1e6)) MB, released \(Int(released / 1e6)) MB, resident drop \(Int(freed / 1e6)) MB, "
              + "\(String(format: "%.0f", (facts["releaseSeconds"] ?? 0) * 1000)) ms")
        #expect(inactive > 200e6, "the six stand-ins should hold > 200 MB")
        #expect(released == inactive)
        #expect(freed >= 0.9 * inactive)
    }

    @Test("the store releases only inactive modes, and reports each release with its bytes")
    func onlyInactive() async throws {
        let dir = try TestPaths.ppocrModels().directory(for: .ppocr)
        let files = PPOCRModelFiles(directory: dir)
        let store = try ModelStore(budgetBytes: 8 << 30)
        // The classifier as an "ndl" model: loaded, then inactive once ppocr is active.
        let other = ModelDescriptor(mode: .ndl, role: "other", stage: .recognition, url: files.classifier.url)
        try await store.withModel(other) { _ in }
        try await store.withModel(files.recogniser) { _ in }
        await store.activate(.ppocr)
        let monitor = MemoryPressureMonitor(store: store)
        let source = ManualPressureSource()
        #expect(monitor.start([source]).isEmpty)
        let release = await monitor.release(for: MemoryPressureEvent(source: "manual", level: .critical))
        #expect(await store.loadedModels().keys.sorted() == ["ppocr/recogniser"])
        let events = await store.eventLog()
        #expect(events.contains { if case .released(let m, _, _) = $0 { return m == "ndl/other" }; return false })
        // The bytes are measured from the process's allocator, which a sanitizer replaces.
        if !Sanitizers.active {
            #expect(release.releasedModelBytes > 0)
            #expect(events.contains { if case .released(let m, let b, _) = $0 { return m == "ndl/other" && b > 0 }; return false })
        }
    }
}
