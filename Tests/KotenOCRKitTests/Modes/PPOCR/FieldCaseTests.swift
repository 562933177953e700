import Foundation
import Testing
@testable import KotenOCRKit

/// The field cases of Tests/Fixtures/field (README there): pages that came back empty or wrong with exit 0.
/// Exact where the fault was ours; a bound on the character error rate (CER) where the model is the limit.
/// `page_upside_down` and `vertical_with_ruby` (page rotation, ruby: issue 11) are tested with that work.
@Suite("Field cases (ppocr)", .serialized)
struct FieldCaseTests {
    static let engine: Result<KotenOCR, Error> = Result {
        try KotenOCR(configuration: OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels(),
                                                     tuneAllocator: false, watchMemoryPressure: false))
    }

    static func read(_ name: String) async throws -> (page: PageResult, truth: [String]) {
        let dir = TestPaths.fixtures.appendingPathComponent("field")
        let page = try await engine.get().read(dir.appendingPathComponent("\(name).png"))
        let truth = try String(contentsOf: dir.appendingPathComponent("\(name).txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        return (page, truth)
    }

    @Test("text only in the alpha channel: every line, exactly (was: no line)")
    func alphaOnly() async throws {
        let (page, truth) = try await Self.read("text_in_alpha_only")
        #expect(page.textLines.map(\.text) == truth)
    }

    @Test("one line of Latin and digits among kana, 10 px of margin: upright, one line, its middle read (was: turned 270°, the middle lost)")
    func oneLineImage() async throws {
        let (page, truth) = try await Self.read("one_line_mixed_scripts")
        #expect(page.rotation == .upright)
        #expect(page.textLines.count == 1, "\(page.textLines.map(\.text))")
        // The model reads this crop's 3 as ３ (the whole page's line reads it right: `mixedScripts`): a bound.
        let text = page.textLines.map(\.text).joined()
        #expect(text.contains("15日にPythonで"), "\(text)")
        #expect(characterErrorRate(text, reference: truth.joined()) <= 0.05)
    }

    @Test("a 2998×100 strip: its one line, exactly, read in a finer pass (was: nothing)")
    func wideStrip() async throws {
        let (page, truth) = try await Self.read("wide_strip_75_chars")
        #expect(page.textLines.map(\.text) == truth)
        let passes = try #require(page.detector?.passes)
        #expect(passes.count == 2 && passes[1].scale > passes[0].scale, "\(passes)")
    }

    @Test("a column skewed by −2°: vertical, its text exactly, its polygon from its own top-left (was: empty, horizontal)")
    func skewedColumn() async throws {
        let (page, truth) = try await Self.read("vertical_column_skewed_minus2deg")
        #expect(page.textLines.map(\.text) == truth)
        let line = try #require(page.lines.first)
        #expect(line.orientation == "vertical")
        let p = line.polygon
        try #require(p.count == 4)
        #expect(p[0][1] < p[3][1] && p[1][1] < p[2][1], "top corners first: \(p)")
        #expect(p[0][0] < p[1][0] && p[3][0] < p[2][0], "left corners before right: \(p)")
    }

    @Test("heading, columns, caption: no empty line, every line's text (was: an empty line in the heading)")
    func headingColumnsCaption() async throws {
        let (page, truth) = try await Self.read("heading_columns_caption")
        #expect(page.lines.allSatisfy { !$0.text.allSatisfy(\.isWhitespace) }, "\(page.lines.map(\.text))")
        // Model limit: full-width brackets come back as ASCII ones or not with a pixel of crop (the same on
        // scaned0's （目的）); 2 of the 61 characters. The characters are compared in any order: the order of the
        // caption's two pieces (split at its 1-em gap) is the order stage's (issue 11), not what this case tests.
        // Order-free error (docs/quality.md): the characters missing or too many, whichever is more, ÷ the truth's.
        var count: [Character: Int] = [:]
        for c in withoutWhitespace(truth.joined()) { count[c, default: 0] += 1 }
        for c in withoutWhitespace(page.text) { count[c, default: 0] -= 1 }
        let missing = count.values.filter { $0 > 0 }.reduce(0, +), extra = -count.values.filter { $0 < 0 }.reduce(0, +)
        let error = Double(max(missing, extra)) / Double(withoutWhitespace(truth.joined()).count)
        #expect(error <= 0.05, "order-free error \(error): \(page.text)")
    }

    @Test("mixed scripts: Latin, digits and full-width forms exactly; ｶﾀｶﾅ within a bound (model limit)")
    func mixedScripts() async throws {
        let (page, truth) = try await Self.read("mixed_scripts")
        let lines = page.textLines.map(\.text)
        try #require(lines.count == truth.count, "\(lines)")
        #expect(lines[0] == truth[0])
        #expect(lines[2] == truth[2])
        // The spaces of `ISBN 978-4-00-310101-8 を参照のこと` are the model's call: in this crop it gives the
        // first 0.29 at one step, the second nothing (RapidOCR drops both; CTCDecoderTests covers what the
        // decoder keeps). The characters must all be there.
        #expect(withoutWhitespace(lines[3]) == withoutWhitespace(truth[3]))
        // The model reads half-width katakana as full-width and misreads some (RapidOCR and a plain pipeline
        // too): compared in NFKC, where ﾃｽﾄ is テスト.
        let cer = characterErrorRate(lines[1].precomposedStringWithCompatibilityMapping,
                                     reference: truth[1].precomposedStringWithCompatibilityMapping)
        #expect(cer <= 0.15, "CER \(cer): \(lines[1])")
    }
}
