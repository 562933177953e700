import Foundation
import Testing
@testable import KotenOCRKit
@testable import KotenOCRServer
import KotenOCRTestSupport

/// Every export takes the current text (issue 36): a real page corrected through the API (one line's text, one line
/// marked as not text), then each page format, the whole text, a zip and the job's PDF carry the correction and
/// leave the line out; `?text=model` gives the engine's; ALTO and PAGE with the corrections validate against their
/// schemas and keep the engine's reading beside the corrected one.
@Suite("serve: exports with corrections, in-process")
struct ExportCorrectionsTests {
    @Test("a corrected page in txt, alto, page, hocr, html, the whole text, a zip, the PDF and the IIIF manifest; text=model the engine's")
    func exports() async throws {
        let api = try await sharedAPI()
        let dir = try TestPaths.temporaryDirectory("export-corrections")
        let posted = try await api.call("POST", "/v1/jobs", body: .multipart(fields: [:], files: [(APITests.page, nil, "image/png")]))
        let id = try #require(posted.json["id"] as? String, "\(posted.text)")
        _ = try await api.finished(id)
        let url = "/v1/jobs/\(id)/pages/1"
        let model = try await api.call("GET", "\(url)?format=txt").text
        let modelZip = try await api.call("GET", "/v1/jobs/\(id)/result?format=txt-zip").body
        let page = try await api.call("GET", url)
        let lines = (page.json["lines"] as? [[String: Any]]) ?? []
        let target = try #require(lines.first { ($0["text"] as? String)?.contains("目的") == true })
        let gone = try #require(lines.last { $0["id"] as? String != target["id"] as? String && !(($0["text"] as? String) ?? "").isEmpty })
        let (targetID, goneID) = (try #require(target["id"] as? String), try #require(gone["id"] as? String))
        let (targetText, goneText) = (try #require(target["text"] as? String), try #require(gone["text"] as? String))
        let corrected = "校正済みの行"
        let edit = try JSONSerialization.data(withJSONObject: ["lines": [["id": targetID, "text": corrected], ["id": goneID, "deleted": true]]])
        let patched = try await api.call("PATCH", url, headers: ["If-Match": try #require(page.header("ETag"))],
                                         body: .bytes(edit, type: "application/json"))
        #expect(patched.status == 200, "\(patched.text.prefix(300))")

        let txt = try await api.call("GET", "\(url)?format=txt").text
        #expect(txt.contains(corrected) && !txt.contains(targetText) && !txt.contains(goneText), "\(txt)")
        #expect(try await api.call("GET", "\(url)?format=txt&text=model").text == model)
        #expect(try await api.call("GET", "\(url)?format=txt&text=other").error == "bad_option")
        for format in ["hocr", "html"] {
            let body = try await api.call("GET", "\(url)?format=\(format)").text
            #expect(body.contains(corrected) && !body.contains(targetText), "\(format)")
        }
        let alto = try await api.call("GET", "\(url)?format=alto")
        #expect(alto.text.contains("CONTENT=\"\(corrected)\"") && alto.text.contains("<ALTERNATIVE PURPOSE=\"OCR\">\(targetText)</ALTERNATIVE>"))
        #expect(!alto.text.contains(goneText))
        let pageXML = try await api.call("GET", "\(url)?format=page")
        #expect(pageXML.text.contains("<Unicode>\(corrected)</Unicode>") && pageXML.text.contains("<Unicode>\(targetText)</Unicode>"))
        #expect(!pageXML.text.contains(goneText))
        for (reply, name, schema) in [(alto, "p.alto.xml", "alto-4-3.xsd"), (pageXML, "p.page.xml", "pagecontent-2019-07-15.xsd")] {
            let file = dir.appendingPathComponent(name)
            try reply.body.write(to: file)
            let verdict = try FormatCheckers.validate(file, schema: schema)
            #expect(verdict.status == 0, "\(name): \(verdict.stderr)")
        }

        let whole = try await api.call("GET", "/v1/jobs/\(id)/result?format=txt").text
        #expect(whole == txt + "\u{0C}")
        #expect(try await api.call("GET", "/v1/jobs/\(id)/result?format=txt&text=model").text == model + "\u{0C}")
        let zip = try await api.call("GET", "/v1/jobs/\(id)/result?format=txt-zip")
        #expect(zip.status == 200 && zip.body != modelZip)
        let zipFile = dir.appendingPathComponent("r.zip")
        try zip.body.write(to: zipFile)
        let unzipped = try runProcess(URL(fileURLWithPath: "/usr/bin/unzip"), ["-p", zipFile.path, "0001.txt"])
        #expect(unzipped.stdout == txt)
        #expect(try await api.call("GET", "/v1/jobs/\(id)/result?format=txt-zip&text=model").body == modelZip)
        let pdf = try await api.call("GET", "/v1/jobs/\(id)/result?format=pdf")
        let pdfFile = dir.appendingPathComponent("job.pdf")
        try pdf.body.write(to: pdfFile)
        #expect(try FormatCheckers.run("qpdf", ["--check", pdfFile.path]).status == 0)
        let pdfText = withoutWhitespace(try KotenOCRKitTests.pdfText(pdfFile))
        #expect(pdfText.contains(corrected) && !pdfText.contains(withoutWhitespace(targetText)), "\(pdfText)")
        let modelPDF = dir.appendingPathComponent("model.pdf")
        try await api.call("GET", "/v1/jobs/\(id)/result?format=pdf&text=model").body.write(to: modelPDF)
        #expect(withoutWhitespace(try KotenOCRKitTests.pdfText(modelPDF)).contains(withoutWhitespace(targetText)))

        // The IIIF manifest: each page's lines as annotations on its canvas, the current text; iiif-prezi3 loads it.
        let iiif = try await api.call("GET", "/v1/jobs/\(id)/result?format=iiif")
        #expect(iiif.status == 200 && iiif.header("Content-Type")?.hasPrefix("application/ld+json") == true, "\(iiif.text.prefix(300))")
        let manifestFile = dir.appendingPathComponent("manifest.json")
        try iiif.body.write(to: manifestFile)
        let checked = try IIIFServer.check(manifestFile, base: "http://127.0.0.1:8080", folder: dir)
        let canvases = try #require(checked["canvases"] as? [[String: Any]])
        let annotated = (canvases.first?["lines"] as? [[String: Any]])?.compactMap { $0["text"] as? String } ?? []
        #expect(canvases.count == 1 && canvases.first?["id"] as? String == "http://127.0.0.1:8080/v1/jobs/\(id)/pages/1/canvas")
        #expect(annotated.contains(corrected) && !annotated.contains(targetText) && !annotated.contains(goneText), "\(annotated)")
        let modelIIIF = try await api.call("GET", "/v1/jobs/\(id)/result?format=iiif&text=model")
        try modelIIIF.body.write(to: manifestFile)
        let modelLines = ((try IIIFServer.check(manifestFile, base: "http://127.0.0.1:8080", folder: dir)["canvases"] as? [[String: Any]])?
            .first?["lines"] as? [[String: Any]])?.compactMap { $0["text"] as? String } ?? []
        #expect(modelLines.contains(targetText) && modelLines.contains(goneText) && !modelLines.contains(corrected))

        // A second edit makes new files (the old ones gone): the export follows the page.
        let again = try JSONSerialization.data(withJSONObject: ["lines": [["id": targetID, "text": corrected + "二"]]])
        let second = try await api.call("PATCH", url, headers: ["If-Match": try #require(patched.header("ETag"))],
                                        body: .bytes(again, type: "application/json"))
        #expect(second.status == 200)
        #expect(try await api.call("GET", "/v1/jobs/\(id)/result?format=txt").text.contains(corrected + "二"))
        #expect(try await api.call("DELETE", "/v1/jobs/\(id)").status == 204)
    }
}
