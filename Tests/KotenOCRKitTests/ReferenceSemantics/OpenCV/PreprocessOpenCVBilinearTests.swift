import Foundation
import Testing
@testable import KotenOCRKit

/// `cv2.resize` INTER_LINEAR special cases the goldens do not reach, and the NumPy crop rules.
@Suite("Preprocess: OpenCV bilinear and NumPy crops")
struct PreprocessOpenCVBilinearTests {
    @Test("exact 2× reduction uses OpenCV's area fast path: rounded 2×2 mean")
    func halving() {
        var image = RGBImage(width: 4, height: 2)
        let values: [UInt8] = [10, 11, 20, 21, 30, 31, 40, 41]  // red channel of the 8 pixels
        for (i, v) in values.enumerated() { image.pixels[i * 3] = v }
        let out = OpenCVBilinear.resize(image, width: 2, height: 1)
        // (10 + 11 + 30 + 31 + 2) >> 2 = 21, (20 + 21 + 40 + 41 + 2) >> 2 = 31.
        #expect(out.pixels[0] == 21 && out.pixels[3] == 31)
    }

    @Test("same size is a copy; a constant image stays constant; empty source gives black")
    func identityConstantEmpty() {
        let noise = PreprocessPaddedResizeTests.noise(width: 29, height: 11, seed: 5)
        #expect(OpenCVBilinear.resize(noise, width: 29, height: 11) == noise)
        PreprocessPaddedResizeTests.expectStaysConstant(sizes: [(256, 24), (5, 24), (768, 24), (3, 2)]) {
            OpenCVBilinear.resize($0, width: $1, height: $2)
        }
        #expect(OpenCVBilinear.resize(RGBImage(width: 0, height: 0), width: 8, height: 4) == RGBImage(width: 8, height: 4))
    }

    @Test("bilinearResize is the OpenCV port")
    func bilinearIsOpenCV() {
        let noise = PreprocessPaddedResizeTests.noise(width: 57, height: 19, seed: 9)
        #expect(bilinearResize(noise, width: 100, height: 48) == OpenCVBilinear.resize(noise, width: 100, height: 48))
    }

    @Test("NumPy slice bounds: negative indices count from the end, stops clamp, empty when stop <= start")
    func numpyBounds() {
        #expect(NumPySlice.bounds(start: -6, stop: 652, size: 1000) == (994, 652))   // empty
        #expect(NumPySlice.bounds(start: 1432, stop: 1472, size: 1446) == (1432, 1446))
        #expect(NumPySlice.bounds(start: -6, stop: 652, size: 600) == (594, 600))    // not empty
        #expect(NumPySlice.bounds(start: -2000, stop: 5, size: 600) == (0, 5))
        let page = PreprocessPaddedResizeTests.noise(width: 10, height: 8, seed: 1)
        let empty = page.numpySlice(x: 2, y: -3, width: 4, height: 4)
        #expect(empty.width == 4 && empty.height == 0 && empty.pixels.isEmpty)
        // stop = -3 + 2 = -1 counts from the end too: rows 5..<7.
        #expect(page.numpySlice(x: 2, y: -3, width: 4, height: 2) == page.cropped(x: 2, y: 5, width: 4, height: 2))
    }
}
