extension DBDetector {
    /// Loads the DB detector and checks it takes float32 [N,3,H,W] (one input, one output).
    /// Throws `ModelError.invalidFile` naming the file and what is wrong.
    public func prepare(store: ModelStore) async throws {
        try await PPOCRModelCheck.check(model, store: store, what: "PP-OCRv5's DB detector") { s, input in
            guard input.shape[1] == 3 else { throw s.failure("PP-OCRv5's DB detector: input \(input), expected float32 [N,3,H,W]") }
        }
    }
}

extension OrientationClassifier {
    /// Loads the classifier and checks it takes float32 [N,3,80,160] (one input, one output).
    /// Throws `ModelError.invalidFile` naming the file and what is wrong.
    public func prepare(store: ModelStore) async throws {
        try await PPOCRModelCheck.check(model, store: store, what: "PP-OCRv5's line classifier") { s, input in
            guard input.shape[1] == 3, input.shape[2] == 80, input.shape[3] == 160 else {
                throw s.failure("PP-OCRv5's line classifier: input \(input), expected float32 [N,3,80,160]")
            }
        }
    }
}

extension PPOCRLineReader {
    /// Loads the classifier (when used) and the recogniser and checks them: the classifier takes float32
    /// [N,3,80,160]; the recogniser [N,3,48,W], and its output classes (as ONNX Runtime infers the output's last
    /// dimension, or where it cannot, from one run on a blank line) equal the keys file's entries. Throws
    /// `ModelError.invalidFile` naming the file and what is wrong.
    public func prepare(store: ModelStore) async throws {
        if let classifier { try await classifier.prepare(store: store) }
        try await PPOCRModelCheck.check(recogniser.model, store: store, what: "PP-OCRv5's recogniser") { s, input in
            guard input.shape[1] == 3, input.shape[2] == 48 else {
                throw s.failure("PP-OCRv5's recogniser: input \(input), expected float32 [N,3,48,W]")
            }
        }
        // The file declares no output shape; ONNX Runtime's shape inference gives PP-OCRv5's [N,T,18385]. A model
        // whose class count it cannot infer is run once on a blank line (issue 28: a run less at every start).
        let keys = recogniser.decoder.keys.count, keysPath = keysFile.path, model = recogniser.model
        let classes = try await store.withModel(model) { handle -> Int in
            guard let input = handle.inputs.first?.name, let output = handle.outputs.first?.name else { return -1 }
            if let declared = handle.outputs.first?.shape.last, declared > 0 { return declared }
            let blank = Tensor(shape: [1, 3, 48, 320], floats: [Float](repeating: 0, count: 3 * 48 * 320))
            return try await handle.run([input: blank], outputNames: [output]) { $0[output]?.shape.last ?? -1 }
        }
        guard classes == keys else {
            throw ModelError.invalidFile(path: keysPath,
                reason: "\(keys) keys, but \(model.url.lastPathComponent) has \(classes) output classes (they must be equal)")
        }
    }
}

/// What every PP-OCRv5 model is checked for when it loads.
enum PPOCRModelCheck {
    /// Loads `model` and checks it has one input and one output, the input float32 of rank 4; then `body`
    /// checks the input's shape. Throws `ModelError.invalidFile` naming the file and what is wrong.
    static func check(_ model: ModelDescriptor, store: ModelStore, what: String,
                      _ body: @escaping @Sendable (ModelSignature, TensorInfo) throws -> Void) async throws {
        try await ModelSignature.loading(model) {
            try await store.withModel(model) { handle in
                let s = ModelSignature(handle)
                try s.expectInputCount(1, of: what)
                guard handle.outputs.count == 1 else {
                    throw s.failure("\(what) has 1 output; this model has \(handle.outputs.count)")
                }
                let input = handle.inputs[0]
                try s.expect(input, .float32, rank: 4, of: what)
                try body(s, input)
            }
        }
    }
}
