import Foundation

/// One route of the API: a method and a path, who may call it, what the OpenAPI document says of it, and its
/// handler. The route table (`OCRService.routes`, API/Routes.swift) is the only list of routes: the router, the
/// metrics' labels and the OpenAPI document are made from it.
struct Route: Sendable {
    typealias Handler = @Sendable (APIRequest) async throws -> HTTPResponse
    enum Access: Sendable { case open, token }

    /// `GET`, `POST`, `DELETE` (a GET route answers HEAD too).
    let method: String
    let pattern: PathPattern
    /// `.token`: needs the Bearer token on a server started with `--token-file`.
    let access: Access
    let doc: OperationDoc
    let handler: Handler

    init(_ method: String, _ path: String, _ access: Access, _ doc: OperationDoc, _ handler: @escaping Handler) {
        self.method = method
        pattern = PathPattern(path)
        self.access = access
        self.doc = doc
        self.handler = handler
    }

    /// A route that needs the token.
    init(_ method: String, _ path: String, _ doc: OperationDoc, _ handler: @escaping Handler) {
        self.init(method, path, .token, doc, handler)
    }

    /// Whether it takes a body that changes the server's state (POST, DELETE): such a request from another origin
    /// is refused.
    var changesState: Bool { method != "GET" }
}

/// The methods the server knows (RFC 9110's, PATCH and QUERY): one a route does not take is answered 405 with
/// `Allow`, any other 501. Only these name a request in the metrics; every other is counted as `OTHER`.
enum HTTPMethods {
    static let known: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "QUERY"]

    static func label(_ method: String) -> String { known.contains(method) ? method : "OTHER" }
}

/// A parameter in a route's path.
enum PathParameter: String, Sendable, CaseIterable {
    /// A job's id (its shape is checked when the job is looked up: 404 for any other).
    case id
    /// A page number, written as numbers are: `1`, `12`, never `01`, `+1`, ` 1` (another spelling names no page).
    case n

    func accepts(_ segment: String) -> Bool {
        switch self {
        case .id: return !segment.isEmpty
        case .n:
            guard let first = segment.utf8.first, first != UInt8(ascii: "0") else { return false }
            return segment.utf8.count <= 9 && segment.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
    }
}

/// A route's path: literal segments and parameters (`/v1/jobs/{id}/pages/{n}`).
struct PathPattern: Sendable {
    enum Part: Sendable, Equatable { case literal(String), parameter(PathParameter) }
    let template: String
    let parts: [Part]

    init(_ template: String) {
        self.template = template
        parts = template.split(separator: "/").map { segment in
            if segment.hasPrefix("{"), segment.hasSuffix("}"), let p = PathParameter(rawValue: String(segment.dropFirst().dropLast())) {
                return .parameter(p)
            }
            return .literal(String(segment))
        }
    }

    var parameters: [PathParameter] { parts.compactMap { if case .parameter(let p) = $0 { p } else { nil } } }

    /// The path parameters when `segments` is this path; nil when it is not.
    func match(_ segments: [String]) -> [PathParameter: String]? {
        guard segments.count == parts.count else { return nil }
        var found: [PathParameter: String] = [:]
        for (part, segment) in zip(parts, segments) {
            switch part {
            case .literal(let text): guard text == segment else { return nil }
            case .parameter(let p):
                guard p.accepts(segment) else { return nil }
                found[p] = segment
            }
        }
        return found
    }
}

/// A request as a handler sees it: its head and body, the path's parameters, and its parameters (the query's and
/// a multipart body's form fields, which win).
struct APIRequest: Sendable {
    let http: HTTPRequest
    let path: [PathParameter: String]
    let parameters: [String: String]

    var method: String { http.method }
    var isHead: Bool { http.method == "HEAD" }
    var headers: [String: String] { http.headers }
    var client: String { http.client }
    /// The job id of the path (`{id}`).
    var id: String { path[.id] ?? "" }
    /// The page number of the path (`{n}`).
    var page: Int { path[.n].flatMap { Int($0) } ?? 0 }
}

/// The route table, looked up by path.
struct RouteTable: Sendable {
    let routes: [Route]

    /// The routes of one path, by method, with the path's parameters.
    struct PathMatch {
        let template: String
        let routes: [Route]
        let parameters: [PathParameter: String]
        /// Who may call the path (every route of a path has the same access).
        var access: Route.Access { routes.contains { $0.access == .token } ? .token : .open }
        /// The methods the path takes, HEAD with GET.
        var allowed: [String] {
            routes.flatMap { $0.method == "GET" ? ["GET", "HEAD"] : [$0.method] }
        }
        /// The route for `method` (HEAD: the GET route).
        func route(for method: String) -> Route? {
            routes.first { $0.method == (method == "HEAD" ? "GET" : method) }
        }
    }

    /// The path `segments` names, nil when it is none of the table's.
    func lookup(_ segments: [String]) -> PathMatch? {
        for route in routes {
            guard let parameters = route.pattern.match(segments) else { continue }
            let same = routes.filter { $0.pattern.template == route.pattern.template }
            return PathMatch(template: route.pattern.template, routes: same, parameters: parameters)
        }
        return nil
    }

    /// The paths in the table's order, each once.
    var templates: [String] {
        var seen = Set<String>()
        return routes.map(\.pattern.template).filter { seen.insert($0).inserted }
    }
}
