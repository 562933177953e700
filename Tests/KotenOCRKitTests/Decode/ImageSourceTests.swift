import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

@Suite("Image decoding (libvips)")
struct ImageSourceTests {
    @Test("RGBA PNG (opaque): size from the header, alpha dropped, three channels")
    func rgbaPNG() throws {
        let source = try ImageSource(url: TestPaths.image("ndlocr-lite/tategaki2026-04-24-094138.png"))
        #expect(source.width == 574 && source.height == 823)
        #expect(source.loader == "pngload")
        let image = try source.decode()
        #expect(image.pixels.count == 574 * 823 * 3)
    }

    @Test("EXIF orientation 6 is applied: sizes and pixels are upright")
    func exifOrientation() throws {
        let dir = try TestPaths.temporaryDirectory()
        // A 40×20 image, left half black, right half white, stored with orientation 6 (rotate 90° clockwise).
        var image = RGBImage(width: 40, height: 20)
        for y in 0..<20 { for x in 20..<40 { for c in 0..<3 { image.pixels[(y * 40 + x) * 3 + c] = 255 } } }
        let url = dir.appendingPathComponent("rotated.jpg")
        try ImageWriter.save(image, to: url, quality: 95, exifOrientation: 6)
        let source = try ImageSource(url: url)
        #expect(source.orientation == 6)
        #expect(source.width == 20 && source.height == 40)
        let upright = try source.decode()
        // Rotated clockwise: the stored left (black) half is now on top.
        #expect(upright.pixels[(5 * 20 + 10) * 3] < 40)
        #expect(upright.pixels[(35 * 20 + 10) * 3] > 215)
    }

    @Test("decode(fitting:) returns exactly the requested size, shrink-on-load for JPEG")
    func fitting() throws {
        let source = try ImageSource(url: TestPaths.image("ndlocr-lite/digidepo_2531162_0024.jpg"))
        #expect(ImageSource.shrinkFactor(from: (2048, 1446), to: (512, 352), loader: "jpegload") == 4)
        #expect(ImageSource.shrinkFactor(from: (2048, 1446), to: (512, 352), loader: "pngload") == 1)
        let small = try source.decode(fitting: 512, 352)
        #expect(small.width == 512 && small.height == 352)
    }

    @Test("truncated JPEG is an error, not a grey-filled page")
    func truncated() throws {
        let dir = try TestPaths.temporaryDirectory()
        let data = try Data(contentsOf: TestPaths.image("ndlocr-lite/digidepo_2531162_0024.jpg"))
        let url = dir.appendingPathComponent("cut.jpg")
        try data.prefix(data.count / 3).write(to: url)
        let source = try ImageSource(url: url)
        #expect(throws: ImageError.self) { try source.decode() }
        do {
            _ = try source.decode()
        } catch let e as ImageError {
            guard case .truncated(let path, _) = e else { Issue.record("expected .truncated, got \(e)"); return }
            #expect(path == url.path)
        }
    }

    @Test("a failed decode whose message another thread took: a JPEG cut short is still truncated, a whole one corrupt")
    func truncatedWithoutMessage() throws {
        let dir = try TestPaths.temporaryDirectory()
        for name in ["ndlocr-lite/digidepo_2531162_0024.jpg", "ndlkotenocr-lite/10301438_0017.jpg"] {
            let whole = TestPaths.image(name), data = try Data(contentsOf: whole)
            let cut = dir.appendingPathComponent("cut." + whole.pathExtension)
            try data.prefix(data.count / 3).write(to: cut)
            guard case .truncated(let path, _)? = try ImageSource(url: cut).describe(Vips.noDecodeMessage) as? ImageError else {
                Issue.record("\(name) cut short: not truncated"); continue
            }
            #expect(path == cut.path)
            guard case .corrupt? = try ImageSource(url: whole).describe(Vips.noDecodeMessage) as? ImageError else {
                Issue.record("\(name) whole: not corrupt"); continue
            }
        }
    }

    @Test("pixel limit refuses before decoding")
    func pixelLimit() throws {
        #expect(throws: ImageError.tooLarge(path: TestPaths.image("ndlocr-lite-rs/scaned0.png").path, width: 1932, height: 500,
                                            limit: 100_000)) {
            try ImageSource(url: TestPaths.image("ndlocr-lite-rs/scaned0.png"), maxPixels: 100_000)
        }
    }
}
