import Foundation
import Testing
@testable import KotenOCRKit
@testable import KotenOCRServer

/// One option vocabulary (`OptionVocabulary`): each option's parser and message once, the same for `koten-ocr`,
/// `koten-ocr serve` and the HTTP API; and `serve` takes the engine's options as the command line does, built into
/// one configuration (`EngineOptions.configuration`).
@Suite("the option vocabulary the CLI, serve and the API share")
struct OptionVocabularyTests {
    /// An option, a bad value, and what it takes.
    static let bad: [(String, String, String)] = [
        ("mode", "tesseract", "must be one of koten, ndl, ppocr"),
        ("reading-order", "sideways", "must be page or ndl"),
        ("page-rotation", "45", "must be auto, 0, 90, 180 or 270"),
        ("min-line-confidence", "high", "needs a number from 0 to 1"),
    ]

    @Test("a bad value has the same message from the command line, serve's command line and the API (flag aside)")
    func sameMessage() async throws {
        let api = try await sharedAPI()
        for (name, value, takes) in Self.bad {
            let cli = try runProcess(TestPaths.cli, ["--\(name)", value, "x.png"])
            #expect(cli.status == 2 && cli.stderr == "koten-ocr: --\(name) \(takes), not '\(value)'\n", "\(cli.stderr)")
            let serve = try runProcess(TestPaths.cli, ["serve", "--\(name)=\(value)"])
            #expect(serve.status == 2 && serve.stderr == "koten-ocr: --\(name) \(takes), not '\(value)'\n", "\(serve.stderr)")
            let reply = try await api.call("POST", "/v1/ocr?\(name)=\(value)", body: .raw(APITests.page, type: "image/png"))
            #expect(reply.status == 400 && reply.json["message"] as? String == "\(name) \(takes), not '\(value)'", "\(reply.text)")
        }
        let ruby = try await api.call("GET", "/v1/jobs/\(String(repeating: "0", count: 32))/pages/1?format=docx")
        #expect(ruby.status == 404)  // no such job comes first; the format's message is the vocabulary's
        #expect(throws: OptionError(description: "format must be one of json, txt, alto, page, hocr, html, pdf, not 'docx'")) {
            try OptionVocabulary.format(among: OCRService.formats).parse("docx")
        }
        #expect(throws: OptionError(description: "--memory-budget takes a size such as 200MB or 1.5GB, not 'lots'")) {
            var reader = ArgumentReader(["--memory-budget", "lots"])
            _ = reader.next()
            var engine = EngineOptions()
            _ = try engine.take(&reader)
        }
        #expect(throws: OptionError(description: "--jobs needs a value")) {
            var reader = ArgumentReader(["--jobs"])
            _ = reader.next()
            var engine = EngineOptions()
            _ = try engine.take(&reader)
        }
    }

    @Test("serve takes the engine's options: the server's reading order is the one given, in /openapi.json and in its refusals")
    func serveEngineOptions() throws {
        let dir = try TestPaths.temporaryDirectory("serve-engine-options")
        let server = try ServeProcess(work: dir.appendingPathComponent("work"), ["--reading-order", "ndl", "--page-rotation", "0"])
        let document = try curl(server.base + "/openapi.json").json
        let parameters = (((document["paths"] as? [String: Any])?["/v1/ocr"] as? [String: Any])?["post"] as? [String: Any])?["parameters"] as? [[String: Any]] ?? []
        let enums = Dictionary(parameters.map { ($0["name"] as? String ?? "", ($0["schema"] as? [String: Any])?["enum"] as? [Any] ?? []) },
                               uniquingKeysWith: { a, _ in a })
        #expect(enums["reading-order"] as? [String] == ["ndl"] && enums["page-rotation"] as? [String] == ["0"], "\(enums)")
        let refused = try curl(server.base + "/v1/ocr?reading-order=page", ["-H", "Content-Type: image/png", "--data-binary", "@\(APITests.page.path)"])
        #expect(refused.status == 400 && (refused.json["message"] as? String ?? "").contains("reading order is ndl"), "\(refused.text)")
        server.kill9()
    }

    @Test("ArgumentReader: --name value, --name=value, flags and other arguments as given")
    func reader() throws {
        var reader = ArgumentReader(["--mode=ndl", "-q", "--models", "dir", "page.png", "--x=a=b"])
        var seen: [String] = []
        while let flag = reader.next() {
            switch flag {
            case "--mode", "--models", "--x": seen.append("\(flag) \(try reader.value()) (\(reader.raw))")
            default: seen.append("\(flag) (\(reader.raw))")
            }
        }
        #expect(seen == ["--mode ndl (--mode=ndl)", "-q (-q)", "--models dir (--models)", "page.png (page.png)", "--x a=b (--x=a=b)"])
        #expect(reader.next() == nil)
    }
}
