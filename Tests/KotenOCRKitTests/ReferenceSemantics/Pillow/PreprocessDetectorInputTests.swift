import Foundation
import Testing
@testable import KotenOCRKit

/// DEIM 800 and RTMDet 1280 inputs: the page on a virtual black square, Pillow bicubic, against every
/// image of `ndl/preprocess/deim` and `koten/preprocess/rtmdet` (a new manifest entry is tested as is).
@Suite("Preprocess: detector inputs (padded square, Pillow bicubic)")
struct PreprocessDetectorInputTests {
    @Test("DEIM 800×800 (RGB tensor) equals the reference for every manifest image")
    func deim800() throws {
        try check(folder: "ndl/preprocess/deim", stage: "deim800", size: 800, order: .rgb, normalisation: .deim)
    }

    @Test("RTMDet 1280×1280 (BGR tensor) equals the reference for every manifest image")
    func rtmdet1280() throws {
        try check(folder: "koten/preprocess/rtmdet", stage: "rtmdet1280", size: 1280, order: .bgr, normalisation: .rtmdet)
    }

    private func check(folder: String, stage: String, size: Int, order: ChannelOrder,
                       normalisation: PixelNormalisation) throws {
        let manifest = try PreprocessGoldens.manifest(folder)
        let images = try JSONAccess.dict(manifest["images"], "images")
        try #require(!images.isEmpty, "\(folder): no images in the manifest")
        var tally = StageTally(stage)
        for name in images.keys.sorted() {
            let entry = try JSONAccess.dict(images[name], name)
            let page = try PreprocessGoldens.decode(PreprocessGoldens.sourceURL(JSONAccess.string(entry["source_image"])))
            let wh = try JSONAccess.box(entry["source_wh"])
            #expect([page.width, page.height] == wh, "\(name): decoded size")
            let side = try JSONAccess.int(entry["padded_square_S"])
            #expect(side == max(page.width, page.height), "\(name): S = max(w, h)")

            let input = PillowBicubic.resizePadded(page, squareSide: side, to: size)
            let golden = try PreprocessGoldens.decode(PreprocessGoldens.folder(folder)
                .appendingPathComponent(JSONAccess.string(entry["png"])))
            #expect(SHA256.hex(golden.pixels) == (try JSONAccess.string(entry["png_sha256_of_rgb_bytes"])),
                    "\(name): golden PNG decoded to the reference's bytes")
            let difference = ImageDifference(input, golden)
            #expect(difference.identical, "\(name): max diff \(difference.maxAbs), mean \(difference.meanAbs)")

            let tensor = packImageTensor(input, order: order, normalisation: normalisation)
            #expect(tensor.shape == [1, 3, size, size])
            let expected = try JSONAccess.string(JSONAccess.dict(entry["tensor"])["sha256_float32_le_nchw"])
            let match = PreprocessGoldens.sha256(tensor) == expected
            #expect(match, "\(name): tensor SHA-256")
            tally.add(difference, tensorMatch: match)
        }
        tally.report()
    }
}
