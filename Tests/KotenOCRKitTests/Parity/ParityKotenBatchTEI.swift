import Foundation
import Testing
@testable import KotenOCRKit

/// `koten/batch_tei`: one `--sourcedir pages` run over the three koten pages (order from
/// `batch_info.json`); every page's files and the multi-page TEI byte for byte.
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
        var pages: [TEIPage] = []
        for name in order {
            let stem = PageOutput.stem(ofImageName: name)
            let pageCase = ParityCase(mode: "koten", kind: "pages", folder: stem)
            let run = try await KotenParityRunner.runPage(raw: RawOutputs(pageCase), recogniser: AnswerTableRecogniser(pageCase),
                                                          imagePath: "pages/\(name)")
            for file in PageOutput.files(stem: stem, page: run.page, image: run.image, mode: .koten) {
                let expected = try String(contentsOf: dir.appendingPathComponent(file.name), encoding: .utf8)
                try Compare.text(file.contents, expected, "batch \(file.name)")
            }
            pages.append(TEIPage(page: run.page, image: run.image))
        }
        let tei = KotenTEI.file(firstStem: PageOutput.stem(ofImageName: order[0]), pages: pages)
        #expect(tei.name == "11892692_0004_tei.xml")
        try Compare.text(tei.contents, String(contentsOf: dir.appendingPathComponent(tei.name), encoding: .utf8), tei.name)
    }
}
