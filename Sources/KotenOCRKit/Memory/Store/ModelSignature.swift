/// Checks of a loaded session's inputs and outputs against what a stage needs, failing with
/// `ModelError.invalidFile` — one line naming the file and what is wrong.
struct ModelSignature {
    let path: String
    let inputs: [TensorInfo]
    let outputs: [TensorInfo]

    init(_ handle: ModelHandle) {
        path = handle.descriptor.url.path
        inputs = handle.inputs
        outputs = handle.outputs
    }

    init(path: String, inputs: [TensorInfo], outputs: [TensorInfo]) {
        self.path = path
        self.inputs = inputs
        self.outputs = outputs
    }

    func failure(_ reason: String) -> ModelError { .invalidFile(path: path, reason: reason) }

    private func list(_ infos: [TensorInfo]) -> String {
        infos.isEmpty ? "none" : infos.map(\.description).joined(separator: "; ")
    }

    /// The input called `name`; `what` names the model in the message ("NDLOCR-Lite's DEIM detector").
    func input(_ name: String, of what: String) throws -> TensorInfo {
        guard let info = inputs.first(where: { $0.name == name }) else {
            throw failure("\(what) needs an input '\(name)'; this model's inputs are \(list(inputs))")
        }
        return info
    }

    /// The output called `name`.
    func output(_ name: String, of what: String) throws -> TensorInfo {
        guard let info = outputs.first(where: { $0.name == name }) else {
            throw failure("\(what) needs an output '\(name)'; this model's outputs are \(list(outputs))")
        }
        return info
    }

    /// Fails unless `info` has element type `type` and `rank` dimensions.
    func expect(_ info: TensorInfo, _ type: TensorInfo.ElementType, rank: Int, of what: String) throws {
        guard info.elementType == type, info.shape.count == rank else {
            let t = type == .int64 ? "int64" : "float32"
            throw failure("\(what): '\(info.name)' is \(info), expected \(t) with \(rank) dimensions")
        }
    }

    /// An image input float32 [1 or dynamic, 3, H, W] with a fixed H and W: returns (H, W).
    func imageInput(_ info: TensorInfo, of what: String) throws -> (height: Int, width: Int) {
        try expect(info, .float32, rank: 4, of: what)
        let s = info.shape
        guard s[0] == 1 || s[0] < 0, s[1] == 3, s[2] > 0, s[3] > 0 else {
            throw failure("\(what): input \(info), expected float32 [1,3,H,W] with a fixed H and W")
        }
        return (s[2], s[3])
    }

    /// Fails unless the model has exactly `count` inputs.
    func expectInputCount(_ count: Int, of what: String) throws {
        guard inputs.count == count else {
            throw failure("\(what) has \(count) input\(count == 1 ? "" : "s"); this model has \(inputs.count): \(list(inputs))")
        }
    }
}

extension ModelSignature {
    /// Runs `body` (which loads `model`), turning ONNX Runtime's refusal to load the file into
    /// `ModelError.invalidFile` naming it: not an ONNX model, truncated, unsupported opset, ...
    static func loading<T>(_ model: ModelDescriptor, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch InferenceError.ortFailure(let call, _, let message) where call.hasPrefix("CreateSession") {
            let first = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? message
            throw ModelError.invalidFile(path: model.url.path, reason: "ONNX Runtime cannot load it: \(first)")
        }
    }
}
