import Foundation
import KotenOCRTestSupport
import Testing
@testable import KotenOCRKit

/// The page-orientation rules of the `ppocr` mode and the geometry they use, without models.
@Suite struct PageOrientationTests {
    /// A 3×2 image whose pixels are numbered 0...5 in their red channel.
    static let numbered = RGBImage(width: 3, height: 2, pixels: (0..<6).flatMap { [UInt8($0), 0, 0] })

    @Test("quarter turns of an image: clockwise undoes counter-clockwise, two make a half turn")
    func imageTurns() throws {
        let image = try #require(Self.numbered)
        #expect(image.rotatedClockwise().rotatedCounterClockwise() == image)
        #expect(image.rotatedClockwise().rotatedClockwise() == image.rotated180())
        // Clockwise: the bottom-left pixel (3) comes to the top-left.
        #expect(image.rotatedClockwise().pixels.first == 3 && image.rotatedClockwise().width == 2)
        #expect(image.turnedCounterClockwise(quarterTurns: -1) == image.rotatedClockwise())
        #expect(image.turnedCounterClockwise(quarterTurns: 6) == image.rotated180())
    }

    @Test("a page's rotation turns the page as given upright", arguments: PageRotation.allCases)
    func uprightImage(_ rotation: PageRotation) throws {
        let upright = try #require(RGBImage(width: 4, height: 3, pixels: (0..<12).flatMap { [UInt8($0), 0, 0] }))
        var given = upright
        for _ in 0..<rotation.quarterTurns { given = given.rotatedClockwise() }
        #expect(rotation.upright(given) == upright)
        #expect(rotation.uprightSize(width: given.width, height: given.height) == (4, 3))
        #expect(PageRotation(degrees: rotation.degrees) == rotation && PageRotation(quarterTurns: rotation.quarterTurns + 4) == rotation)
    }

    @Test("an image source turned upright decodes turned, at full size, fitted and at least a size")
    func turnedSource() throws {
        let image = try #require(RGBImage(width: 40, height: 30, pixels: (0..<1200).flatMap { [UInt8($0 % 251), UInt8($0 / 251), 7] }))
        let url = try TestPaths.temporaryDirectory("turned").appendingPathComponent("page.png")
        try ImageWriter.save(image, to: url)
        let source = try ImageSource(url: url).turnedUpright(from: .clockwise90)
        #expect(source.width == 30 && source.height == 40 && source.turn == .clockwise90)
        #expect(try source.decode() == image.rotatedCounterClockwise())
        let fitted = try source.decode(fitting: 15, 20)
        #expect(fitted.width == 15 && fitted.height == 20)
        #expect(try source.decode(atLeast: 30, 40) == image.rotatedCounterClockwise())
        #expect(try source.turnedUpright(from: .upright).decode() == image)
    }

    @Test("the text turn and writing of a page, from its rotation or from its lines and votes")
    func orientationRules() {
        // Vertical writing upright: tall main lines, no turn beyond the tall crops' quarter; headings across.
        let vertical = PPOCRPageOrientation(rotation: .upright, tallMain: true)
        #expect(vertical.textTurn == 1 && vertical.vertical && vertical.rotation == .upright)
        #expect(vertical.shape(width: 40, height: 400) == .main && vertical.shape(width: 400, height: 40) == .across)
        #expect(vertical.shape(width: 40, height: 50) == .square)
        #expect(vertical.mainTurns == 1 && vertical.acrossTurns == 0)
        // A horizontal page turned 90° clockwise: the same text turn, other writing; its vertical lines turn twice.
        let turned = PPOCRPageOrientation(rotation: .clockwise90, tallMain: true)
        #expect(turned.textTurn == 1 && !turned.vertical && turned.rotation == .clockwise90 && turned.acrossTurns == 2)
        // A vertical page turned 90°: wide main lines read after a half turn.
        let verticalTurned = PPOCRPageOrientation(rotation: .clockwise90, tallMain: false)
        #expect(verticalTurned.textTurn == 2 && verticalTurned.vertical && verticalTurned.rotation == .clockwise90)
        // From votes: the shape gives the parity, the classifier the half turn, the writing follows the parity.
        #expect(PPOCRPageOrientation.fromVotes(tallMain: false, upsideDown: 0.99).rotation == .halfTurn)
        #expect(PPOCRPageOrientation.fromVotes(tallMain: true, upsideDown: 0.8).rotation == .halfTurn)
        #expect(PPOCRPageOrientation.fromVotes(tallMain: true, upsideDown: 0.8).textTurn == 3)
        #expect(PPOCRPageOrientation.fromVotes(tallMain: false, upsideDown: nil) == PPOCRPageOrientation(textTurn: 0, vertical: false))
        // Most line length decides, not most lines: one long column against three short horizontal lines.
        #expect(PPOCRPageOrientation.tallMain([(40, 900), (100, 40), (100, 40), (100, 40)]))
    }

    @Test("a tall skewed quad given from its top-right corner is taken from its top-left, so its crop stays tall")
    func cornersFromTopLeft() {
        // A column 40 × 600 turned 3° (the corners RotatedRect.quad gives when both top corners are the leftmost).
        let p = PageOrderTests.rotatedRect(cx: 300, cy: 400, length: 600, thickness: 40, degrees: 93)
        // corners of a rect whose width side points down: order them as the bug did (long side first).
        let skewed = Quad(p[1], p[2], p[3], p[0])
        let fixed = PPOCRPipeline.cornersFromTopLeft(skewed)
        #expect(fixed.edgeHeight > fixed.edgeWidth * 10, "\(fixed)")
        #expect(fixed.points[0].y < fixed.points[3].y && fixed.points[0].x < fixed.points[1].x)
        // Counter-clockwise input is reversed; an upright box is left as it is.
        let box = PixelBox(x1: 10, y1: 20, x2: 110, y2: 50).quad
        #expect(PPOCRPipeline.cornersFromTopLeft(box) == box)
        let backwards = Quad(box.points[0], box.points[3], box.points[2], box.points[1])
        #expect(PPOCRPipeline.cornersFromTopLeft(backwards) == box)
    }

    @Test("the reading axis of a line follows its crop's turns")
    func readingAxis() {
        let q = PixelBox(x1: 0, y1: 0, x2: 100, y2: 20).quad
        #expect(PPOCRLineTurning.readingAxis(of: q, quarterTurns: 0) == (Point(x: 0, y: 10), Point(x: 100, y: 10)))
        #expect(PPOCRLineTurning.readingAxis(of: q, quarterTurns: 2) == (Point(x: 100, y: 10), Point(x: 0, y: 10)))
        #expect(PPOCRLineTurning.readingAxis(of: q, quarterTurns: 1) == (Point(x: 50, y: 0), Point(x: 50, y: 20)))
        #expect(PPOCRLineTurning.readingAxis(of: q, quarterTurns: 7) == (Point(x: 50, y: 20), Point(x: 50, y: 0)))
    }

    @Test("CTC character centres: the middle of each emitting run of steps, as a share of the line's width")
    func ctcCentres() {
        // 8 steps × 4 classes (0 blank), stride 40 px over a 320 px tensor, the line 240 px wide:
        // steps 1–2 emit class 1, step 4 class 2, step 5 class 2 again after nothing between (a repeat: one char),
        // step 7 class 3 (beyond the keys: never emitted).
        let path = [0, 1, 1, 0, 2, 2, 0, 3]
        var p = [Float](repeating: 0, count: 8 * 4)
        for (t, k) in path.enumerated() { p[t * 4 + k] = 1 }
        let centres = p.withUnsafeBufferPointer {
            CTCAlignment.centres(CTCSteps($0, steps: 8, classes: 4).best, keyCount: 3, tensorWidth: 320, contentWidth: 240)
        }
        #expect(centres == [80.0 / 240, 200.0 / 240])
        let decoded = CTCDecoder(keys: ["blank", "a", "b"]).decode(p, steps: 8, classes: 4)
        #expect(decoded.characters.count == centres.count)
    }
}

/// The writing test's marks (PPOCRWritingTest), on the shares measured on the corpus and NDL's pages.
@Suite struct WritingTestMarkTests {
    @Test("vertical at 0.65 of the line's confidence or more, horizontal at 0.55 or less, no vote between or on an unsure line")
    func marks() {
        #expect(PPOCRWritingTest.isVertical(line: 0.9, cells: 0.9 * 0.70) == true)
        #expect(PPOCRWritingTest.isVertical(line: 0.99, cells: 0.0) == false)
        #expect(PPOCRWritingTest.isVertical(line: 1.0, cells: 0.546) == false)
        #expect(PPOCRWritingTest.isVertical(line: 1.0, cells: 0.6) == nil)
        #expect(PPOCRWritingTest.isVertical(line: 0.48, cells: 0.45) == nil)
    }
}
