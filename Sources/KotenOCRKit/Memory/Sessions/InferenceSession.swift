import CONNXRuntime
import Foundation

/// One ONNX Runtime inference session (`OrtSession`) and what it says about its inputs and outputs.
///
/// Sessions are created only by `ORTSessionLoader` for `ModelStore` (the one owner of every session, which
/// applies the memory budget) and released when the store lets go of them; stages reach them through
/// `ModelStore.withModel`, whose runs pass the inference limiter. `run` is thread-safe (ORT allows concurrent
/// `Run` calls on one session).
final class InferenceSession: @unchecked Sendable {
    private let handle: OpaquePointer
    /// Inputs in the model's declared order; dynamic dimensions are -1.
    let inputs: [TensorInfo]
    /// Outputs in the model's declared order.
    let outputs: [TensorInfo]
    private let memoryInfo: OpaquePointer
    /// The model's file name, under which its runs are timed (`ModelRunTimes`).
    private let model: String

    /// Loads `url`: an .onnx file, or with `optimised` a model already optimised in ONNX Runtime's own format
    /// (`OptimisedModelCache`). `saveOptimised`: where ONNX Runtime writes the optimised model, in its own format,
    /// while it creates the session. `name`: the model's file name its runs are timed under (`url`'s by default).
    /// Throws `InferenceError.ortFailure` with ORT's message (missing file, invalid model, unsupported opset, ...).
    init(contentsOf url: URL, options: SessionOptions, stage: ModelStage, environment: InferenceEnvironment,
         optimised: Bool = false, saveOptimised: URL? = nil, name: String? = nil) throws {
        let api = try ORT.table()
        let optionsHandle = try options.makeHandle(for: stage)
        defer { api.ReleaseSessionOptions?(optionsHandle) }
        let configure = try ORT.fn(api.AddSessionConfigEntry, "AddSessionConfigEntry")
        if optimised {
            try ORT.check(configure(optionsHandle, "session.load_model_format", "ORT"), "AddSessionConfigEntry")
        }
        if let saveOptimised {
            try ORT.check(configure(optionsHandle, "session.save_model_format", "ORT"), "AddSessionConfigEntry")
            try ORT.check(try ORT.fn(api.SetOptimizedModelFilePath, "SetOptimizedModelFilePath")(optionsHandle, saveOptimised.path),
                          "SetOptimizedModelFilePath")
        }
        var session: OpaquePointer?
        try ORT.check(try ORT.fn(api.CreateSession, "CreateSession")(environment.handle, url.path, optionsHandle, &session),
                      "CreateSession(\(url.lastPathComponent))")
        guard let session else { throw InferenceError.ortFailure(call: "CreateSession", code: -1, message: "nil session") }
        var info: OpaquePointer?
        do {
            try ORT.check(try ORT.fn(api.CreateCpuMemoryInfo, "CreateCpuMemoryInfo")(OrtDeviceAllocator, OrtMemTypeDefault, &info),
                          "CreateCpuMemoryInfo")
            guard let info else { throw InferenceError.ortFailure(call: "CreateCpuMemoryInfo", code: -1, message: "nil") }
            memoryInfo = info
            inputs = try Self.describe(session, input: true)
            outputs = try Self.describe(session, input: false)
        } catch {
            if let info { api.ReleaseMemoryInfo?(info) }
            api.ReleaseSession?(session)
            throw error
        }
        handle = session
        model = name ?? url.lastPathComponent
    }

    deinit {
        ORT.api?.ReleaseMemoryInfo?(memoryInfo)
        ORT.api?.ReleaseSession?(handle)
    }

    private static func describe(_ session: OpaquePointer, input: Bool) throws -> [TensorInfo] {
        let api = try ORT.table()
        var allocator: UnsafeMutablePointer<OrtAllocator>?
        try ORT.check(try ORT.fn(api.GetAllocatorWithDefaultOptions, "GetAllocatorWithDefaultOptions")(&allocator),
                      "GetAllocatorWithDefaultOptions")
        var count = 0
        let countFn = input ? api.SessionGetInputCount : api.SessionGetOutputCount
        try ORT.check(try ORT.fn(countFn, "SessionGetCount")(session, &count), "SessionGetCount")
        var result: [TensorInfo] = []
        for i in 0..<count {
            var namePtr: UnsafeMutablePointer<CChar>?
            let nameFn = input ? api.SessionGetInputName : api.SessionGetOutputName
            try ORT.check(try ORT.fn(nameFn, "SessionGetName")(session, i, allocator, &namePtr), "SessionGetName")
            let name = namePtr.map { String(cString: $0) } ?? ""
            if let namePtr, let free = allocator?.pointee.Free { free(allocator, namePtr) }
            var typeInfo: OpaquePointer?
            let typeFn = input ? api.SessionGetInputTypeInfo : api.SessionGetOutputTypeInfo
            try ORT.check(try ORT.fn(typeFn, "SessionGetTypeInfo")(session, i, &typeInfo), "SessionGetTypeInfo")
            defer { if let typeInfo { api.ReleaseTypeInfo?(typeInfo) } }
            var tensorInfo: OpaquePointer?
            try ORT.check(try ORT.fn(api.CastTypeInfoToTensorInfo, "CastTypeInfoToTensorInfo")(typeInfo, &tensorInfo),
                          "CastTypeInfoToTensorInfo")
            guard let tensorInfo else {
                result.append(TensorInfo(name: name, elementType: .other(0), shape: []))
                continue
            }
            let (type, shape) = try typeAndShape(tensorInfo)
            result.append(TensorInfo(name: name, elementType: type, shape: shape))
        }
        return result
    }

    private static func typeAndShape(_ info: OpaquePointer) throws -> (TensorInfo.ElementType, [Int]) {
        let api = try ORT.table()
        var elementType = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED
        try ORT.check(try ORT.fn(api.GetTensorElementType, "GetTensorElementType")(info, &elementType), "GetTensorElementType")
        var rank = 0
        try ORT.check(try ORT.fn(api.GetDimensionsCount, "GetDimensionsCount")(info, &rank), "GetDimensionsCount")
        var dims = [Int64](repeating: 0, count: rank)
        try ORT.check(try ORT.fn(api.GetDimensions, "GetDimensions")(info, &dims, rank), "GetDimensions")
        let type: TensorInfo.ElementType
        switch elementType {
        case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT: type = .float32
        case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64: type = .int64
        default: type = .other(Int(elementType.rawValue))
        }
        return (type, dims.map { Int($0) })
    }

    /// Runs the model. `inputs` are bound by name (every declared input must be given); the result holds
    /// the requested outputs (all when `outputNames` is nil), copied out of ORT's buffers.
    /// `shrinkArena` asks ORT to return the CPU arena's unused memory after the run.
    func run(_ inputs: [String: Tensor], outputNames: [String]? = nil, shrinkArena: Bool = false) throws -> [String: Tensor] {
        try run(inputs, outputNames: outputNames, shrinkArena: shrinkArena) { views in
            try views.mapValues { try $0.copy() }
        }
    }

    /// Runs the model and hands `consume` views of the outputs in ONNX Runtime's own buffers (valid only during
    /// the call): large outputs such as a recogniser's [1,T,18385] probabilities are read in place, never copied.
    func run<R>(_ inputs: [String: Tensor], outputNames: [String]? = nil, shrinkArena: Bool = false,
                consume: ([String: TensorView]) throws -> R) throws -> R {
        let api = try ORT.table()
        let names = outputNames ?? outputs.map(\.name)
        for name in names where !outputs.contains(where: { $0.name == name }) { throw InferenceError.unknownName(name) }
        var ordered: [(String, Tensor)] = []
        for info in self.inputs {
            guard let tensor = inputs[info.name] else { throw InferenceError.unknownName(info.name) }
            guard tensor.count == tensor.elementCount else {
                throw InferenceError.badTensor(name: info.name, reason: "\(tensor.count) elements for shape \(tensor.shape)")
            }
            ordered.append((info.name, tensor))
        }
        var values: [OpaquePointer?] = []
        defer { for v in values { if let v { api.ReleaseValue?(v) } } }
        var runOptions: OpaquePointer?
        if shrinkArena {
            try ORT.check(try ORT.fn(api.CreateRunOptions, "CreateRunOptions")(&runOptions), "CreateRunOptions")
            try ORT.check(try ORT.fn(api.AddRunConfigEntry, "AddRunConfigEntry")(runOptions, "memory.enable_memory_arena_shrinkage", "cpu:0"),
                          "AddRunConfigEntry")
        }
        defer { if let runOptions { api.ReleaseRunOptions?(runOptions) } }
        return try withValues(ordered[...], into: &values) { inputValues in
            var outValues = [OpaquePointer?](repeating: nil, count: names.count)
            defer { for v in outValues { if let v { api.ReleaseValue?(v) } } }
            let inNames = ordered.map { strdup($0.0) }
            let outNames = names.map { strdup($0) }
            defer { (inNames + outNames).forEach { free($0) } }
            var inNamePtrs = inNames.map { UnsafePointer($0) }
            var outNamePtrs = outNames.map { UnsafePointer($0) }
            let run = try ORT.fn(api.Run, "Run")
            let start = ModelRunTimes.begin()
            let status = run(handle, runOptions, &inNamePtrs, inputValues, inputValues.count, &outNamePtrs, names.count, &outValues)
            ModelRunTimes.end(model, start: start)
            try ORT.check(status, "Run")
            var views: [String: TensorView] = [:]
            for (name, value) in zip(names, outValues) {
                guard let value else { throw InferenceError.unknownName(name) }
                views[name] = try Self.view(value, name: name)
            }
            return try consume(views)
        }
    }

    /// Wraps each input's Swift storage as an OrtValue for the duration of `body`, in place: no copy. (ONNX Runtime
    /// takes a mutable pointer but never writes an input; asking the array for mutable bytes would copy a
    /// page-sized tensor, since the caller's `Tensor` still holds it.)
    private func withValues<R>(_ rest: ArraySlice<(String, Tensor)>, into values: inout [OpaquePointer?],
                               _ body: ([OpaquePointer?]) throws -> R) throws -> R {
        guard let (name, tensor) = rest.first else { return try body(values) }
        let api = try ORT.table()
        var shape = tensor.shape.map { Int64($0) }
        var value: OpaquePointer?
        let create = try ORT.fn(api.CreateTensorWithDataAsOrtValue, "CreateTensorWithDataAsOrtValue")
        func wrap(_ raw: UnsafeRawBufferPointer, _ type: ONNXTensorElementDataType) throws -> R {
            try ORT.check(create(memoryInfo, UnsafeMutableRawPointer(mutating: raw.baseAddress), raw.count, &shape, shape.count,
                                 type, &value), "CreateTensor(\(name))")
            values.append(value)
            return try withValues(rest.dropFirst(), into: &values, body)
        }
        switch tensor.elements {
        case .float32(let data): return try data.withUnsafeBytes { try wrap($0, ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT) }
        case .int64(let data): return try data.withUnsafeBytes { try wrap($0, ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64) }
        }
    }

    private static func view(_ value: OpaquePointer, name: String) throws -> TensorView {
        let api = try ORT.table()
        var info: OpaquePointer?
        try ORT.check(try ORT.fn(api.GetTensorTypeAndShape, "GetTensorTypeAndShape")(value, &info), "GetTensorTypeAndShape")
        guard let info else { throw InferenceError.badTensor(name: name, reason: "no type information") }
        defer { api.ReleaseTensorTypeAndShapeInfo?(info) }
        let (type, shape) = try typeAndShape(info)
        let count = max(0, shape.reduce(1, *))
        var raw: UnsafeMutableRawPointer?
        try ORT.check(try ORT.fn(api.GetTensorMutableData, "GetTensorMutableData")(value, &raw), "GetTensorMutableData")
        switch type {
        case .float32:
            let p = raw?.bindMemory(to: Float.self, capacity: count)
            return TensorView(name: name, shape: shape, floats: UnsafeBufferPointer(start: p, count: p == nil ? 0 : count), int64s: nil)
        case .int64:
            let p = raw?.bindMemory(to: Int64.self, capacity: count)
            return TensorView(name: name, shape: shape, floats: nil, int64s: UnsafeBufferPointer(start: p, count: p == nil ? 0 : count))
        case .other(let code):
            throw InferenceError.badTensor(name: name, reason: "unsupported element type \(code)")
        }
    }
}
