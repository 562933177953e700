import Foundation
import Testing
@testable import KotenOCRKit
@testable import KotenOCRServer

/// The one engine the in-process API tests share (PP-OCRv5; the budget the machine's, as the whole test process's
/// memory counts against it), made and prepared (its models checked, as
/// `koten-ocr serve` does before it listens) once: every `APIClient`'s service reads through it, as every request of
/// one server does.
actor APIEngine {
    static let shared = APIEngine()
    private var made: KotenOCR?

    func get() async throws -> KotenOCR {
        if let made { return made }
        let options = EngineOptions()
        var config = options.configuration(mode: .ppocr, models: try TestPaths.ppocrModels())
        config.optimisedModelCache = testCacheDirectory.appendingPathComponent("optimised-models")
        config.watchMemoryPressure = false
        let engine = try KotenOCR(configuration: config)
        try await engine.prepare(.ppocr)
        made = engine
        return engine
    }
}

/// The service most in-process tests share (docs/serve.md): uploads up to 2 MB, jobs up to 60 pages.
func sharedAPI() async throws -> APIClient { try await SharedAPI.shared.get() }

actor SharedAPI {
    static let shared = SharedAPI()
    private var made: APIClient?

    func get() async throws -> APIClient {
        if let made { return made }
        let client = try await APIClient.make(["--max-upload", "2MB", "--max-pages", "60"])
        made = client
        return client
    }
}

/// The API called in-process, as hummingbird's router tests call theirs (docs/architecture.md, "The server wing"):
/// a request made here is screened as the HTTP layer screens its head (`OCRService.screen`, before any body), then
/// handled whole (`OCRService.handle`) with its body already in files, and its answer read: a file's bytes (its
/// range), a stream's chunks to its end. The transport (libmicrohttpd: multipart parsing, body limits, HEAD without
/// a body, sockets) is the child servers' to test (ServeTests).
struct APIClient: Sendable {
    let service: OCRService
    let work: URL

    /// A service over `apiEngine` with `serve`'s `arguments` (and a token), its work directory fresh; its job worker
    /// started unless `start` is false (then every job stays queued, holding its place in the queue).
    static func make(_ arguments: [String] = [], token: String? = nil, start: Bool = true) async throws -> APIClient {
        let work = try TestPaths.temporaryDirectory("api")
        // No page time limit a busy machine could reach (the whole suite shares the process): tests depend on no timing.
        let options = try ServeOptions.parse(["--page-timeout", "3600"] + arguments)
        let service = try OCRService(engine: try await APIEngine.shared.get(), options: options, token: token, workDirectory: work, pdfGuard: nil)
        if start { service.start() }
        return APIClient(service: service, work: work)
    }

    /// A request's body.
    enum Body {
        case none
        /// The file (or bytes) as the whole body, with its content type.
        case raw(URL, type: String?)
        case bytes(Data, type: String?)
        /// `multipart/form-data`: form fields, and files in fields named `file` (each with its name and type).
        case multipart(fields: [String: String], files: [(URL, name: String?, type: String?)])
    }

    struct Reply: Sendable {
        let status: Int
        let headers: [(String, String)]
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:] }
        func header(_ name: String) -> String? { headers.last { $0.0.lowercased() == name.lowercased() }?.1 }
        /// The error code of an error's answer.
        var error: String? { json["error"] as? String }
    }

    /// Sends `method target` with `headers` (a `Host` of 127.0.0.1 unless given) and `body`.
    func call(_ method: String = "GET", _ target: String, headers: [String: String] = [:], body: Body = .none,
              client: String = "127.0.0.1") async throws -> Reply {
        var lowered = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        if lowered["host"] == nil { lowered["host"] = "127.0.0.1:8080" }
        let folder = try TestPaths.temporaryDirectory("api-request")
        defer { try? FileManager.default.removeItem(at: folder) }
        var uploads: [HTTPUpload] = [], form: [String: String] = [:]
        func stored(_ source: URL, field: String, name: String?, type: String?) throws {
            let file = folder.appendingPathComponent("part-\(uploads.count)")
            try FileManager.default.copyItem(at: source, to: file)
            let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
            uploads.append(HTTPUpload(field: field, fileName: name, contentType: type, file: file, size: size))
        }
        switch body {
        case .none: break
        case .raw(let url, let type):
            if let type { lowered["content-type"] = type }
            try stored(url, field: "", name: nil, type: type)
        case .bytes(let data, let type):
            if let type { lowered["content-type"] = type }
            let file = folder.appendingPathComponent("bytes")
            try data.write(to: file)
            try stored(file, field: "", name: nil, type: type)
        case .multipart(let fields, let files):
            lowered["content-type"] = "multipart/form-data; boundary=in-process"
            form = fields
            for (url, name, type) in files { try stored(url, field: "file", name: name ?? url.lastPathComponent, type: type) }
        }
        if !uploads.isEmpty || !form.isEmpty { lowered["content-length"] = "1" }
        let head = HTTPRequest(method: method, target: target, headers: lowered, client: client)
        let response: HTTPResponse
        if let early = service.screen(head) {
            response = early
        } else {
            response = await service.handle(HTTPRequest(method: method, target: target, headers: lowered, client: client,
                                                        form: form, uploads: uploads))
        }
        service.completed(head, status: response.status, seconds: 0)
        return Reply(status: response.status, headers: response.headers, body: try await Self.read(response.body))
    }

    /// A body's bytes: a file's (its range), a stream's to its end.
    static func read(_ body: HTTPResponse.Body) async throws -> Data {
        switch body {
        case .data(let data): return data
        case .file(let url, let offset, let length):
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(offset))
            return length.map { (try? handle.read(upToCount: Int($0))) ?? Data() } ?? ((try? handle.readToEnd()) ?? Data())
        case .stream(let stream):
            var all = Data()
            for await chunk in stream { all.append(chunk) }
            return all
        }
    }

    /// The job once it is over: its event stream read to its end, then its status.
    func finished(_ id: String) async throws -> [String: Any] {
        let events = try await call("GET", "/v1/jobs/\(id)/events")
        #expect(events.text.contains("event: end\n"), "\(events.text.suffix(300))")
        return try await call("GET", "/v1/jobs/\(id)").json
    }
}
