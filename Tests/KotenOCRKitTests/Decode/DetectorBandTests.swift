import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// The detector's tiles decode bands of rows of the page resized (`decode(fitting:_:rows:)`): a band must be
/// exactly those rows of the whole resized page, whatever the EXIF orientation and whatever turn the page is
/// read back from (`turnedUpright(from:)`: a quarter turn's band is a band of columns of the page as given).
@Suite("Detector bands: rows of the resized page")
struct DetectorBandTests {
    /// A 600×400 JPEG whose every pixel differs from its neighbours' in a way no flip or turn preserves.
    static func stored(orientation: Int, in dir: URL) throws -> URL {
        let w = 600, h = 400
        var image = RGBImage(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 3
                image.pixels[i] = UInt8(x * 255 / w)
                image.pixels[i + 1] = UInt8(y * 255 / h)
                image.pixels[i + 2] = x < w / 3 && y < h / 4 ? 255 : 0
            }
        }
        let url = dir.appendingPathComponent("band\(orientation).jpg")
        try ImageWriter.save(image, to: url, quality: 95, exifOrientation: orientation)
        return url
    }

    @Test("every orientation and every turn: bands joined are the whole resized page", arguments: [1, 3, 4, 6, 8])
    func bandsAreRows(orientation: Int) throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try ImageSource(url: try Self.stored(orientation: orientation, in: dir))
        for turn in PageRotation.allCases {
            let page = file.turnedUpright(from: turn)
            let (w, h) = (page.width / 2, page.height / 2)
            let whole = try page.decode(fitting: w, h)
            var joined: [UInt8] = []
            for top in stride(from: 0, to: h, by: 70) {
                let band = try page.decode(fitting: w, h, rows: top..<min(h, top + 70))
                #expect(band.width == w && band.height == min(h, top + 70) - top)
                joined += band.pixels
            }
            #expect(joined == whole.pixels, "orientation \(orientation), turn \(turn.degrees)")
        }
    }
}
