import Foundation
import Testing
@testable import KotenOCRKit

/// The stand-in NDL models (scripts/make-standins.py) load and run in ONNX Runtime through `ModelStore`,
/// with the real signatures (docs/reference-pipelines.md §1.2, §1.5, §2.1, §2.2; parity README §2), the published
/// sizes, and outputs the pipeline can use. Each case prints its measured resident bytes and activation peak;
/// the last one prints the table for all (clean figures need the suite alone: `swift test --filter StandInModels`).
@Suite(.serialized)
struct StandInModels {
    /// One expected input or output; `name` nil where NDL's file does not document it (PARSeq).
    struct Expected: Sendable {
        let name: String?
        let type: TensorInfo.ElementType
        let shape: [Int]  // -1: dynamic
    }

    enum Kind: Sendable { case deim, rtmdet, parseq(maxLength: Int, escalatesAt: Int) }

    struct Model: Sendable, CustomTestStringConvertible {
        let variant: String       // "v1.2" (with koten) or "v1.0"
        let mode: OCRMode
        let role: String
        let file: String
        let kind: Kind
        let inputs: [Expected]
        let outputs: [Expected]
        /// Published size in MiB (make-standins.py SIZE_UNIT).
        let targetMiB: Double
        /// A fixture image (model-input space) fitted to the session's input size.
        let fixture: String
        var testDescription: String { "\(variant) \(mode)/\(file)" }
    }

    static func parseq(_ variant: String, _ mode: OCRMode, _ role: String, _ file: String, height: Int, width: Int,
                       maxLength: Int, escalatesAt: Int, mib: Double, fixture: String) -> Model {
        Model(variant: variant, mode: mode, role: role, file: file, kind: .parseq(maxLength: maxLength, escalatesAt: escalatesAt),
              inputs: [Expected(name: nil, type: .float32, shape: [1, 3, height, width])],
              outputs: [Expected(name: nil, type: .float32, shape: [1, maxLength + 1, 7142])], targetMiB: mib, fixture: fixture)
    }

    static let ndlLine = "parity/ndl/preprocess/parseq/digidepo_2531162_0024_L04_24x"

    /// NDLOCR-Lite's three cascade recognisers of one version: width, maximum label length, the result length
    /// that escalates to the next model (docs/reference-pipelines.md §1.5), published size.
    static func cascade(_ variant: String, height: Int, files: [String]) -> [Model] {
        zip(files, [(256, 30, 25, 34.2), (384, 50, 45, 35.2), (768, 100, 98, 39.1)]).map { file, c in
            parseq(variant, .ndl, "recogniser\(c.1)", file, height: height, width: c.0, maxLength: c.1, escalatesAt: c.2,
                   mib: c.3, fixture: ndlLine + "\(c.0).png")
        }
    }

    static let models: [Model] = [
        Model(variant: "v1.2", mode: .ndl, role: "detector", file: "deim-s-1024x1024.onnx", kind: .deim,
              inputs: [Expected(name: "images", type: .float32, shape: [1, 3, 800, 800]),
                       Expected(name: "orig_target_sizes", type: .int64, shape: [1, 2])],
              outputs: [Expected(name: "labels", type: .int64, shape: [1, 300]), Expected(name: "boxes", type: .float32, shape: [1, 300, 4]),
                        Expected(name: "scores", type: .float32, shape: [1, 300]), Expected(name: "char_count", type: .int64, shape: [1, 300])],
              targetMiB: 38.4, fixture: "parity/ndl/preprocess/deim/digidepo_2531162_0024.deim800.png"),
    ] + cascade("v1.2", height: 24, files: ["parseq-ndl-24x256-30-tiny-189epoch-tegaki3-r8data-202604.onnx",
                                            "parseq-ndl-24x384-50-tiny-300epoch-tegaki3-r8data-202604.onnx",
                                            "parseq-ndl-24x768-100-tiny-153epoch-tegaki3-r8data-202604.onnx"]) + [
        Model(variant: "v1.2", mode: .koten, role: "detector", file: "rtmdet-s-1280x1280.onnx", kind: .rtmdet,
              inputs: [Expected(name: "input", type: .float32, shape: [1, 3, 1280, 1280])],
              outputs: [Expected(name: "dets", type: .float32, shape: [1, -1, 5]), Expected(name: "labels", type: .int64, shape: [1, -1])],
              targetMiB: 38.3, fixture: "parity/koten/preprocess/rtmdet/1287221_0002.rtmdet1280.png"),
        parseq("v1.2", .koten, "recogniser", "parseq-ndl-32x384-tiny-10.onnx", height: 32, width: 384,
               maxLength: 100, escalatesAt: 101, mib: 36.0, fixture: "parity/koten/preprocess/parseq/1287221_0002_K00_32x384.png"),
    ] + cascade("v1.0", height: 16, files: ["parseq-ndl-16x256-30-tiny-192epoch-tegaki3.onnx",
                                            "parseq-ndl-16x384-50-tiny-146epoch-tegaki2.onnx",
                                            "parseq-ndl-16x768-100-tiny-165epoch-tegaki2.onnx"])

    static func folder(_ variant: String) throws -> URL {
        try (variant == "v1.0" ? StandInFiles.version10 : StandInFiles.current).get()
    }

    @Test("loads in ONNX Runtime with the real signature and size, runs, and its outputs are usable", arguments: models)
    func loadAndRun(_ model: Model) async throws {
        let url = try Self.folder(model.variant).appendingPathComponent("\(model.mode.rawValue)/\(model.file)")
        let fileBytes = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        let target = model.targetMiB * 1_048_576
        #expect(abs(Double(fileBytes) - target) <= 0.02 * target, "\(fileBytes) bytes, target \(model.targetMiB) MiB")

        AllocatorPolicy.apply()  // as the engine does (KotenOCR), so freed activations leave the resident set
        let store = try ModelStore(budgetBytes: 16 << 30)
        let descriptor = ModelDescriptor(mode: model.mode, role: model.role, stage: model.role == "detector" ? .detection : .recognition, url: url)
        try await store.withModel(descriptor) { handle in
            Self.expectSignature(handle.inputs, model.inputs, "inputs")
            Self.expectSignature(handle.outputs, model.outputs, "outputs")
            var feeds: [String: Tensor] = [:]
            for input in handle.inputs {
                feeds[input.name] = input.elementType == .int64
                    ? Tensor(shape: input.shape, int64s: [800, 800])
                    : try Self.imageTensor(model, shape: input.shape)
            }
            let out = try await handle.run(feeds)
            try Self.expectPlausible(model, out, names: handle.outputs.map(\.name))
        }
        var resident = 0, activation = 0
        for event in await store.eventLog() {
            if case .loaded(_, let bytes, _, _) = event { resident = bytes }
            if case .activationMeasured(_, _, let bytes) = event { activation = bytes }
        }
        await MemoryTable.shared.record(model, fileBytes: fileBytes, resident: resident, activation: activation)
    }

    @Test("NDLmoji.yaml stand-ins: 7141 code points, space first, astral and U+FE0E where the spec puts them")
    func charsets() throws {
        for (mode, koten) in [("ndl", false), ("koten", true)] {
            let yaml = try String(contentsOf: try Self.folder("v1.2").appendingPathComponent("\(mode)/NDLmoji.yaml"), encoding: .utf8)
            let chars = try charsetTrain(yaml: yaml)
            #expect(chars.count == 7141, "\(mode)")
            #expect(chars.first == " ")
            #expect(chars.count > 7133 && chars[7133] == "\u{FE0E}")
            for i in [7081, 7111, 7116, 7127] where i < chars.count {
                #expect(koten ? chars[i] == "〓" : chars[i].value > 0xFFFF, "\(mode) index \(i)")
            }
            #expect(chars.filter { $0 == "〓" }.count == (koten ? 4 : 0), "\(mode)")
        }
    }

    @Test("ndl.yaml stand-in: NDL's 17 classes in NDL's YAML layout")
    func classes() throws {
        let yaml = try String(contentsOf: try Self.folder("v1.2").appendingPathComponent("ndl/ndl.yaml"), encoding: .utf8)
        let names = yaml.split(separator: "\n").dropFirst(2).map { $0.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) } }
        #expect(names.map { $0.first ?? "" } == (0..<17).map(String.init))
        #expect(names.map { $0.last ?? "" } == NDLClass.all.map(\.name))
    }

    // MARK: - Checks

    static func expectSignature(_ actual: [TensorInfo], _ expected: [Expected], _ what: String) {
        #expect(actual.count == expected.count, "\(what): \(actual)")
        for (a, e) in zip(actual, expected) {
            if let name = e.name { #expect(a.name == name, "\(what): \(a)") }
            #expect(a.elementType == e.type && a.shape == e.shape, "\(what): \(a)")
        }
    }

    /// The fixture page or line, resampled by libvips to the session's input size, normalised as the model expects.
    static func imageTensor(_ model: Model, shape: [Int]) throws -> Tensor {
        let image = try ImageSource(url: TestPaths.fixtures.appendingPathComponent(model.fixture)).decode(fitting: shape[3], shape[2])
        switch (model.kind, model.mode) {
        case (.deim, _):
            return packImageTensor(image, order: .rgb, normalisation: .meanStd(mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225]))
        case (.rtmdet, _):
            return packImageTensor(image, order: .bgr, normalisation: .rawMeanStd(mean: [123.675, 116.28, 103.53], std: [58.395, 57.12, 57.375]))
        case (.parseq, .koten):
            return packImageTensor(image, order: .bgr, normalisation: .symmetricKoten)
        case (.parseq, _):
            return packImageTensor(image, order: .bgr, normalisation: .symmetric)
        }
    }

    static func expectPlausible(_ model: Model, _ out: [String: Tensor], names: [String]) throws {
        switch model.kind {
        case .deim:
            let labels = try #require(out["labels"]?.int64s), scores = try #require(out["scores"]?.floats)
            let boxes = try #require(out["boxes"]?.floats), counts = try #require(out["char_count"]?.int64s)
            #expect(labels.allSatisfy { (1...17).contains($0) })
            #expect(counts.allSatisfy { (0...3).contains($0) })
            #expect(scores.allSatisfy { $0 >= 0 && $0 <= 1 } && zip(scores, scores.dropFirst()).allSatisfy { $0 >= $1 })
            #expect(boxesInside(boxes, rowWidth: 4, side: 800))
            let kept = try DEIMPostprocess.detections(labels: labels, boxes: boxes, scores: scores, charCounts: counts, paddedSize: 1600)
            #expect(kept.count >= 10 && kept.count < 300, "\(kept.count) detections above 0.25")
            #expect(kept.contains { NDLClass.all[$0.classIndex].isLine }, "no line detections")
        case .rtmdet:
            let dets = try #require(out["dets"]), labels = try #require(out["labels"]?.int64s)
            let rows = try #require(dets.floats)
            let k = dets.shape.count == 3 ? dets.shape[1] : -1
            #expect(dets.shape == [1, k, 5] && (1...300).contains(k), "dets \(dets.shape)")
            #expect(labels.count == k && labels.allSatisfy { $0 == 0 })
            let scores = stride(from: 4, to: rows.count, by: 5).map { rows[$0] }
            #expect(zip(scores, scores.dropFirst()).allSatisfy { $0 >= $1 } && scores.allSatisfy { $0 > 0.01 && $0 <= 1 })
            #expect(boxesInside(rows, rowWidth: 5, side: 1280))
            let kept = try RTMDetPostprocess.detections(dets: rows, paddedSize: 2560)
            #expect(kept.count >= 10 && kept.count < k, "\(kept.count) lines above 0.3 of \(k)")
        case .parseq(let maxLength, let escalatesAt):
            let name = try #require(names.first)
            let logits = try #require(out[name])
            let values = try #require(logits.floats)
            #expect(logits.shape == [1, maxLength + 1, 7142] && values.allSatisfy(\.isFinite))
            // Greedy decoding (docs/reference-pipelines.md §1.5): argmax per step, stop at the first EOS (0).
            var length = 0
            for step in 0...maxLength {
                let row = values[(step * 7142)..<((step + 1) * 7142)]
                let token = (row.indices.max { row[$0] < row[$1] } ?? row.startIndex) - row.startIndex
                if token == 0 { break }
                length += 1
            }
            #expect(length >= 1 && length < escalatesAt && length <= maxLength, "decodes to \(length) characters")
        }
    }
}

/// Every row's x1,y1,x2,y2 (its first four values) satisfies 0 ≤ x1 < x2 ≤ side and 0 ≤ y1 < y2 ≤ side.
func boxesInside(_ values: [Float], rowWidth: Int, side: Float) -> Bool {
    stride(from: 0, to: values.count, by: rowWidth).allSatisfy { i in
        let x1 = values[i], y1 = values[i + 1], x2 = values[i + 2], y2 = values[i + 3]
        return x1 >= 0 && x1 < x2 && x2 <= side && y1 >= 0 && y1 < y2 && y2 <= side
    }
}

/// Collects the memory figures of every case and prints them as one markdown table when the last case is in.
actor MemoryTable {
    static let shared = MemoryTable()
    private var rows: [(String, String)] = []

    func record(_ model: StandInModels.Model, fileBytes: Int, resident: Int, activation: Int) {
        let row = "| \(model.variant) | \(model.mode)/\(model.role) | \(formatBytes(fileBytes)) | \(formatBytes(resident)) | "
            + String(format: "%.2f", Double(resident) / Double(max(fileBytes, 1))) + " | \(formatBytes(activation)) |"
        rows.append((model.testDescription, row))
        print("stand-in \(row)")
        guard rows.count == StandInModels.models.count else { return }
        let table = ["| variant | model | file | resident after load | resident ÷ file | activation peak (first run) |",
                     "|---|---|---|---|---|---|"] + rows.sorted { $0.0 < $1.0 }.map(\.1)
        print("\nStand-in models, ONNX Runtime (ModelStore events; arena and memory pattern off, 1 thread):\n"
              + table.joined(separator: "\n") + "\n")
    }
}
