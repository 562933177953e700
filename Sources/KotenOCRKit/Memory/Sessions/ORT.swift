import CONNXRuntime

/// The ONNX Runtime C API table and status handling, shared by the runtime layer.
///
/// Every `OrtStatus*` is turned into `InferenceError.ortFailure` carrying ORT's message; a status is
/// released exactly once here.
enum ORT {
    /// The API table for the C API version of the headers (ORT_API_VERSION); nil if the library is older.
    static let api: OrtApi? = koten_ort_api()?.pointee

    /// The version string of the loaded library, e.g. "1.32.0".
    static var libraryVersion: String { String(cString: koten_ort_version()) }

    static func table() throws -> OrtApi {
        guard let api else { throw InferenceError.apiUnavailable(version: Int(ORT_API_VERSION)) }
        return api
    }

    /// Throws if `status` is an error status, with the message ORT attached to it.
    static func check(_ status: OpaquePointer?, _ call: String) throws {
        guard let status else { return }
        let api = try table()
        let message = api.GetErrorMessage.flatMap { $0(status) }.map { String(cString: $0) } ?? "unknown error"
        let code = api.GetErrorCode.map { Int($0(status).rawValue) } ?? -1
        api.ReleaseStatus?(status)
        throw InferenceError.ortFailure(call: call, code: code, message: message)
    }

    /// Unwraps an API entry that every C API version ≥ 1 provides.
    static func fn<F>(_ f: F?, _ name: String) throws -> F {
        guard let f else { throw InferenceError.ortFailure(call: name, code: -1, message: "missing from the API table") }
        return f
    }
}
