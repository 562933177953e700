import Foundation
import Testing
@testable import KotenOCRKit
@testable import KotenOCRServer
import KotenOCRTestSupport

/// What issue 35 found a browser, a stranger or a generated client could do to the API, each refused (in-process,
/// `APIClient`; the transport's side in ServeTests): another page's `Host` and origin, a body before the token,
/// made-up methods in the metrics, control characters and other spellings in paths; and what a client may rely on:
/// HEAD on every GET route, validators and ranges, the OpenAPI document made from the route table.
@Suite("serve: the API hardened (in-process)")
struct APIHardeningTests {
    /// A job of one line (a 240×56 page), read to its end.
    static func doneJob(_ api: APIClient, headers: [String: String] = [:]) async throws -> String {
        let dir = try TestPaths.temporaryDirectory("api-one-line")
        let tiff = try ServeFixtures.lines(1, in: dir)
        let posted = try await api.call("POST", "/v1/jobs", headers: headers, body: .raw(tiff, type: "image/tiff"))
        let id = try #require(posted.json["id"] as? String, "\(posted.text)")
        let job = try await api.finished(id)
        #expect(job["state"] as? String == "done", "\(job)")
        return id
    }

    @Test("Host: names other than the server's refused with 421 on every route (DNS rebinding); addresses, localhost, --allow-host and --public-url's host answered")
    func host() async throws {
        let api = try await sharedAPI()
        for name in ["evil.example", "evil.example:8080", "127.0.0.1.evil.example", "localhost.evil.example"] {
            for (method, target) in [("GET", "/healthz"), ("GET", "/"), ("POST", "/v1/jobs"), ("GET", "/v1/status")] {
                let reply = try await api.call(method, target, headers: ["Host": name])
                #expect(reply.status == 421 && reply.error == "unknown_host", "\(name) \(method) \(target): \(reply.status)")
            }
        }
        for name in ["127.0.0.1:8080", "127.0.0.1", "[::1]:8080", "localhost:8080", "LOCALHOST.", "app.localhost", "192.168.1.5:8080", "[fd00::2]"] {
            #expect(try await api.call("GET", "/healthz", headers: ["Host": name]).status == 200, "\(name)")
        }
        let proxied = try await APIClient.make(["--public-url", "https://lib.example.org/ocr/", "--allow-host", "ocr.internal"], start: false)
        for name in ["lib.example.org", "LIB.example.org:443", "ocr.internal:8080", "127.0.0.1:8080"] {
            #expect(try await proxied.call("GET", "/healthz", headers: ["Host": name]).status == 200, "\(name)")
        }
        #expect(try await proxied.call("GET", "/healthz", headers: ["Host": "evil.example"]).status == 421)
        #expect(try await api.call("GET", "/metrics").text.contains("koten_refusals_total{reason=\"host\"}"))
    }

    @Test("a request that changes the server from another origin (an HTML form, a script) is refused with 403; the same origin, --public-url's and --cors-origin's are not")
    func origin() async throws {
        let api = try await sharedAPI()
        let line = try ServeFixtures.lines(1, in: try TestPaths.temporaryDirectory("api-origin"))
        let form = APIClient.Body.multipart(fields: [:], files: [(line, nil, "image/tiff")])
        for (headers, what) in [(["Origin": "https://evil.example"], "Origin of another site"),
                                (["Origin": "http://127.0.0.1:9999"], "another port"),
                                (["Origin": "null"], "an opaque origin"),
                                (["Sec-Fetch-Site": "cross-site"], "Sec-Fetch-Site cross-site without Origin")] {
            let reply = try await api.call("POST", "/v1/jobs", headers: headers, body: form)
            #expect(reply.status == 403 && reply.error == "cross_origin", "\(what): \(reply.status) \(reply.text)")
        }
        let victim = try await Self.doneJob(api)
        #expect(try await api.call("DELETE", "/v1/jobs/\(victim)", headers: ["Origin": "https://evil.example"]).status == 403)
        #expect(try await api.call("GET", "/v1/jobs/\(victim)").status == 200)
        #expect(try await api.call("GET", "/v1/jobs/\(victim)", headers: ["Origin": "https://evil.example"]).status == 200)
        let same = try await api.call("POST", "/v1/ocr?format=txt", headers: ["Origin": "http://127.0.0.1:8080", "Sec-Fetch-Site": "same-origin"], body: form)
        #expect(same.status == 200, "\(same.text)")

        let cors = try await APIClient.make(["--cors-origin", "https://app.example"], start: false)
        let preflight = try await cors.call("OPTIONS", "/v1/jobs", headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "POST"])
        #expect(preflight.status == 204 && preflight.header("Access-Control-Allow-Methods") == "POST, OPTIONS", "\(preflight.headers)")
        let allowed = try await cors.call("POST", "/v1/jobs", headers: ["Origin": "https://app.example"])
        #expect(allowed.status == 400 && allowed.error == "empty_body" && allowed.header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(try await cors.call("POST", "/v1/jobs", headers: ["Origin": "https://evil.example"]).status == 403)
        #expect(try await cors.call("OPTIONS", "/v1/jobs", headers: ["Origin": "https://evil.example"]).status == 405)

        // Behind a proxy under a path: the browser's origin is the proxy's, the Host the proxy's name.
        let proxied = try await APIClient.make(["--public-url", "https://lib.example.org/ocr/"])
        let behind = try await proxied.call("POST", "/v1/jobs", headers: ["Host": "lib.example.org", "Origin": "https://lib.example.org"],
                                            body: .raw(try ServeFixtures.lines(1, in: try TestPaths.temporaryDirectory("api-proxy")), type: "image/tiff"))
        #expect(behind.status == 202, "\(behind.text)")
        let id = try #require(behind.json["id"] as? String)
        #expect(behind.header("Location") == "/ocr/v1/jobs/\(id)")
        #expect((behind.json["links"] as? [String: Any])?["events"] as? String == "/ocr/v1/jobs/\(id)/events")
        #expect((try await proxied.call("GET", "/openapi.json").json["servers"] as? [[String: Any]])?.first?["url"] as? String == "/ocr")
        _ = try await proxied.finished(id)
        #expect(try await api.call("GET", "/metrics").text.contains("koten_refusals_total{reason=\"origin\"}"))
    }

    @Test("with --token-file a request without the token is answered 401 from its head, before its body is read")
    func tokenBeforeBody() async throws {
        let token = "s3cret-token-0123456789abcdef"
        let api = try await APIClient.make([], token: token, start: false)
        let head = HTTPRequest(method: "POST", target: "/v1/ocr", headers: ["host": "127.0.0.1:8080", "content-type": "image/png",
                                                                         "content-length": "10000000", "expect": "100-continue"],
                               client: "127.0.0.1")
        let early = try #require(api.service.screen(head), "the head went on to the body")
        #expect(early.status == 401)
        let wrong = HTTPRequest(method: "POST", target: "/v1/jobs", headers: head.headers.merging(["authorization": "Bearer nope"]) { $1 }, client: "127.0.0.1")
        #expect(api.service.screen(wrong)?.status == 401)
        let right = HTTPRequest(method: "POST", target: "/v1/jobs", headers: head.headers.merging(["authorization": "Bearer \(token)"]) { $1 }, client: "127.0.0.1")
        #expect(api.service.screen(right) == nil)
        let open = HTTPRequest(method: "GET", target: "/healthz", headers: ["host": "127.0.0.1"], client: "127.0.0.1")
        #expect(api.service.screen(open) == nil)
    }

    @Test("metrics: 300 requests with made-up 4 KB methods and 300 made-up paths add no series; unknown methods 501 under one label")
    func metricsLabels() async throws {
        let api = try await APIClient.make([], start: false)
        let series = { () async throws -> [String] in
            try await api.call("GET", "/metrics").text.split(separator: "\n").filter { $0.hasPrefix("koten_http_requests_total{") }.map(String.init)
        }
        for i in 0..<300 {
            let method = "X\(i)" + String(repeating: "A", count: 4096)
            let reply = try await api.call(method, "/healthz")
            #expect(reply.status == 501 && reply.error == "not_implemented")
            #expect(try await api.call("GET", "/made-up/\(i)/\(String(repeating: "b", count: 100))").status == 404)
        }
        let labels = try await series()
        #expect(labels.count <= 4, "\(labels)")
        #expect(labels.contains { $0.hasPrefix("koten_http_requests_total{route=\"OTHER /healthz\",status=\"501\"} 300") }, "\(labels)")
        #expect(labels.contains { $0.hasPrefix("koten_http_requests_total{route=\"GET other\",status=\"404\"} 300") }, "\(labels)")
        #expect(try await api.call("GET", "/metrics").body.count < 16_000)
    }

    @Test("paths: a percent-encoded control character is refused (400); a page number in another spelling names no page (404)")
    func paths() async throws {
        let api = try await sharedAPI()
        let id = try await Self.doneJob(api)
        for target in ["/v1/jobs/\(id)%00", "/v1/jobs/\(id)%00/pages/1", "/v1/jobs/\(id)/pages/1%0A", "/healthz%7F", "/v1/jobs/\(id)%1b",
                       "/v1/jobs/\(id)/pages/1?format=json%00x", "/v1/jobs/%zz", "/v1/jobs/%ff%fe", "/v1/jobs/\(id)/pages/1%"] {
            let reply = try await api.call("GET", target)
            #expect(reply.status == 400 && reply.error == "bad_path", "\(target): \(reply.status) \(reply.text)")
        }
        for n in ["01", "+1", "1.0", "0", "-1", "1e0", "%31", " 1", "1%20", "0x1", "１"] {
            let reply = try await api.call("GET", "/v1/jobs/\(id)/pages/\(n)")
            #expect(reply.status == (n == "%31" ? 200 : 404), "pages/\(n): \(reply.status)")
        }
        #expect(try await api.call("GET", "/v1/jobs/\(id)/pages/1").status == 200)
        #expect(try await api.call("GET", "/v1/jobs/\(id)/").status == 404)
        #expect(try await api.call("GET", "/v1//jobs/\(id)").status == 404)
    }

    @Test("HEAD on every GET route: the GET's status and headers")
    func head() async throws {
        let api = try await sharedAPI()
        let id = try await Self.doneJob(api)
        // Its page marked proofread, so that the ground-truth zip has a line (without one it is 404).
        let page = try await api.call("GET", "/v1/jobs/\(id)/pages/1")
        let state = try JSONSerialization.data(withJSONObject: ["state": "proofread"])
        let proofread = try await api.call("PATCH", "/v1/jobs/\(id)/pages/1", headers: ["If-Match": try #require(page.header("ETag"))],
                                           body: .bytes(state, type: "application/json"))
        #expect(proofread.status == 200, "\(proofread.text)")
        let gets = api.service.table.routes.filter { $0.method == "GET" }
        #expect(gets.count >= 12)
        for route in gets {
            var target = route.pattern.template.replacingOccurrences(of: "{id}", with: id).replacingOccurrences(of: "{n}", with: "1")
            if target == "/v1/search" { target += "?q=%E7%9A%84" }  // a query is required (400 without)
            let get = try await api.call("GET", target), head = try await api.call("HEAD", target)
            #expect(head.status == get.status && get.status < 400, "\(target): GET \(get.status), HEAD \(head.status)")
            let names = { (r: APIClient.Reply) in r.headers.map { $0.0.lowercased() }.sorted() }
            #expect(names(head) == names(get), "\(target)")
            #expect(head.header("Content-Type") == get.header("Content-Type") && head.header("ETag") == get.header("ETag"), "\(target)")
        }
    }

    // A page's JSON carries its correction layer: its ETag is the page's revision (ProofreadingAPITests), no range.
    @Test("a page's results, its image and the job's PDF and zips: ETag and Last-Modified, 304 when unchanged, Range (206, Content-Range, 416), If-Range")
    func conditionalAndRange() async throws {
        let api = try await sharedAPI()
        let id = try await Self.doneJob(api)
        for target in ["/v1/jobs/\(id)/result", "/v1/jobs/\(id)/result?format=alto", "/v1/jobs/\(id)/pages/1?format=alto", "/v1/jobs/\(id)/pages/1?format=hocr",
                       "/v1/jobs/\(id)/pages/1/image"] {
            let whole = try await api.call("GET", target)
            #expect(whole.status == 200 && whole.header("Accept-Ranges") == "bytes", "\(target)")
            let etag = try #require(whole.header("ETag"), "\(target)")
            let modified = try #require(whole.header("Last-Modified"), "\(target)")
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
            let again = try await api.call("GET", target)
            #expect(again.header("ETag") == etag && again.body == whole.body, "\(target): a second answer differs")
            let unchanged = try await api.call("GET", target, headers: ["If-None-Match": etag])
            #expect(unchanged.status == 304 && unchanged.body.isEmpty && unchanged.header("ETag") == etag, "\(target)")
            #expect(try await api.call("GET", target, headers: ["If-None-Match": "W/\(etag), \"other\""]).status == 304)
            #expect(try await api.call("GET", target, headers: ["If-Modified-Since": modified]).status == 304)
            #expect(try await api.call("GET", target, headers: ["If-None-Match": "\"other\"", "If-Modified-Since": modified]).status == 200)
            let part = try await api.call("GET", target, headers: ["Range": "bytes=10-19"])
            #expect(part.status == 206 && part.body == whole.body[10..<20], "\(target)")
            #expect(part.header("Content-Range") == "bytes 10-19/\(whole.body.count)")
            let tail = try await api.call("GET", target, headers: ["Range": "bytes=-7"])
            #expect(tail.status == 206 && tail.body == whole.body.suffix(7))
            let rest = try await api.call("GET", target, headers: ["Range": "bytes=\(whole.body.count - 3)-"])
            #expect(rest.status == 206 && rest.body == whole.body.suffix(3))
            let past = try await api.call("GET", target, headers: ["Range": "bytes=\(whole.body.count)-"])
            #expect(past.status == 416 && past.header("Content-Range") == "bytes */\(whole.body.count)" && past.error == "range_not_satisfiable")
            #expect(try await api.call("GET", target, headers: ["Range": "bytes=0-1,5-6"]).status == 200)
            #expect(try await api.call("GET", target, headers: ["Range": "bytes=0-9", "If-Range": "\"stale\""]).status == 200)
            #expect(try await api.call("GET", target, headers: ["Range": "bytes=0-9", "If-Range": etag]).status == 206)
        }
    }

    @Test("the OpenAPI document is the route table's: every route and method, every path parameter, the options' fixed values, the statuses of the wrappers and the router")
    func openAPI() async throws {
        let api = try await sharedAPI()
        let document = try await api.call("GET", "/openapi.json").json
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let table = api.service.table.routes
        #expect(Set(paths.keys) == Set(table.map(\.pattern.template)))
        for route in table {
            let op = try #require(paths[route.pattern.template]?[route.method.lowercased()] as? [String: Any], "\(route.method) \(route.pattern.template)")
            let responses = try #require(op["responses"] as? [String: Any])
            for status in ["400", "414", "421", "431"] { #expect(responses[status] != nil, "\(route.method) \(route.pattern.template): \(status)") }
            #expect(route.changesState == (responses["403"] != nil), "\(route.method) \(route.pattern.template): 403")
            for answer in route.doc.answers { #expect(responses[String(answer.status)] != nil) }
            let names = ((op["parameters"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
            for p in route.pattern.parameters { #expect(names.contains(p.rawValue)) }
        }
        let ocr = try #require(paths["/v1/ocr"]?["post"] as? [String: Any])
        let schemas = Dictionary(((ocr["parameters"] as? [[String: Any]]) ?? []).map { ($0["name"] as? String ?? "", $0["schema"] as? [String: Any] ?? [:]) },
                                 uniquingKeysWith: { a, _ in a })
        #expect(schemas["mode"]?["enum"] as? [String] == ["ppocr"])
        #expect(schemas["reading-order"]?["enum"] as? [String] == ["page"])
        #expect(schemas["page-rotation"]?["enum"] as? [String] == ["auto"])
        #expect(schemas["ruby"]?["enum"] as? [String] == ["drop", "separate", "inline"])
        #expect(schemas["min-line-confidence"]?["enum"] as? [Double] == [0.5])
        #expect(schemas["format"]?["enum"] as? [String] == ["json", "txt", "alto", "page", "hocr", "html", "pdf"])
        #expect(document["security"] == nil)
        let secured = try await APIClient.make([], token: "s3cret-token-0123456789abcdef", start: false)
        let securedDocument = try await secured.call("GET", "/openapi.json").json
        #expect(securedDocument["security"] != nil)
        let status = ((securedDocument["paths"] as? [String: [String: Any]])?["/v1/status"]?["get"] as? [String: Any])?["responses"] as? [String: Any]
        #expect(status?["401"] != nil)
    }
}
