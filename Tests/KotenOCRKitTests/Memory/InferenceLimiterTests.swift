import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// Counts runs in flight at the place they really run (inside the limiter's slot).
actor InFlightCounter {
    private(set) var now = 0
    private(set) var most = 0
    func enter() { now += 1; most = max(most, now) }
    func leave() { now -= 1 }
}

@Suite("Inference limiter")
struct InferenceLimiterTests {
    @Test("50 runs with a limit of 3: never more than 3 in flight, and 3 are reached", arguments: [1, 3, 4])
    func bound(_ limit: Int) async throws {
        let limiter = InferenceLimiter(limit: limit)
        let counter = InFlightCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await limiter.run {
                        await counter.enter()
                        try await Task.sleep(for: .milliseconds(2))
                        await counter.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(await counter.most == limit)
        #expect(await limiter.highWaterMark == limit)
        #expect(await limiter.inFlight == 0)
    }

    @Test("an exclusive run waits for every slot and holds them all")
    func exclusive() async throws {
        let limiter = InferenceLimiter(limit: 3)
        let counter = InFlightCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<12 {
                group.addTask {
                    try await limiter.run(exclusive: i == 5) {
                        await counter.enter()
                        if i == 5 { #expect(await counter.now == 1) }
                        try await Task.sleep(for: .milliseconds(3))
                        await counter.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(await counter.most <= 3)
    }

    @Test("a run of two slots (a detector with two threads) leaves one of three slots to other runs")
    func slots() async throws {
        let limiter = InferenceLimiter(limit: 3)
        let gate = Gate()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await limiter.run(slots: 2) { await gate.wait() } }
            while await limiter.inFlight < 1 { try await Task.sleep(for: .milliseconds(1)) }
            for _ in 0..<3 { group.addTask { try await limiter.run { await gate.wait() } } }
            while await limiter.inFlight < 2 { try await Task.sleep(for: .milliseconds(1)) }
            try await Task.sleep(for: .milliseconds(50))
            // The two-slot run and one other hold all three slots; the other two wait (ignoring slots would let 4 in).
            #expect(await limiter.inFlight == 2)
            await gate.open()
            try await group.waitForAll()
        }
        // Slots past the limit are clamped: a 9-slot run takes the 3 there are.
        try await limiter.run(slots: 9) { #expect(await limiter.inFlight == 1) }
    }

    @Test("a real page with 66 lines: recognitions never exceed --jobs 2, and reach it")
    func realPage() async throws {
        let photo = try TestPaths.temporaryDirectory().appendingPathComponent("geppo.png")
        // The geppo page at its own size (66 lines with the PP-OCRv5 detector).
        try ImageWriter.save(try ImageSource(url: TestPaths.image("ndlocr-lite/digidepo_11048278_po_geppo1803_00021.jpg")).decode(),
                             to: photo)
        let engine = try KotenOCR(configuration: OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels(),
                                                                  maxConcurrentInferences: 2))
        let page = try await engine.read(photo)
        #expect(page.lines.count > 20)
        #expect(await engine.store.limiter.highWaterMark == 2)
    }
}

/// Runs that wait until the test opens the gate.
actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
        isOpen = true
        waiting.forEach { $0.resume() }
        waiting = []
    }
}
