import Foundation

/// A JSON value written as a Swift literal: the OpenAPI document's pieces.
indirect enum JSON: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
                    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    case string(String), int(Int), double(Double), bool(Bool), array([JSON]), object([String: JSON])

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(floatLiteral value: Double) { self = .double(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSON...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSON)...) { self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last })) }

    /// As Foundation's JSON objects (for `JSONSerialization`).
    var foundation: Any {
        switch self {
        case .string(let s): s
        case .int(let i): i
        case .double(let d): d
        case .bool(let b): b
        case .array(let a): a.map(\.foundation)
        case .object(let o): o.mapValues(\.foundation)
        }
    }

    /// The text of `strings` as a JSON array.
    static func strings(_ strings: [String]) -> JSON { .array(strings.map { .string($0) }) }
}

/// What the OpenAPI document says of one route (besides what the route table and its wrappers say: the method,
/// the path and its parameters, who may call it, and the errors the router and the wrappers give).
struct OperationDoc: Sendable {
    /// One answer that is not an error: its status, what it is, its content by media type (each with its schema)
    /// and the headers it always has.
    struct Answer: Sendable {
        let status: Int
        let description: String
        var content: [String: JSON] = [:]
        var headers: [String: String] = [:]
    }

    /// A query parameter (also a multipart form field where the route takes a body).
    struct Parameter: Sendable {
        let name: String
        let description: String
        let schema: JSON
    }

    var summary: String
    var parameters: [Parameter] = []
    /// Request headers it reads (`If-Match`), none required (the handler answers their absence).
    var headers: [Parameter] = []
    /// The route takes a JSON object as its body, of this schema.
    var jsonBody: JSON? = nil
    /// The route takes an upload (`requestBodies/Upload`).
    var takesUpload = false
    var answers: [Answer]
    /// The errors the handler itself may give.
    var errors: [APIError.Code] = []
    /// The document is answered with validators and in ranges (`Representation`): 304, 206 and 416 are added.
    var conditional = false
}

/// The OpenAPI 3.0 document of the API (`GET /openapi.json`), made from the route table: every route with its
/// parameters (the options' fixed values from `OptionVocabulary` and this server's configuration), every status it
/// answers (its handler's, its wrappers' and the router's) with the error codes of each, and the content type and
/// schema of every answer.
enum OpenAPI {
    /// The errors any request may be answered with before its route is reached: its URL (a control character, too
    /// long), its headers (too long).
    static let routerErrors: [APIError.Code] = [.badPath, .uriTooLong, .headersTooLarge]
    /// The errors of a request with a body.
    static let bodyErrors: [APIError.Code] = [.tooLarge, .badBody]

    static func document(routes: [Route], wrappers: [any APIWrapper], secured: Bool, serverURL: String?) -> String {
        var paths: [String: [String: JSON]] = [:]
        for route in routes {
            var item = paths[route.pattern.template] ?? [:]
            item[route.method.lowercased()] = operation(route, wrappers: wrappers, secured: secured)
            paths[route.pattern.template] = item
        }
        var document: [String: JSON] = [
            "openapi": "3.0.3",
            "info": ["title": "KotenOCR server", "version": "1",
                     "description": "OCR of Japanese books over one engine (docs/serve.md). Every GET route answers HEAD too."],
            "paths": .object(paths.mapValues { .object($0) }),
            "components": components(secured: secured),
        ]
        if secured { document["security"] = [["bearer": []]] }
        if let serverURL { document["servers"] = [["url": .string(serverURL)]] }
        let data = (try? JSONSerialization.data(withJSONObject: JSON.object(document).foundation,
                                                options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    private static func operation(_ route: Route, wrappers: [any APIWrapper], secured: Bool) -> JSON {
        let doc = route.doc
        var parameters: [JSON] = route.pattern.parameters.map { p in
            ["in": "path", "name": .string(p.rawValue), "required": true, "schema": p.schema, "description": .string(p.description)]
        }
        parameters += doc.parameters.map { p in
            ["in": "query", "name": .string(p.name), "schema": p.schema, "description": .string(p.description)]
        }
        parameters += doc.headers.map { p in
            ["in": "header", "name": .string(p.name), "schema": p.schema, "description": .string(p.description)]
        }
        var responses: [String: JSON] = [:]
        for answer in doc.answers { responses[String(answer.status)] = response(answer) }
        if doc.conditional {
            responses["304"] = ["description": "not modified: the document is the one the client has (If-None-Match, If-Modified-Since)"]
            if let whole = doc.answers.first(where: { $0.status == 200 }) {
                responses["206"] = response(OperationDoc.Answer(status: 206, description: "the part the Range header asked for",
                                                                content: whole.content, headers: ["Content-Range": "the part and the whole's size"]))
            }
        }
        var errors = routerErrors + doc.errors + wrappers.flatMap { $0.answers(for: route) }
        if doc.takesUpload || doc.jsonBody != nil { errors += bodyErrors }
        if doc.conditional { errors.append(.rangeNotSatisfiable) }
        for (status, codes) in Dictionary(grouping: Set(errors), by: \.status) {
            responses[String(status)] = errorResponse(codes.map(\.rawValue).sorted())
        }
        var op: [String: JSON] = ["summary": .string(doc.summary), "responses": .object(responses)]
        if !parameters.isEmpty { op["parameters"] = .array(parameters) }
        if doc.takesUpload { op["requestBody"] = ["$ref": "#/components/requestBodies/Upload"] }
        if let body = doc.jsonBody { op["requestBody"] = ["required": true, "content": ["application/json": ["schema": body]]] }
        if secured && route.access == .open { op["security"] = [] }
        return .object(op)
    }

    private static func response(_ answer: OperationDoc.Answer) -> JSON {
        var out: [String: JSON] = ["description": .string(answer.description)]
        if !answer.content.isEmpty { out["content"] = .object(answer.content.mapValues { ["schema": $0] }) }
        if !answer.headers.isEmpty {
            out["headers"] = .object(answer.headers.mapValues { ["description": .string($0), "required": true, "schema": ["type": "string"]] })
        }
        return .object(out)
    }

    /// An error answer: `{"error", "message"}` with the codes it may carry.
    private static func errorResponse(_ codes: [String]) -> JSON {
        var headers: [String: JSON] = [:]
        let required: [(String, String, [String])] = [("Allow", "the methods the route takes", ["method_not_allowed"]),
                                                     ("Retry-After", "seconds to wait", ["too_many_requests", "queue_full", "memory"]),
                                                     ("WWW-Authenticate", "Bearer", ["unauthorised"]),
                                                     ("Content-Range", "bytes */<size>", ["range_not_satisfiable"])]
        for (name, description, needs) in required where !codes.isEmpty && codes.allSatisfy(needs.contains) {
            headers[name] = ["description": .string(description), "required": true, "schema": ["type": "string"]]
        }
        var out: [String: JSON] = [
            "description": .string(codes.joined(separator: ", ")),
            "content": ["application/json": ["schema": [
                "type": "object", "required": ["error", "message"],
                "properties": ["error": ["type": "string", "enum": .strings(codes)], "message": ["type": "string"]],
            ]]],
        ]
        if !headers.isEmpty { out["headers"] = .object(headers) }
        return .object(out)
    }

    private static func components(secured: Bool) -> JSON {
        var components: [String: JSON] = [
            "schemas": OpenAPISchemas.all,
            "requestBodies": ["Upload": [
                "description": "the page or pages: the file as the body (its Content-Type an image's, application/pdf, application/zip or application/octet-stream), or multipart/form-data with one `file` field per file (and the options as form fields); a job of a IIIF manifest: its `manifest` field, in multipart/form-data or application/x-www-form-urlencoded",
                "content": [
                    "multipart/form-data": ["schema": ["type": "object", "properties": ["file": ["type": "string", "format": "binary"]]]],
                    "application/x-www-form-urlencoded": ["schema": ["type": "object", "properties": ["manifest": ["type": "string"]]]],
                    "image/*": ["schema": ["type": "string", "format": "binary"]],
                    "application/pdf": ["schema": ["type": "string", "format": "binary"]],
                    "application/zip": ["schema": ["type": "string", "format": "binary"]],
                    "application/octet-stream": ["schema": ["type": "string", "format": "binary"]],
                ],
            ]],
        ]
        if secured { components["securitySchemes"] = ["bearer": ["type": "http", "scheme": "bearer"]] }
        return .object(components)
    }
}

extension PathParameter {
    var schema: JSON {
        switch self {
        case .id: ["type": "string", "pattern": "^[0-9a-f]{32}$"]
        case .n: ["type": "integer", "minimum": 1, "maximum": 999_999_999]
        }
    }

    var description: String {
        switch self {
        case .id: "the job's id (32 hex digits)"
        case .n: "the page number, from 1, written without sign or leading zeros"
        }
    }
}
