import CAllocator
import CONNXRuntime
import Foundation

/// The process-wide ONNX Runtime environment (`OrtEnv`), created once on first use.
///
/// ORT allows one environment per process; every session is created against it. Its resident cost
/// (about 17 MiB with ORT 1.32, docs/native-dependencies.md, "Memory") is part of the runtime baseline.
package final class InferenceEnvironment: @unchecked Sendable {
    let handle: OpaquePointer
    /// The version of the loaded ONNX Runtime library, e.g. "1.32.0".
    public let runtimeVersion: String

    private init() throws {
        let api = try ORT.table()
        var env: OpaquePointer?
        Self.keepTelemetryOff()
        try ORT.check(try ORT.fn(api.CreateEnv, "CreateEnv")(ORT_LOGGING_LEVEL_ERROR, "koten-ocr", &env), "CreateEnv")
        guard let env else { throw InferenceError.ortFailure(call: "CreateEnv", code: -1, message: "no environment") }
        try ORT.check(try ORT.fn(api.DisableTelemetryEvents, "DisableTelemetryEvents")(env), "DisableTelemetryEvents")
        handle = env
        runtimeVersion = ORT.libraryVersion
        var info: OpaquePointer?
        try ORT.check(try ORT.fn(api.CreateCpuMemoryInfo, "CreateCpuMemoryInfo")(OrtDeviceAllocator, OrtMemTypeDefault, &info),
                      "CreateCpuMemoryInfo")
        tensorCache = koten_tensor_cache_create(UnsafeRawPointer(info), 0)
        if let tensorCache, let allocator = koten_tensor_cache_allocator(tensorCache) {
            try ORT.check(try ORT.fn(api.RegisterAllocator, "RegisterAllocator")(env, allocator.assumingMemoryBound(to: OrtAllocator.self)),
                          "RegisterAllocator")
        }
    }

    /// The detector's tensor allocator (`DetectorBuffers`, C `koten_tensor_cache`), registered with the
    /// environment for the sessions that opt in (`session.use_env_allocators`: detection without the arena).
    /// Its memory info lives as long as the process.
    let tensorCache: OpaquePointer?

    private static let result = Result { try InferenceEnvironment() }

    /// ONNX Runtime's telemetry off, before its first environment is made (docs/privacy.md). ORT 1.32 starts
    /// Microsoft's 1DS uploader with it (a device id and an event store under the user's cache folder, uploads to
    /// mobile.events.data.microsoft.com about 9 s later) unless `ORT_DISABLE_TELEMETRY` is set then;
    /// `DisableTelemetryEvents` afterwards stops its later events but neither the uploader nor its first event. Called
    /// by `koten-ocr` first thing (before any other thread runs, as `setenv` wants) and here: it sets 1 unless it is 1.
    package static func keepTelemetryOff() {
        if getenv("ORT_DISABLE_TELEMETRY").map({ String(cString: $0) }) != "1" { setenv("ORT_DISABLE_TELEMETRY", "1", 1) }
    }

    /// The shared environment. Throws `InferenceError` if ONNX Runtime cannot be initialised.
    public static func shared() throws -> InferenceEnvironment { try result.get() }
}
