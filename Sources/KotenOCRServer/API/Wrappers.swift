import Foundation

/// A request's head as the wrappers see it: the request, its target read, and the route table's match of its path
/// (nil: no route has this path).
struct RequestHead: Sendable {
    let http: HTTPRequest
    let target: RequestTarget
    let match: RouteTable.PathMatch?

    var method: String { http.method }
    var headers: [String: String] { http.headers }
}

/// A check or a change around every route's handler, as hummingbird's middleware (docs/architecture.md, "The server
/// wing"): `screen` sees a request's head before one byte of its body is read (and again before the handler of a
/// request given whole), and may refuse it (an `APIError`) or answer instead of going on (a CORS preflight);
/// `finish` sees every answer before it is sent;
/// `completed` hears how each request ended. `answers` names the errors it may give a route's requests, for the
/// OpenAPI document.
protocol APIWrapper: Sendable {
    func answers(for route: Route) -> [APIError.Code]
    func screen(_ head: RequestHead) throws(APIError) -> HTTPResponse?
    func finish(_ response: inout HTTPResponse, head: RequestHead)
    func completed(_ head: HTTPRequest, status: Int, seconds: Double)
}

extension APIWrapper {
    func answers(for route: Route) -> [APIError.Code] { [] }
    func screen(_ head: RequestHead) throws(APIError) -> HTTPResponse? { nil }
    func finish(_ response: inout HTTPResponse, head: RequestHead) {}
    func completed(_ head: HTTPRequest, status: Int, seconds: Double) {}
}

/// The request's `Host` must be one of the server's names (docs/serve.md, "What is refused"): an address written
/// out (IPv4 or `[IPv6]`), `localhost` and names under `.localhost`, and the names given (`--allow-host`, the host
/// of `--public-url`, a `--host` that is a name). Another name is a page that had its own name point at this
/// server (DNS rebinding): refused with 421, whatever the route. A request without `Host` (HTTP/1.0) is let in.
struct HostCheck: APIWrapper {
    let names: Set<String>

    init(names: [String]) { self.names = Set(names.map { Self.normalised($0) }) }

    func answers(for route: Route) -> [APIError.Code] { [.unknownHost] }

    func screen(_ head: RequestHead) throws(APIError) -> HTTPResponse? {
        guard let host = head.headers["host"], !host.isEmpty, !allows(host) else { return nil }
        throw APIError(.unknownHost, "this server does not answer for the host \(host.prefix(100)) (koten-ocr serve --allow-host, --public-url)")
    }

    func allows(_ hostHeader: String) -> Bool {
        let name = Self.hostName(hostHeader)
        if name.hasPrefix("[") { return name.hasSuffix("]") && ListenAddresses.isNumeric(String(name.dropFirst().dropLast())) }
        return ListenAddresses.isNumeric(name) || name == "localhost" || name.hasSuffix(".localhost") || names.contains(name)
    }

    /// The name of a `Host` header (or an authority) without its port, lowercased, without a final dot.
    static func hostName(_ authority: String) -> String {
        var name = Substring(authority.trimmingCharacters(in: .whitespaces).lowercased())
        if name.hasPrefix("[") {
            if let close = name.firstIndex(of: "]") { name = name[...close] }
        } else if let colon = name.lastIndex(of: ":"), name[name.index(after: colon)...].allSatisfy(\.isNumber) {
            name = name[..<colon]
        }
        return normalised(String(name))
    }

    static func normalised(_ name: String) -> String {
        let lower = name.lowercased()
        return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }
}

/// A request that changes the server's state (any method but GET, HEAD and OPTIONS) from a page of another origin
/// is refused with 403 (docs/serve.md, "What is refused"): its `Origin` must be the server's own (the scheme, name
/// and port its `Host` names), the origin of `--public-url`, or the one `--cors-origin` allows; without an `Origin`,
/// a browser's `Sec-Fetch-Site: cross-site` or `same-site` is refused too. A client that is no browser sends
/// neither and is let in. So an HTML form or a script on another site cannot post a job, nor delete one.
struct OriginCheck: APIWrapper {
    /// The other origins allowed, as `scheme://host[:port]`, lowercased, default ports left out.
    let allowed: Set<String>

    init(allowed: [String]) { self.allowed = Set(allowed.compactMap { Self.origin($0)?.text }) }

    func answers(for route: Route) -> [APIError.Code] { route.changesState ? [.crossOrigin] : [] }

    func screen(_ head: RequestHead) throws(APIError) -> HTTPResponse? {
        guard !["GET", "HEAD", "OPTIONS"].contains(head.method) else { return nil }
        if let origin = head.headers["origin"] {
            if allows(origin, host: head.headers["host"]) { return nil }
            throw APIError(.crossOrigin, "a request from the page of another origin (\(origin.prefix(100))) may not change this server (koten-ocr serve --cors-origin)")
        }
        if let site = head.headers["sec-fetch-site"]?.lowercased(), site == "cross-site" || site == "same-site" {
            throw APIError(.crossOrigin, "a request from a page of another site may not change this server (koten-ocr serve --cors-origin)")
        }
        return nil
    }

    func allows(_ originHeader: String, host: String?) -> Bool {
        guard let origin = Self.origin(originHeader) else { return false }
        if allowed.contains(origin.text) { return true }
        guard let host else { return false }
        let name = HostCheck.hostName(host)
        guard name == origin.host else { return false }
        let given = host.trimmingCharacters(in: .whitespaces)
        let port: Int? = given.hasSuffix("]") || !given.contains(":") ? nil : given.split(separator: ":").last.flatMap { Int($0) }
        // A Host without a port (a proxy's) is the origin's default port, whichever its scheme.
        return port.map { $0 == origin.port } ?? (origin.port == Self.defaultPort(origin.scheme))
    }

    /// An origin (`scheme://host[:port]`, or a URL of one) as its parts; nil for `null` or anything else.
    static func origin(_ text: String) -> (scheme: String, host: String, port: Int, text: String)? {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let rawHost = url.host, !rawHost.isEmpty else { return nil }
        let host = HostCheck.normalised(rawHost.contains(":") && !rawHost.hasPrefix("[") ? "[\(rawHost)]" : rawHost)
        let port = url.port ?? defaultPort(scheme)
        let text = "\(scheme)://\(host)" + (port == defaultPort(scheme) ? "" : ":\(port)")
        return (scheme, host, port, text)
    }

    static func defaultPort(_ scheme: String) -> Int { scheme == "https" ? 443 : 80 }
}

/// CORS for the one origin `--cors-origin` names (docs/serve.md, "Options"): its preflight (`OPTIONS` with
/// `Origin`) is answered with the path's methods, and every answer to it carries `Access-Control-Allow-Origin`.
/// Without `--cors-origin` no CORS header is sent, and `OPTIONS` is a method no route takes (405).
struct CORS: APIWrapper {
    let origin: String?

    func screen(_ head: RequestHead) throws(APIError) -> HTTPResponse? {
        guard head.method == "OPTIONS", let origin, head.headers["origin"] == origin, let match = head.match else { return nil }
        return HTTPResponse(status: 204, headers: [("Access-Control-Allow-Methods", (match.allowed + ["OPTIONS"]).joined(separator: ", ")),
                                                   ("Access-Control-Allow-Headers", "Authorization, Content-Type, Range, If-None-Match, If-Modified-Since, If-Range"),
                                                   ("Access-Control-Max-Age", "600")])
    }

    func finish(_ response: inout HTTPResponse, head: RequestHead) {
        guard let origin, head.headers["origin"] == origin else { return }
        response.headers += [("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
                             ("Access-Control-Expose-Headers", "Content-Disposition, Content-Range, Accept-Ranges, ETag, Last-Modified, Location, Retry-After")]
    }
}

/// With `--token-file`, every route but the open ones (the web app's files, `/healthz`, `/readyz`,
/// `/openapi.json`) needs `Authorization: Bearer <token>`: checked on the head, so a request without it is answered
/// 401 before one byte of its body is read or stored (and no `100 Continue` is sent). A path no route has needs it
/// too (its 404 is for those who may ask).
struct TokenCheck: APIWrapper {
    let token: [UInt8]?

    func answers(for route: Route) -> [APIError.Code] { token != nil && route.access == .token ? [.unauthorised] : [] }

    func screen(_ head: RequestHead) throws(APIError) -> HTTPResponse? {
        guard token != nil, head.match?.access != .open, !authorised(head.headers) else { return nil }
        throw APIError(.unauthorised, "a valid `Authorization: Bearer <token>` header is required", headers: [("WWW-Authenticate", "Bearer")])
    }

    /// Constant-time comparison of the request's Bearer token with the server's.
    func authorised(_ headers: [String: String]) -> Bool {
        guard let token else { return true }
        let given = Array((headers["authorization"] ?? "").utf8)
        let expected = Array("Bearer ".utf8) + token
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for i in 0..<expected.count { difference |= expected[i] ^ (i < given.count ? given[i] : 0) }
        return difference == 0
    }
}

/// `koten_http_requests_total`'s count of each request, labelled from the route table and the known methods only
/// (`HTTPMethods`): a path no route has is `other`, a method the server does not know `OTHER`, so no request can
/// add a series of its own.
struct RequestMetrics: APIWrapper {
    let metrics: ServerMetrics
    let table: RouteTable

    func completed(_ head: HTTPRequest, status: Int, seconds: Double) {
        metrics.request(route: label(head), status: status, seconds: seconds)
    }

    func label(_ head: HTTPRequest) -> String {
        let template = (try? RequestTarget(head.target)).flatMap { table.lookup($0.segments)?.template } ?? "other"
        return "\(HTTPMethods.label(head.method)) \(template)"
    }
}
