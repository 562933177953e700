import Foundation
import Testing
@testable import KotenOCRKit

/// The `ndl` mode end to end on the stand-in models (scripts/make-standins.py: NDL's signatures, random
/// weights — the text is noise, the plumbing is real): every shared NDL page through the CLI, the DEIM
/// input of the real wiring against the reference tensor, PARSeq decoding, per-character probabilities
/// through the cascade.
@Suite("NDLMode")
struct NDLMode {
    /// One CLI run over every shared NDL page, all per-page formats.
    static let run = ModeFixtures.run("ndl-mode") { out in
        ["-q", "--mode", "ndl", "--models", try ModeFixtures.standIns().path, "--output", out.path,
         "--format", "txt,json,xml,ndl-json"] + ModeFixtures.ndlImages.map(\.path)
    }

    @Test("every shared NDL page: exit 0, nothing on stderr, four files per page and nothing else")
    func exitStatusAndFiles() throws {
        try ModeFixtures.expectCleanRun(try Self.run.get(), images: ModeFixtures.ndlImages)
    }

    @Test("outputs parse and agree: XML, our JSON (PageResult), the reference JSON, TXT", arguments: ModeFixtures.ndlImages)
    func outputsAgree(_ image: URL) throws {
        let run = try Self.run.get()
        try ModeFixtures.expectConsistentOutputs(stem: image.deletingPathExtension().lastPathComponent, in: run.out,
                                                 mode: .ndl, image: image)
        let result = try ModeFixtures.pageResult(run.out.appendingPathComponent(image.deletingPathExtension().lastPathComponent + ".json"))
        #expect(result.models.map(\.role) == ["detector", "recogniser30", "recogniser50", "recogniser100"])
        #expect(result.models.dropFirst().map(\.file) == NDLModelFiles.recogniserFiles.map { $0[0] })
    }

    @Test("DEIM input of the real wiring (page decode + padded resize + RGB normalisation) = the reference tensor")
    func deimInputTensor() throws {
        try expectDetectorInputs(folder: "ndl/preprocess/deim", side: 800) { DEIMDetector.inputTensor($0, inputSide: $1) }
    }

    @Test("huge pages are decoded at reduced size for detection; others at full size")
    func reducedDecode() throws {
        let source = try ImageSource(url: TestPaths.image("ndlocr-lite/digidepo_2531162_0024.jpg"))
        let full = try PaddedSquarePage.decode(source, inputSide: 800, reducedDecodeFactor: 4)
        #expect(full.fullResolution && full.image.width == 2048 && full.image.height == 1446)
        // A limit of 1 × 800 px: JPEG shrink-on-load by 2 keeps the longer side ≥ 800.
        let reduced = try PaddedSquarePage.decode(source, inputSide: 800, reducedDecodeFactor: 1)
        #expect(!reduced.fullResolution && reduced.image.width == 1024 && reduced.image.height == 723)
    }

    @Test("v1.0 (16×W) recognisers: routed by their shapes, read a page")
    func version10() async throws {
        let folder = try StandInFiles.version10.get()
        let engine = try KotenOCR(configuration: OCRConfiguration(mode: .ndl, models: ModelDirectory(root: folder), tuneAllocator: false))
        try await engine.prepare()
        let pipeline = try #require(try engine.pipeline(for: .ndl) as? NDLPipeline)
        let routing = try await pipeline.routing(store: engine.store)
        #expect(routing[.rec30]?.url.lastPathComponent == "parseq-ndl-16x256-30-tiny-192epoch-tegaki3.onnx")
        #expect(routing[.rec50]?.url.lastPathComponent == "parseq-ndl-16x384-50-tiny-146epoch-tegaki2.onnx")
        #expect(routing[.rec100]?.url.lastPathComponent == "parseq-ndl-16x768-100-tiny-165epoch-tegaki2.onnx")
        let page = try await engine.read(TestPaths.image("ndlocr-lite-rs/scaned0.png"))
        #expect(!page.lines.isEmpty && page.lines.allSatisfy { $0.characters.count == $0.text.unicodeScalars.count })
    }

    // MARK: - PARSeq decoding

    static let charset = PARSeqCharset(entries: Array("一二三〓\u{FE0E}𠮷".unicodeScalars))

    /// Logits [1, steps, 7] with `peak` at each step's token.
    static func logits(_ tokens: [Int], classes: Int = 7, peak: Float = 5) -> [Float] {
        tokens.flatMap { t in (0..<classes).map { $0 == t ? peak : 0 } }
    }

    @Test("PARSeq decoding: arg-max per step, stop at the first 0, token k = charset[k − 1], no collapsing")
    func decoding() {
        let text = PARSeqDecoder.decode(Self.logits([1, 1, 1, 6, 5, 0, 2, 2]), steps: 8, classes: 7, charset: Self.charset)
        #expect(text.text == "一一一𠮷\u{FE0E}")
        #expect(text.characters.map(\.text) == ["一", "一", "一", "𠮷", "\u{FE0E}"])
        #expect(PARSeqDecoder.decode(Self.logits([0, 1]), steps: 2, classes: 7, charset: Self.charset) == .empty)
        // No EOS at all: every step is a character.
        #expect(PARSeqDecoder.decode(Self.logits([3, 3]), steps: 2, classes: 7, charset: Self.charset).text == "三三")
    }

    @Test("PARSeq decoding: each character's probability is the step's softmax at the arg-max; ties take the first")
    func probabilities() throws {
        let text = PARSeqDecoder.decode(Self.logits([2, 0]), steps: 2, classes: 7, charset: Self.charset)
        let expected = exp(Float(5)) / (exp(Float(5)) + 6)
        #expect(abs(try #require(text.characters.first).confidence - expected) < 1e-6)
        var tie = [Float](repeating: 0, count: 7)
        tie[2] = 3
        tie[4] = 3
        let first = PARSeqDecoder.decode(tie + Self.logits([0]), steps: 2, classes: 7, charset: Self.charset)
        #expect(first.text == "二")
        #expect(abs(try #require(first.characters.first).confidence - exp(Float(3)) / (2 * exp(Float(3)) + 5)) < 1e-6)
    }

    // MARK: - Cascade with probabilities

    /// Answers each model with a fixed number of characters, probability = 0.1 × (k + 1) for the k-th call.
    final class ProbabilityRecogniser: @unchecked Sendable {
        let lengths: [CascadeModel: Int]
        private let lock = NSLock()
        private var calls = 0
        init(_ lengths: [CascadeModel: Int]) { self.lengths = lengths }

        func read(model: CascadeModel, crop: PixelBox) async throws -> RecognisedText {
            let call = lock.withLock { () -> Int in
                calls += 1
                return calls
            }
            let n = lengths[model] ?? 0
            return RecognisedText(characters: (0..<n).map { _ in .init(text: "字", confidence: Float(call) / 10) })
        }
    }

    @Test("the cascade keeps the final reading's probabilities; a split line's halves are concatenated")
    func cascadeProbabilities() async throws {
        let wide = RecognitionLine(box: PixelBox(x1: 0, y1: 0, x2: 400, y2: 20), charCountClass: 3)
        let r = ProbabilityRecogniser([.rec30: 26, .rec50: 46, .rec100: 98])
        let readings = try await NDLCascade.read(lines: [wide], imageWidth: 1000, imageHeight: 100, reader: r.read)
        let line = try #require(readings.first)
        // Calls: rec30 (1), rec50 (2), rec100 (3), then the halves (4 and 5) — only the halves survive.
        #expect(line.characters.count == 196)
        #expect(line.characters.prefix(98).allSatisfy { $0.confidence == 0.4 })
        #expect(line.characters.suffix(98).allSatisfy { $0.confidence == 0.5 })
        #expect(line.text.unicodeScalars.count == 196)
    }
}

/// Detector inputs of the real wiring — `PaddedSquarePage.decode` at the reference's size, then the
/// detector's own tensor function — against every image of a preprocessing manifest (tensor SHA-256).
func expectDetectorInputs(folder: String, side: Int, tensor: (RGBImage, Int) -> Tensor) throws {
    let images = try JSONAccess.dict(PreprocessGoldens.manifest(folder)["images"], "images")
    try #require(!images.isEmpty)
    for name in images.keys.sorted() {
        let entry = try JSONAccess.dict(images[name], name)
        let source = try ImageSource(url: PreprocessGoldens.sourceURL(JSONAccess.string(entry["source_image"])))
        let decoded = try PaddedSquarePage.decode(source, inputSide: side, reducedDecodeFactor: 4)
        #expect(decoded.fullResolution, "\(name): decoded at full resolution")
        let input = tensor(decoded.image, side)
        #expect(input.shape == [1, 3, side, side])
        let expected = try JSONAccess.string(JSONAccess.dict(entry["tensor"])["sha256_float32_le_nchw"])
        #expect(PreprocessGoldens.sha256(input) == expected, "\(name): tensor SHA-256")
    }
}
