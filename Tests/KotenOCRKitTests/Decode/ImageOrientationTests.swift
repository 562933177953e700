import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

@Suite("EXIF orientations 1–8")
struct ImageOrientationTests {
    /// Where the stored image's top-left quadrant lands in the upright page, by orientation: 2 mirrors, 3 turns
    /// 180°, 4 flips top to bottom, 5 transposes, 6 turns 90° clockwise, 7 transverses, 8 turns 90° anticlockwise.
    static let corner: [Int: (right: Bool, bottom: Bool)] = [
        1: (false, false), 2: (true, false), 3: (true, true), 4: (false, true),
        5: (false, false), 6: (true, false), 7: (true, true), 8: (false, true),
    ]

    /// A stored 3000×2000 JPEG (large enough that a top-to-bottom decoder cannot keep the whole page: a vertical
    /// flip asks for its last row first), black in its top-left quadrant, white elsewhere.
    static func stored(orientation: Int, in dir: URL) throws -> URL {
        let w = 3000, h = 2000
        var image = RGBImage(width: w, height: h)
        for y in 0..<h { for x in 0..<w where x >= w / 2 || y >= h / 2 { for c in 0..<3 { image.pixels[(y * w + x) * 3 + c] = 255 } } }
        let url = dir.appendingPathComponent("o\(orientation).jpg")
        try ImageWriter.save(image, to: url, quality: 90, exifOrientation: orientation)
        return url
    }

    static func isDark(_ image: RGBImage, fx: Double, fy: Double) -> Bool {
        let x = Int(fx * Double(image.width)), y = Int(fy * Double(image.height))
        return image.pixels[(y * image.width + x) * 3] < 60
    }

    /// Expects `image` black in the quadrant `corner` names and white in the other three.
    static func expectBlack(_ corner: (right: Bool, bottom: Bool), in image: RGBImage, _ label: String) {
        for (fx, fy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
            let black = (fx > 0.5) == corner.right && (fy > 0.5) == corner.bottom
            #expect(isDark(image, fx: fx, fy: fy) == black,
                    "\(label), \(image.width)×\(image.height): (\(fx), \(fy)) should be \(black ? "black" : "white")")
        }
    }

    /// The formats' page image of `source` (`displayImage`) at full size and scaled down, as RGB.
    static func shown(_ source: ImageSource) throws -> [RGBImage] {
        try [nil, 750].map { maxSide in
            let handle = try source.displayImage(maxSide: maxSide)
            #expect(handle.bands == 3)
            let image = RGBImage(uncheckedWidth: handle.width, height: handle.height,
                                 pixels: try handle.readPixels { ImageError.corrupt(path: source.name, detail: $0) })
            #expect(image.width * source.height == image.height * source.width)
            return image
        }
    }

    @Test("every orientation is read upright, at full size and reduced", arguments: 1...8)
    func upright(orientation: Int) throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try ImageSource(url: try Self.stored(orientation: orientation, in: dir))
        #expect(source.orientation == orientation)
        let turned = orientation >= 5
        #expect(source.width == (turned ? 2000 : 3000) && source.height == (turned ? 3000 : 2000))
        let expected = try #require(Self.corner[orientation])
        for image in [try source.decode(), try source.decode(fitting: source.width / 4, source.height / 4)] {
            Self.expectBlack(expected, in: image, "orientation \(orientation)")
        }
    }

    /// The page as the formats show it (pdf, viz, html: `displayImage`) is upright too, at full size and scaled
    /// down: orientations 3 and 4 were refused there as "out of order read" by a top-to-bottom decoder.
    @Test("every orientation is shown upright by the formats' page image", arguments: 1...8)
    func displayedUpright(orientation: Int) throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try ImageSource(url: try Self.stored(orientation: orientation, in: dir))
        let expected = try #require(Self.corner[orientation])
        for image in try Self.shown(source) { Self.expectBlack(expected, in: image, "orientation \(orientation)") }
    }

    /// A page read turned back (`turnedUpright(from:)`) is shown as it was read: turned back too, whole pages
    /// turned by libvips, which a top-to-bottom decoder refuses for a large page ("out of order read").
    @Test("a page read turned back is shown turned back, for each turn", arguments: PageRotation.allCases)
    func displayedTurnedBack(turn: PageRotation) throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try ImageSource(url: try Self.stored(orientation: 1, in: dir)).turnedUpright(from: turn)
        // The stored page's black top-left quadrant, turned counter-clockwise by `turn`.
        let expected: [PageRotation: (right: Bool, bottom: Bool)] = [
            .upright: (false, false), .clockwise90: (false, true), .halfTurn: (true, true), .clockwise270: (true, false),
        ]
        let corner = try #require(expected[turn])
        for image in try Self.shown(source) { Self.expectBlack(corner, in: image, "turn \(turn.degrees)") }
    }
}
