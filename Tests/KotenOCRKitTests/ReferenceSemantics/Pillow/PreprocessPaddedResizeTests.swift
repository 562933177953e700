import Foundation
import Testing
@testable import KotenOCRKit

/// The virtual black canvas: same bytes as resizing a materialised padded square, with no buffer of
/// the square's size.
@Suite("Preprocess: padded resize without the padded square")
struct PreprocessPaddedResizeTests {
    /// A deterministic noisy image (values over the full 0–255 range, so clipping between passes happens).
    static func noise(width: Int, height: Int, seed: UInt64) -> RGBImage {
        var state = seed
        var image = RGBImage(width: width, height: height)
        for i in 0..<image.pixels.count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            image.pixels[i] = (state >> 60) < 3 ? 255 : UInt8(truncatingIfNeeded: state >> 33)
        }
        return image
    }

    static func materialisedSquare(_ image: RGBImage, side: Int) -> RGBImage {
        var square = RGBImage(width: side, height: side)
        square.paste(image, x: 0, y: 0)
        return square
    }

    @Test("virtual padding equals resizing the materialised square",
          arguments: [(57, 23, 16), (23, 57, 16), (31, 19, 80), (19, 31, 80), (64, 64, 20), (200, 7, 64), (7, 200, 300)])
    func equalsMaterialised(_ w: Int, _ h: Int, _ size: Int) {
        let image = Self.noise(width: w, height: h, seed: UInt64(w * 1000 + h))
        let side = max(w, h)
        let virtual = PillowBicubic.resizePadded(image, squareSide: side, to: size)
        let materialised = PillowBicubic.resize(Self.materialisedSquare(image, side: side), width: size, height: size)
        #expect(virtual == materialised, "\(w)x\(h) -> \(size): max diff \(ImageDifference(virtual, materialised).maxAbs)")
    }

    @Test("buffers: the output, a window of resampled rows and one accumulator row — never the S×S square",
          arguments: [(2048, 1446, 800), (1446, 2048, 1280), (100, 4000, 800)])
    func noSquareBuffer(_ w: Int, _ h: Int, _ size: Int) {
        let side = max(w, h)
        let page = Self.noise(width: w, height: h, seed: UInt64(w + h))
        let resampler = PillowBicubic(sourceWidth: w, sourceHeight: h, canvasWidth: side, canvasHeight: side,
                                      width: size, height: size)
        var log = ResampleBufferLog()
        let out = resampler.resize(page, log: &log)
        #expect(out.width == size && out.height == size)
        let window = resampler.vertical.widestWindow
        #expect(window <= resampler.vertical.taps && window < 24)
        #expect(log.largest == size * size * 3)
        #expect(log.total == size * size * 3 + window * size * 3 + size * 3)
        #expect(log.largest * 2 < side * side * 3)
    }

    @Test("empty source (0 rows) resizes to a black image, as Pillow does; an empty output is no crash")
    func emptySource() {
        let out = PillowBicubic.resize(RGBImage(width: 81, height: 0), width: 384, height: 32)
        #expect(out.width == 384 && out.height == 32)
        #expect(out.pixels.allSatisfy { $0 == 0 })
        let none = PillowBicubic.resize(Self.noise(width: 9, height: 4, seed: 2), width: 0, height: 5)
        #expect(none.width == 0 && none.height == 5 && none.pixels.isEmpty)
    }

    @Test("same size is an exact copy; a constant image stays constant when enlarged and reduced")
    func identityAndConstant() {
        let image = Self.noise(width: 33, height: 17, seed: 3)
        #expect(PillowBicubic.resize(image, width: 33, height: 17) == image)
        Self.expectStaysConstant(sizes: [(97, 61), (13, 9), (40, 7)]) { PillowBicubic.resize($0, width: $1, height: $2) }
    }

    /// Resizing a constant image with `resize` to each size gives the same constant.
    static func expectStaysConstant(sizes: [(Int, Int)], _ resize: (RGBImage, Int, Int) -> RGBImage) {
        var grey = RGBImage(width: 37, height: 13)
        for i in 0..<grey.pixels.count { grey.pixels[i] = 201 }
        for (w, h) in sizes {
            #expect(resize(grey, w, h).pixels.allSatisfy { $0 == 201 }, "\(w)x\(h)")
        }
    }
}
