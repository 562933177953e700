import Foundation
import Testing
@testable import KotenOCRKit

/// The test subset of `make sweep` (Tests/Fixtures/sweep, written by `scripts/quality/sweep.py --fixtures`; README
/// there): one page per kind of loss issue 34 found, each held at the ordered CER it reads at now (`maxCER` in
/// cases.json; docs/quality.md, "The sweep"). Before the fixes each of these read at 10–100 %.
@Suite("Sweep subset (ppocr)", .serialized)
struct SweepTests {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        let name: String, file: String, family: String, writing: String, maxCER: Double
        var testDescription: String { name }
    }

    static let folder = TestPaths.fixtures.appendingPathComponent("sweep")
    static let cases: [Case] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("cases.json")),
              let cases = try? JSONDecoder().decode([Case].self, from: data) else { return [] }
        return cases
    }()
    static let engine: Result<KotenOCR, Error> = Result {
        try KotenOCR(configuration: OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels(),
                                                     tuneAllocator: false, watchMemoryPressure: false))
    }

    /// Each page is read once for all the tests that look at it.
    actor Reads {
        var pages: [String: PageResult] = [:]
        func page(_ file: String) async throws -> PageResult {
            if let page = pages[file] { return page }
            let page = try await SweepTests.engine.get().read(SweepTests.folder.appendingPathComponent(file))
            pages[file] = page
            return page
        }
    }
    static let reads = Reads()

    static func read(_ name: String) async throws -> (page: PageResult, truth: [String]) {
        let c = try #require(cases.first { $0.name == name }, "\(name) not in cases.json")
        let page = try await reads.page(c.file)
        let truth = try String(contentsOf: folder.appendingPathComponent("\(name).txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        return (page, truth)
    }

    @Test("the subset is there (a missing cases.json would test nothing)")
    func subsetPresent() {
        #expect(Self.cases.count >= 8)
        #expect(Set(Self.cases.map { $0.family.split(separator: "/")[0] }).count >= 6)
    }

    @Test("each page reads at or under its bound (ordered CER, white space aside)", arguments: cases)
    func bound(_ c: Case) async throws {
        let (page, truth) = try await Self.read(c.name)
        let cer = characterErrorRate(withoutWhitespace(page.text), reference: withoutWhitespace(truth.joined()))
        #expect(cer <= c.maxCER, "\(c.name): CER \(cer) > \(c.maxCER): \(page.text)")
    }

    @Test("a long column read upright, with evidence (was: turned 180°, no line)")
    func tiltedColumn() async throws {
        let (page, _) = try await Self.read("tilt_v80__+0.5deg")
        #expect(page.rotation == .upright)
        #expect(!page.textLines.isEmpty)
        #expect(page.rotationEvidence != nil)
    }

    @Test("a page under salt and pepper is cleaned before detection, a clean page is not (SaltAndPepper)")
    func saltAndPepper() async throws {
        let (noisy, _) = try await Self.read("noise_v40__sp10pc")
        let reasons = noisy.detector?.passes.map(\.reason) ?? []
        #expect(reasons.prefix(2) == ["page", SaltAndPepper.passReason], "\(reasons)")
        #expect(!noisy.textLines.isEmpty)
        for clean in ["tategaki_serif__32px-4col", "narrow_v__64px", "jpeg_v40__q40"] {
            let (page, _) = try await Self.read(clean)
            #expect(page.detector?.passes.contains { $0.reason == SaltAndPepper.passReason } == false, "\(clean)")
        }
    }

    @Test("a page number at the foot, left of where the block starts: the page's last line, kind pageNumber (was: read first)",
          arguments: ["pagenumber_h__bottom-left", "pagenumber_v__bottom-left"])
    func pageNumberLast(_ name: String) async throws {
        let (page, truth) = try await Self.read(name)
        let last = try #require(page.textLines.last)
        #expect(last.text == truth.last && last.kind == "pageNumber", "\(page.textLines.map(\.text))")
        #expect(page.textLines.filter { $0.kind == "pageNumber" }.count == 1)
        #expect(page.textLines.first?.text != truth.last)
    }

    @Test("a small kana read full-size is set small from its ink (ュ, not ユ; SmallKanaReform), saying so in characters")
    func smallKanaReformed() async throws {
        let (page, truth) = try await Self.read("tategaki_sans__32px-4col")
        let text = withoutWhitespace(page.text), expected = withoutWhitespace(truth.joined())
        #expect(text.contains("チューリップ") && !text.contains("チユーリップ"), "\(page.text)")
        let reformed = page.textLines.flatMap(\.characters).filter { $0.foundBy == SmallKana.foundBy && $0.text == "ュ" }
        #expect(!reformed.isEmpty)
        #expect(characterErrorRate(text, reference: expected) == 0, "\(page.text)")
    }
}
