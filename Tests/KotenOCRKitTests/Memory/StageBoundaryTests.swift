import Foundation
import Testing
@testable import KotenOCRKit

/// Counts the stage boundaries that return memory (`StageBoundary.returnFreedMemory`) while `body` runs.
private func boundaries(_ body: () async throws -> Void) async rethrows -> Int {
    let count = Recorder()
    try await StageBoundary.$returnFreedMemory.withValue({ count.add("trim") }) { try await body() }
    return count.items.count
}

private struct StageFailed: Error {}

@Suite("Stage boundaries")
struct StageBoundaryTests {
    @Test("each of a page's stages returns memory when it ends; a nested one leaves it to the outer one")
    func pageStages() async throws {
        let flat = await boundaries {
            for stage in [PipelineStage.detect, .decode, .recognise, .order] { await stage.measure { await Task.yield() } }
        }
        #expect(flat == 4)
        let nested = await boundaries {
            await PipelineStage.detect.measure { PipelineStage.decode.measure { () } }
        }
        #expect(nested == 1)
        let others = await boundaries {
            PipelineStage.write.measure { () }
            await PipelineStage("overhead-probe").measure { await Task.yield() }
        }
        #expect(others == 0)
    }

    @Test("a stage that throws still returns its memory")
    func failingStage() async throws {
        let count = await boundaries {
            await #expect(throws: StageFailed.self) { try await PipelineStage.detect.measure { throw StageFailed() } }
            #expect(throws: StageFailed.self) { try PipelineStage.order.measure { throw StageFailed() } }
        }
        #expect(count == 2)
    }

    @Test("reading a ppocr page: detect, decode, recognise and order each return memory once, the second look's decode, recognise and vertical marks once more")
    func ppocrPage() async throws {
        let engine = try KotenOCR(configuration: OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels()))
        var lines = 0
        let count = try await boundaries {
            lines = try await engine.read(TestPaths.image("ndlocr-lite-rs/scaned0.png")).lines.count
        }
        try #require(lines > 0)
        // The reduced decode inside detect is not a boundary of its own; scaned0's （目的） reads under 0.95 in its
        // box, so the second look decodes the page again for its crop, reads it (`SecondLook`) and looks for the small
        // kana and marks of its vertical lines (`restoreVertical`, a recognise stage of its own, none here): 4 + 3.
        #expect(count == 7)
    }

    @Test("reading an ndl page (stand-ins): detect, order, decode (the line crops) and recognise each return memory once")
    func ndlPage() async throws {
        let models = ModelDirectory(root: try StandInFiles.current.get())
        let engine = try KotenOCR(configuration: OCRConfiguration(mode: .ndl, models: models, tuneAllocator: false))
        let count = try await boundaries { _ = try await engine.read(TestPaths.image("ndlocr-lite-rs/scaned0.png")) }
        #expect(count == 4)  // the page decoded for detection is gone before its run: the crops are a decode stage
    }
}
