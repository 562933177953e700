import Foundation

/// A loaded model lent to a stage by `ModelStore.withModel`. Its runs pass the store's inference limiter.
package struct ModelHandle: Sendable {
    public let descriptor: ModelDescriptor
    let session: any InferenceRunning
    let store: ModelStore

    /// The session's inputs (names, element types, shapes with -1 for dynamic dimensions).
    public var inputs: [TensorInfo] { session.inputs }
    /// The session's outputs.
    public var outputs: [TensorInfo] { session.outputs }

    /// Runs the model on `inputs` (by name), within the inference limiter and the store's admission. The model's
    /// first run measures its activation peak (alone, holding every limiter slot) and records it with the store;
    /// the budget estimates other input sizes from it per input element. `releaseArena`: the last run of a stage
    /// hands ONNX Runtime's CPU arena back to the system after it (runs do so anyway while memory is tight,
    /// `MemoryTightness`). The inputs are passed to ONNX Runtime in place, never copied.
    /// Throws `InferenceError` with ONNX Runtime's message, `CancellationError` when the task is cancelled before
    /// the run starts (the limiter checks before and after waiting for a slot).
    public func run(_ inputs: [String: Tensor], outputNames: [String]? = nil,
                    releaseArena: Bool = false) async throws -> [String: Tensor] {
        try await run(inputs, outputNames: outputNames, releaseArena: releaseArena) { views in try views.mapValues { try $0.copy() } }
    }

    /// Runs the model and hands `consume` the outputs in place, in ONNX Runtime's buffers (valid only during
    /// the call, on the inference thread): a large output is read without a copy. Same limiter, admission,
    /// measurement and arena release as `run(_:outputNames:releaseArena:)`. The run takes one limiter slot per
    /// intra-op thread of the model's stage (`SessionOptions.threads(for:)`).
    public func run<R: Sendable>(_ inputs: [String: Tensor], outputNames: [String]? = nil, releaseArena: Bool = false,
                                 consume: @escaping @Sendable ([String: TensorView]) throws -> R) async throws -> R {
        let elements = inputs.values.reduce(0) { $0 + $1.elementCount }
        let measure = await store.shouldMeasure(descriptor)
        let session = self.session, meter = store.meter
        let options = store.sessionOptions, stage = descriptor.stage
        let outcome: (R, Int, Int)
        do {
            outcome = try await store.limiter.run(slots: options.threads(for: stage), exclusive: measure) {
                [store, descriptor] () async throws -> (R, Int, Int) in
                // Decided when the run starts: pressure may have come while it waited.
                let shrink = options.usesArena(for: stage) && (releaseArena || MemoryTightness.isTight)
                let reserved = try await store.admit(descriptor, inputElements: elements)
                let result = await withCheckedContinuation { continuation in
                    // ORT's Run blocks its thread: it runs on the inference queue, not on Swift's cooperative pool,
                    // so `limit` runs can really be in flight and other tasks keep their threads.
                    InferenceQueue.shared.async {
                        let before = meter.residentBytes()
                        let result = Result { () throws -> (R, Int) in
                            let plain = { try session.run(inputs, outputNames: outputNames, shrinkArena: shrink, consume: consume) }
                            let run = options.usesDetectorBuffers(for: stage)
                                ? { try DetectorBuffers.around(tight: MemoryTightness.isTight, plain) } : plain
                            return measure ? try meter.peak(during: run) : (try run(), 0)
                        }
                        continuation.resume(returning: result.map { ($0.0, $0.1, before) })
                    }
                }
                await store.finish(reserved)
                return try result.get()
            }
        } catch {
            if measure { await store.cancelMeasurement(descriptor) }
            throw error
        }
        let (outputs, peak, before) = outcome
        if measure { await store.recordActivation(descriptor, inputElements: elements, bytes: max(0, peak - before)) }
        return outputs
    }
}

/// The threads blocking ONNX Runtime runs execute on (a concurrent dispatch queue; how many run at once is
/// the inference limiter's business).
enum InferenceQueue {
    static let shared = DispatchQueue(label: "koten-ocr.inference", qos: .userInitiated, attributes: .concurrent)
}
