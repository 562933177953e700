import Foundation
import Testing
@testable import KotenOCRKit

/// `SaltAndPepper` on real pages, as the detector's first pass sees them (the page reduced to 960 on its longer side):
/// the sweep's noisy column is noisy, printed and scanned pages are not, and cleaning removes the dots but keeps the
/// strokes (docs/reference-pipelines.md §4, "Step 1, salt and pepper").
@Suite("Salt and pepper (ppocr)")
struct SaltAndPepperTests {
    static func firstInput(_ url: URL) throws -> RGBImage {
        let page = try ImageSource(url: url)
        let size = DBDetector.inputSize(width: page.width, height: page.height, maxSide: DetectorScale.firstPassSide)
        return try page.decode(fitting: size.width, size.height, kernel: .linear)
    }

    static let noisy = TestPaths.fixtures.appendingPathComponent("sweep/noise_v40__sp10pc.png")

    @Test("the noisy column is noisy")
    func noisyPage() throws {
        let evidence = SaltAndPepper.evidence(try Self.firstInput(Self.noisy))
        #expect(evidence.isNoisy, "\(evidence)")
    }

    @Test("printed and scanned pages are not noisy", arguments: [
        "sweep/tategaki_serif__32px-4col.png", "sweep/jpeg_v40__q40.jpg", "sweep/largepage_h__5000px.png",
        "images/ndlocr-lite-rs/scaned0.png", "images/ndlocr-lite/digidepo_2531162_0024.jpg",
        "images/ndlkotenocr-lite/10301438_0017.jpg", "images/ndlkotenocr-lite/1287221_0002.jpg",
        "field/vertical_punctuation.png",
    ])
    func cleanPages(_ relative: String) throws {
        let evidence = SaltAndPepper.evidence(try Self.firstInput(TestPaths.fixtures.appendingPathComponent(relative)))
        #expect(!evidence.isNoisy, "\(relative): \(evidence)")
    }

    @Test("cleaning removes the dots and keeps the ink of the strokes")
    func cleaning() throws {
        let page = try ImageSource(url: Self.noisy).decode()
        let cleaned = SaltAndPepper.despeckled(page)
        let before = SaltAndPepper.evidence(page), after = SaltAndPepper.evidence(cleaned)
        #expect(after.specks * 20 < before.specks, "\(before) → \(after)")
        #expect(!after.isNoisy)
        // A clean page's strokes stay: a 1-pixel-wide line and a 3 × 3 square on white are left as they are.
        var clean = RGBImage(width: 40, height: 20)
        clean.fill((255, 255, 255))
        for x in 2..<30 { clean.pixels.replaceSubrange((5 * 40 + x) * 3..<(5 * 40 + x) * 3 + 3, with: [0, 0, 0]) }
        for y in 10..<13 { for x in 10..<13 { clean.pixels.replaceSubrange((y * 40 + x) * 3..<(y * 40 + x) * 3 + 3, with: [0, 0, 0]) } }
        #expect(SaltAndPepper.despeckled(clean) == clean)
    }
}
