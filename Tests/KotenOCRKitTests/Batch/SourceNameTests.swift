import Foundation
import Testing
@testable import KotenOCRKit

/// A page's source named apart from the file read (`BatchInput.sourceName`: how `koten-ocr serve` names an upload
/// by its client's file name, docs/formats.md "Which image"), and PAGE's `Created` a batch's reading time
/// (`BatchOptions.readingTime`): every format names the source, none names the file.
@Suite("Batch: the source's name and the reading time")
struct SourceNameTests {
    @Test("an input named 'scan 1.png' read from a stored file: json, ALTO, PAGE, hOCR and html name 'scan 1.png'; PAGE's Created the fixed reading time")
    func namedSource() async throws {
        let folder = try TestPaths.temporaryDirectory("source-name")
        defer { try? FileManager.default.removeItem(at: folder) }
        let stored = try BatchFixtures.writePages(3..<4, to: folder.appendingPathComponent("run"), lines: true, name: { _ in "0001.png" })[0]
        var input = BatchInput(path: stored.path, relativePath: "0001.png")
        input.sourceName = "scan 1.png"
        let out = folder.appendingPathComponent("out")
        var options = BatchOptions(outputDirectory: out, formats: [.json, .alto, .pageXML, .hocr, .html])
        options.readingTime = .fixed(Date(timeIntervalSince1970: 1_700_000_000))
        let engine = try KotenOCR(configuration: OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels(),
                                                                  tuneAllocator: false, watchMemoryPressure: false))
        let plan = try BatchPlan.prepare(files: [], inputs: [input], options: options)
        let progress = try await BatchRunner(engine: engine, options: options).run(plan) { _ in }
        #expect(progress.read == 1 && progress.failures == 0)
        func text(_ name: String) throws -> String { try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8) }
        let json = try JSONAccess.dict(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("0001.json"))))
        #expect(try JSONAccess.dict(json["source"])["path"] as? String == "scan 1.png")
        #expect(try text("0001.alto.xml").contains("<fileName>scan 1.png</fileName>"))
        #expect(try text("0001.page.xml").contains("imageFilename=\"scan 1.png\""))
        #expect(try text("0001.page.xml").contains("<Created>2023-11-14T22:13:20Z</Created>"))
        #expect(try text("0001.hocr").contains("image &quot;scan 1.png&quot;") || text("0001.hocr").contains("image \"scan 1.png\""))
        #expect(try text("0001.html").contains("<title>scan 1.png — KotenOCR</title>"))
        for name in ["0001.json", "0001.alto.xml", "0001.page.xml", "0001.hocr", "0001.html"] {
            #expect(try !text(name).contains(folder.path), "\(name) names the stored file")
        }
    }
}
