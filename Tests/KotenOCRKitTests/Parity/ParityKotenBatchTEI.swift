import Foundation
import Testing
@testable import KotenOCRKit

/// `koten/batch_tei`: one `--sourcedir pages` run over the three koten pages (order from
/// `batch_info.json`); every page's files and the multi-page TEI byte for byte, named by the engine's one
/// naming authority (`PageTask.outputFile`, `ResultFormat.fileName(stem:)`).
extension ParityTests {
    @Test func kotenBatchTEI() async throws {
        do {
            try await checkKotenBatch()
            print("PARITY koten/batch_tei: PASS")
        } catch {
            print("PARITY koten/batch_tei: FAIL (\(error))")
            throw error
        }
    }

    private func checkKotenBatch() async throws {
        let dir = Fixtures.parityRoot.appendingPathComponent("koten/batch_tei")
        let info = try JSONAccess.dict(Fixtures.json(dir.appendingPathComponent("batch_info.json")))
        let order = try JSONAccess.array(info["processing_order"]).map { try JSONAccess.string($0) }
        #expect(order.count == 3)
        let tasks = order.map { PageTask(input: BatchInput(path: "pages/\($0)", relativePath: $0), page: 0, pageCount: 1) }
        var tei = TEIRun()
        for task in tasks {
            let pageCase = ParityCase(mode: "koten", kind: "pages", folder: task.outputStem)
            let run = try await KotenParityRunner.runPage(raw: RawOutputs(pageCase), recogniser: AnswerTableRecogniser(pageCase),
                                                          imagePath: task.input.path)
            let reference = ReferencePage(mode: .koten, page: run.page, image: run.image, jsonStyle: KotenPage.jsonStyle)
            for format in [ResultFormat.xml, .txt, .ndlJSON] {
                let name = task.outputFile(format)
                // NDL Koten OCR-Lite names its own JSON <stem>.json; the engine writes it as <stem>.ndl.json.
                let golden = format == .ndlJSON ? task.outputStem + ".json" : name
                let expected = try String(contentsOf: dir.appendingPathComponent(golden), encoding: .utf8)
                let contents = try #require(format.render(reference).flatMap { String(data: $0, encoding: .utf8) })
                try Compare.text(contents, expected, "batch \(name)")
            }
            tei.add(reference)
        }
        let name = try #require(tasks.first).outputFile(.tei)
        #expect(name == "11892692_0004_tei.xml")
        let contents = try #require(String(data: tei.render(), encoding: .utf8))
        try Compare.text(contents, String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8), name)
    }
}
