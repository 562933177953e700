import CONNXRuntime

/// An error from ONNX Runtime or from checking what a model expects.
///
/// `ortFailure` carries ONNX Runtime's own message and error code (`OrtErrorCode`) for the call that failed.
public enum InferenceError: Error, Equatable, CustomStringConvertible {
    /// ONNX Runtime returned a non-OK `OrtStatus` from `call`.
    case ortFailure(call: String, code: Int, message: String)
    /// The loaded ONNX Runtime library does not provide the C API version the headers were built with.
    case apiUnavailable(version: Int)
    /// A model file's inputs or outputs are not what its mode needs.
    case signatureMismatch(model: String, reason: String)
    /// An input tensor's element count does not match its shape.
    case badTensor(name: String, reason: String)
    /// The session has no input or output with this name.
    case unknownName(String)

    public var description: String {
        switch self {
        case .ortFailure(let call, let code, let message): return "ONNX Runtime \(call) failed (code \(code)): \(message)"
        case .apiUnavailable(let v): return "the ONNX Runtime library does not provide C API version \(v)"
        case .signatureMismatch(let model, let reason): return "\(model): \(reason)"
        case .badTensor(let name, let reason): return "tensor \(name): \(reason)"
        case .unknownName(let name): return "no input or output named \(name)"
        }
    }
}
