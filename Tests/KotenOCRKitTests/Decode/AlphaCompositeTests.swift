import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

@Suite("Transparency: alpha composited so the ink stays visible")
struct AlphaCompositeTests {
    /// A 64×32 image of `bands` channels: colour `ink` everywhere (grey for 2 bands), alpha 255 in the left half
    /// ("the text") and `clear` in the right half.
    static func write(bands: Int, ink: [UInt8], clear: UInt8 = 0, suffix: String = "png", in dir: URL) throws -> URL {
        let w = 64, h = 32
        var pixels: [UInt8] = []
        for _ in 0..<h { for x in 0..<w { pixels += ink + [x < w / 2 ? 255 : clear] } }
        let url = dir.appendingPathComponent("alpha-\(bands)-\(ink.first ?? 0)-\(clear).\(suffix)")
        try ImageWriter.save(pixels: pixels, width: w, height: h, bands: bands, to: url)
        return url
    }

    static func grey(_ image: RGBImage, x: Int, y: Int) -> Int {
        let i = (y * image.width + x) * 3
        return (Int(image.pixels[i]) + Int(image.pixels[i + 1]) + Int(image.pixels[i + 2])) / 3
    }

    @Test("black colour, text only in alpha (RGBA and grey + alpha): composited onto white")
    func darkInkOnWhite() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for url in [try Self.write(bands: 4, ink: [0, 0, 0], in: dir), try Self.write(bands: 2, ink: [0], in: dir)] {
            let source = try ImageSource(url: url)
            #expect(source.alphaBackground == 255)
            for image in [try source.decode(), try source.decode(fitting: 32, 16)] {
                #expect(Self.grey(image, x: image.width / 4, y: image.height / 2) < 10, "\(url.lastPathComponent): ink")
                #expect(Self.grey(image, x: image.width * 3 / 4, y: image.height / 2) > 245, "\(url.lastPathComponent): background")
            }
        }
    }

    @Test("white text on a transparent background: composited onto black")
    func lightInkOnBlack() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try ImageSource(url: try Self.write(bands: 4, ink: [255, 255, 255], in: dir))
        #expect(source.alphaBackground == 0)
        let image = try source.decode()
        #expect(Self.grey(image, x: 16, y: 16) > 245)
        #expect(Self.grey(image, x: 48, y: 16) < 10)
    }

    @Test("a lossless WebP logo (dark red on transparent): composited onto white")
    func webpLogo() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try ImageSource(url: try Self.write(bands: 4, ink: [150, 20, 30], suffix: "webp", in: dir))
        #expect(source.loader == "webpload")
        #expect(source.alphaBackground == 255)
        let image = try source.decode()
        #expect(image.pixels[(16 * 64 + 16) * 3] == 150)
        #expect(Self.grey(image, x: 48, y: 16) > 245)
    }

    @Test("opaque alpha and fully transparent alpha are dropped, as the reference does (colour read as it is)")
    func dropped() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let opaque = try ImageSource(url: try Self.write(bands: 4, ink: [40, 40, 40], clear: 255, in: dir))
        #expect(opaque.alphaBackground == nil)
        #expect(Self.grey(try opaque.decode(), x: 48, y: 16) == 40)
        let fixture = try ImageSource(url: TestPaths.image("ndlocr-lite/tategaki2026-04-24-094138.png"))
        #expect(fixture.alphaBackground == nil)  // RGBA, alpha 255 everywhere: NDL parity unchanged
    }
}
