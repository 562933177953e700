import Foundation
import KotenOCRKit

/// A request's options and files, read with the vocabulary the command line shares (`OptionVocabulary`).
extension OCRService {
    struct RequestOptions {
        var format = ResultFormat.json
        var ruby = ResultFormat.RubyStyle.drop
    }

    /// The request's options. The engine's (mode, reading order, page rotation, line confidence) are the server's:
    /// a request may name them only with the server's values. Throws `bad_option`.
    func requestOptions(_ p: [String: String], allowFormat: Bool) throws(APIError) -> RequestOptions {
        var o = RequestOptions()
        let config = engine.configuration
        let vocabulary = OptionVocabulary.self
        func bad(_ text: String) -> APIError { APIError(.badOption, text) }
        do {
            if let v = p["format"] {
                guard allowFormat else { throw bad("format is chosen when a job's result is fetched, not when it is posted") }
                o.format = try vocabulary.format(among: Self.formats).parse(v)
            }
            if let v = p["ruby"] { o.ruby = try vocabulary.ruby.parse(v) }
            if let v = p["mode"], try vocabulary.mode.parse(v) != config.mode {
                throw bad("this server reads mode \(config.mode.rawValue) (koten-ocr serve --mode)")
            }
            if let v = p["reading-order"], try vocabulary.readingOrder.parse(v) != config.readingOrder {
                throw bad("this server's reading order is \(config.readingOrder.rawValue) (koten-ocr serve --reading-order)")
            }
            if let v = p["page-rotation"], try vocabulary.pageRotation.parse(v) != config.pageRotation {
                throw bad("this server's page rotation is \(config.pageRotation.map { String($0.rawValue) } ?? "auto") (koten-ocr serve --page-rotation)")
            }
            if let v = p["min-line-confidence"], try vocabulary.minLineConfidence.parse(v) != config.ppocrMinLineConfidence {
                throw bad("this server's min-line-confidence is \(config.ppocrMinLineConfidence) (koten-ocr serve --min-line-confidence)")
            }
        } catch let error as OptionError {
            throw bad(error.description)
        } catch let error as APIError {
            throw error
        } catch {
            throw bad("\(error)")
        }
        return o
    }

    /// The engine's options a request may name, as the OpenAPI document gives them: each with this server's value
    /// alone (`ruby`: any of its styles).
    var engineParameters: [OperationDoc.Parameter] {
        let config = engine.configuration
        let vocabulary = OptionVocabulary.self
        func fixed(_ name: String, _ value: JSON, _ what: String) -> OperationDoc.Parameter {
            OperationDoc.Parameter(name: name, description: "\(what): this server's only (koten-ocr serve --\(name))",
                                   schema: ["type": .string(name == vocabulary.minLineConfidence.name ? "number" : "string"), "enum": [value]])
        }
        return [
            fixed(vocabulary.mode.name, .string(config.mode.rawValue), "the mode"),
            fixed(vocabulary.readingOrder.name, .string(config.readingOrder.rawValue), "the reading order"),
            fixed(vocabulary.pageRotation.name, .string(config.pageRotation.map { String($0.rawValue) } ?? "auto"), "the page rotation"),
            OperationDoc.Parameter(name: vocabulary.ruby.name, description: "how txt shows ruby (default drop)",
                                   schema: ["type": "string", "enum": .strings(vocabulary.ruby.values ?? [])]),
            fixed(vocabulary.minLineConfidence.name, .double(Double(config.ppocrMinLineConfidence)), "the line confidence under which a line is left out"),
        ]
    }

    /// The `format` parameter of a route that answers in `formats`.
    func formatParameter(_ formats: [ResultFormat]) -> OperationDoc.Parameter {
        OperationDoc.Parameter(name: "format", description: "the format of the answer (docs/formats.md)",
                               schema: ["type": "string", "enum": .strings(formats.map(\.rawValue))])
    }

    /// The files of a request: multipart fields `file`, or the raw body. Throws `empty_body` (none, or an empty
    /// one) or `unsupported_type` (a declared content type that is none of the server's).
    func uploads(_ request: APIRequest) throws(APIError) -> [HTTPUpload] {
        let http = request.http
        let files = http.isMultipart ? http.uploads.filter { $0.field == "file" } : http.uploads
        guard !files.isEmpty, files.allSatisfy({ $0.size > 0 }) else {
            throw APIError(.emptyBody, http.isMultipart ? "no file in form field 'file' (or an empty one)" : "the request has no body")
        }
        for file in files where !Self.acceptsDeclared(file.contentType) {
            throw APIError(.unsupportedType, "\(file.contentType?.prefix(80) ?? "?") is not an image, PDF, TIFF or zip")
        }
        return files
    }

    /// Content types accepted as declared by a client (anything else is 415 before the bytes are looked at).
    static func acceptsDeclared(_ type: String?) -> Bool {
        guard let type, !type.isEmpty else { return true }
        return type.hasPrefix("image/") || ["application/pdf", "application/zip", "application/x-zip-compressed",
                                            "application/octet-stream"].contains(type)
    }

    /// Counts one OCR request of the client: past `--client-rate` a minute, `too_many_requests`.
    func admit(_ request: APIRequest) throws(APIError) {
        guard clientRate.admit(client: request.client) else {
            throw APIError(.tooManyRequests, "more than \(clientRate.perMinute) OCR requests a minute from this client", headers: [("Retry-After", "60")])
        }
    }

    static func contentType(_ format: ResultFormat) -> String {
        switch format {
        case .json: "application/json; charset=utf-8"
        case .txt: "text/plain; charset=utf-8"
        case .alto, .pageXML: "application/xml; charset=utf-8"
        case .hocr, .html: "text/html; charset=utf-8"
        case .pdf: "application/pdf"
        default: "application/octet-stream"
        }
    }
}
