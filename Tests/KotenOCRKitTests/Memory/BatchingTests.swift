import Foundation
import Testing
@testable import KotenOCRKit

/// Batched recognition: how lines are grouped, how large the store lets a batch be, and that a batch reads each
/// line exactly as it reads alone.
@Suite("Batched recognition")
struct BatchingTests {
    typealias Allowance = ModelStore.BatchAllowance

    @Test("lines are sorted by tensor width and cut into groups of one width within the line and element allowance; skipped lines stay out")
    func partition() {
        let widths: [Int?] = [352, 320, nil, 320, 320, 2048, 320]
        let groups = LineBatches.partition(widths: widths, elementsPerColumn: 10,
                                           allowance: Allowance(maxElements: 10 * 320 * 3, maxLines: 6))
        // Three 320s fill the elements (3 × 3200); the fourth runs next; 352 and 2048 each have a width of their own.
        #expect(groups == [[1, 3, 4], [6], [0], [5]])
        let byCount = LineBatches.partition(widths: [320, 320, nil, 320, 320, 640, 640], elementsPerColumn: 1,
                                            allowance: Allowance(maxElements: .max, maxLines: 2))
        #expect(byCount == [[0, 1], [3, 4], [5, 6]])
        // A line is never padded wider than alone: two widths never share a run, whatever the allowance.
        let mixed = LineBatches.partition(widths: [352, 320, 352], elementsPerColumn: 1, allowance: Allowance(maxElements: .max, maxLines: 9))
        #expect(mixed == [[1], [0, 2]])
        #expect(LineBatches.partition(widths: [nil, nil], elementsPerColumn: 1, allowance: Allowance(maxElements: 9, maxLines: 9)).isEmpty)
    }

    @Test("PP-OCR tensor widths: a line's own width, at least 320")
    func ppocrTensorWidths() {
        for (width, tensor) in [(1, 320), (320, 320), (321, 321), (1600, 1600), (3200, 3200)] {
            #expect(PPOCRRecogniser.tensorWidth(width) == tensor, "\(width)")
        }
    }

    @Test("a line wider than the allowance runs alone; the allowance never goes below one line")
    func wideLine() {
        let groups = LineBatches.partition(widths: [4000, 50], elementsPerColumn: 144, allowance: Allowance(maxElements: 0, maxLines: 0))
        #expect(groups == [[1], [0]])
    }

    @Test("answers of every group land at their lines' indices, a line in no group gets the missing value")
    func scatter() async throws {
        let groups = [[2, 0], [3]]
        let out = try await LineBatches.run(groups, count: 5, missing: "-", limit: 2) { group, isLast in
            group.map { "\($0)\(isLast ? "!" : "")" }
        }
        #expect(out == ["0", "-", "2", "3!", "-"])
    }

    @Test("the store's allowance: the room under a tight budget shared by the runs, capped by the mode's detection stage")
    func allowance() async throws {
        let scene = try StoreScene()
        // 50 MB baseline, one recogniser loaded (≈ 30 MB), 10 MB headroom: 200 MB leaves ≈ 110 MB of room.
        let store = scene.store(budget: 200_000_000)
        let rec = try scene.model(.ppocr, "rec", activationBytes: 10_000_000)  // 10 kB per input element
        try await store.touch(rec)
        let one = await store.batchAllowance(for: rec, runs: 1, maximumLines: 6)
        let two = await store.batchAllowance(for: rec, runs: 2, maximumLines: 6)
        #expect(one.maxLines == 6)
        #expect(one.maxElements > 9_000 && one.maxElements < 12_000)  // ≈ 110 MB ÷ 10 kB
        #expect(abs(two.maxElements * 2 - one.maxElements) <= 2)
        // A detector of the mode whose run takes 40 MB caps a recognition run at 40 MB.
        let det = ModelDescriptor(mode: .ppocr, role: "det", stage: .detection, url: try scene.model(.ppocr, "det").url,
                                  activationBytesPerElement: 40_000, typicalInputElements: 1_000)
        await store.register(.ppocr, models: [det, rec])
        #expect(await store.batchAllowance(for: rec, runs: 1, maximumLines: 6).maxElements == 4_000)
        // What stays resident beside recognition (the page, its crops) comes out of it: recognition never takes the
        // process above the detection stage's total (baseline + detector weights + 40 MB + input), 15 MB left here.
        scene.process.setOtherBytes(25_000_000)
        #expect(await store.batchAllowance(for: rec, runs: 1, maximumLines: 6).maxElements == 1_500)
        // No room left (page buffers took it): the allowance is one element, so every line runs alone.
        let other = try StoreScene()
        let tight = other.store(budget: 110_000_000)  // room for the recogniser's load peak (weights + file)
        let rec2 = try other.model(.ppocr, "rec", activationBytes: 10_000_000)
        try await tight.touch(rec2)
        other.process.setOtherBytes(25_000_000)
        let none = await tight.batchAllowance(for: rec2, runs: 1, maximumLines: 6)
        #expect(none.maxElements == 1)
        #expect(LineBatches.partition(widths: [320, 320, 320], elementsPerColumn: 144, allowance: none).count == 3)
    }

    @Test("on the last page a mode's idle detector is released when its recognition runs; before it, kept for the next page")
    func lastPageReleasesDetector() async throws {
        let scene = try StoreScene()
        let store = scene.store(budget: 1_000_000_000)
        let rec = try scene.model(.ppocr, "rec")
        let det = ModelDescriptor(mode: .ppocr, role: "det", stage: .detection, url: try scene.model(.ppocr, "det").url,
                                  activationBytesPerElement: 10_000, typicalInputElements: 1_000)
        await store.register(.ppocr, models: [det, rec])
        try await store.touch(det)
        try await store.touch(rec)
        #expect(await store.residentModelBytes() == 2 * StoreScene.weight)  // not the last page: both kept
        await store.markLastPage()
        try await store.touch(det)  // the last page's detection
        try await store.touch(rec)  // its recognition: the detector goes first
        #expect(await store.residentModelBytes() == StoreScene.weight)
        #expect(scene.process.loads == ["ppocr/det", "ppocr/rec"])  // nothing loaded twice
    }

    @Test("a batch tensor is the single tensors one after another, each right-padded to the batch's width")
    func packing() {
        var a = RGBImage(width: 3, height: 2), b = RGBImage(width: 5, height: 2)
        for i in a.pixels.indices { a.pixels[i] = UInt8(i * 7 % 256) }
        for i in b.pixels.indices { b.pixels[i] = UInt8(255 - i * 3 % 256) }
        let batch = packImageTensor([a, b], order: .bgr, normalisation: .symmetric, tensorWidth: 6)
        let single = [a, b].map { packImageTensor($0, order: .bgr, normalisation: .symmetric, tensorWidth: 6) }
        #expect(batch.shape == [2, 3, 2, 6])
        #expect(batch.floats == single.compactMap(\.floats).flatMap { $0 })
    }

    @Test("PP-OCRv5: three real lines of one size read in one batch exactly as each alone")
    func ppocrBatchEqualsAlone() async throws {
        let engine = try KotenOCR(configuration: OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels()))
        let page = try ImageSource(url: TestPaths.image("ndlocr-lite-rs/scaned0.png")).decode()
        // Three of scaned0's printed lines (boxes from a ppocr read), each brought to 48×1600.
        let boxes = [(115, 187, 1656, 49), (156, 240, 1608, 47), (158, 401, 1509, 43)]
        let lines = boxes.map { x, y, w, h in bilinearResize(page.cropped(x: x, y: y, width: w, height: h), width: 1600, height: 48) }
        let files = PPOCRModelFiles(directory: try TestPaths.ppocrModels().directory(for: .ppocr))
        let recogniser = try PPOCRRecogniser(model: files.recogniser, keysFile: files.keys)
        let batched = try await recogniser.recognise(lines, store: engine.store, limit: 1)
        var alone: [RecognisedText] = []
        for line in lines { alone.append(try await recogniser.recognise(line, store: engine.store)) }
        #expect(batched.map(\.text) == alone.map(\.text))
        #expect(batched.allSatisfy { $0.text.unicodeScalars.count > 20 })
        #expect(Set(batched.map(\.text)).count == 3)
        for (x, y) in zip(batched, alone) {
            #expect(zip(x.characters, y.characters).allSatisfy { abs($0.confidence - $1.confidence) < 1e-4 })
        }
    }

    @Test("PP-OCRv5: lines of different widths read in one call exactly as each alone (readings never depend on batch sizes)")
    func ppocrMixedWidthsEqualAlone() async throws {
        let engine = try KotenOCR(configuration: OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels()))
        let page = try ImageSource(url: TestPaths.image("ndlocr-lite-rs/scaned0.png")).decode()
        // Two of scaned0's printed lines brought to one size (they share a tensor width and a run), a third at its
        // own size, and two short pieces padded to 320 (they share a run).
        let boxes = [(115, 187, 1656, 49), (156, 240, 1608, 47), (158, 401, 1509, 43), (115, 187, 300, 49), (156, 240, 250, 47)]
        var lines = boxes.map { x, y, w, h in page.cropped(x: x, y: y, width: w, height: h) }
        for i in 0..<2 { lines[i] = bilinearResize(lines[i], width: 1600, height: 48) }
        let widths = lines.map { PPOCRRecogniser.tensorWidth(PPOCRRecogniser.inputWidth($0)) }
        #expect(Set(widths).count == 3 && widths[0] == widths[1] && widths[3] == 320 && widths[4] == 320)
        let files = PPOCRModelFiles(directory: try TestPaths.ppocrModels().directory(for: .ppocr))
        let recogniser = try PPOCRRecogniser(model: files.recogniser, keysFile: files.keys)
        let batched = try await recogniser.recognise(lines, store: engine.store, limit: 2)
        var alone: [RecognisedText] = []
        for line in lines { alone.append(try await recogniser.recognise(line, store: engine.store)) }
        #expect(batched == alone)
        #expect(batched.prefix(3).allSatisfy { $0.text.unicodeScalars.count > 20 })
    }
}
