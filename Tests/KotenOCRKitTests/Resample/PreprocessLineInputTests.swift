import Foundation
import Testing
@testable import KotenOCRKit

/// Recogniser line inputs: NumPy crop, counter-clockwise rotation of tall crops, then cv2 bilinear
/// (NDL 24×W) or Pillow bicubic (koten 32×384), against every line of the two parseq manifests.
@Suite("Preprocess: line inputs (crop, rotate, resize)")
struct PreprocessLineInputTests {
    /// One manifest line: its entry, source page, box [x, y, w, h] and NumPy crop (shape already checked).
    struct Line {
        let entry: [String: Any]
        let id: String
        let page: RGBImage
        let box: [Int]
        let crop: RGBImage
    }

    @Test("NDL PARSeq 24×256/384/768 (cv2 INTER_LINEAR) equals the reference for every manifest line")
    func ndlParseq() throws {
        let folder = "ndl/preprocess/parseq"
        var tally = StageTally("ndl-parseq-24xW")
        var rotated = 0
        try forEachLine(in: folder) { line in
            if line.crop.height > line.crop.width { rotated += 1 }
            let files = try JSONAccess.dict(line.entry["files"], "files")
            for key in files.keys.sorted() {
                let size = key.split(separator: "x").compactMap { Int($0) }  // "24x256" = height x width
                try #require(size.count == 2, "\(line.id): size key \(key)")
                let b = line.box
                let input = try #require(LineInput.ndl(page: line.page, x: b[0], y: b[1], width: b[2], height: b[3],
                                                       inputWidth: size[1], inputHeight: size[0]))
                try compare(input, folder: folder, file: JSONAccess.dict(files[key]), normalisation: .symmetric,
                            label: "\(line.id) \(key)", tally: &tally)
            }
        }
        #expect(rotated > 0, "the manifest should hold rotated (vertical) lines")
        tally.report()
    }

    @Test("koten PARSeq 32×384 (Pillow bicubic) equals the reference for every manifest line, empty crop included")
    func kotenParseq() throws {
        let folder = "koten/preprocess/parseq"
        var tally = StageTally("koten-parseq-32x384")
        var empty = 0, rotated = 0
        try forEachLine(in: folder) { line in
            if line.crop.pixels.isEmpty { empty += 1 }
            if line.crop.height > line.crop.width { rotated += 1 }
            let b = line.box
            let input = LineInput.koten(page: line.page, x: b[0], y: b[1], width: b[2], height: b[3])
            try compare(input, folder: folder, file: line.entry, normalisation: .symmetricKoten, label: line.id, tally: &tally)
        }
        #expect(empty > 0, "the manifest should hold the empty crop of a box above the top edge")
        #expect(rotated > 0, "the manifest should hold rotated (vertical) lines")
        tally.report()
    }

    /// Runs `body` for every line of `folder`'s manifest, after checking the crop's shape.
    private func forEachLine(in folder: String, _ body: (Line) throws -> Void) throws {
        let lines = try JSONAccess.array(PreprocessGoldens.manifest(folder)["lines"], "lines")
        try #require(!lines.isEmpty, "\(folder): no lines in the manifest")
        let pages = PreprocessGoldens.PageCache()
        for value in lines {
            let entry = try JSONAccess.dict(value)
            let id = try JSONAccess.string(entry["id"])
            let page = try pages.page(JSONAccess.string(entry["source_image"]))
            let box = try JSONAccess.box(entry["box_xywh"])
            try #require(box.count == 4, "\(id): box")
            let crop = page.numpySlice(x: box[0], y: box[1], width: box[2], height: box[3])
            #expect([crop.height, crop.width] == (try JSONAccess.box(entry["crop_shape_hw"])), "\(id): crop shape")
            try body(Line(entry: entry, id: id, page: page, box: box, crop: crop))
        }
    }

    /// Compares one input with its golden PNG (and the PNG's bytes with the manifest) and its BGR tensor
    /// with the manifest's SHA-256.
    private func compare(_ input: RGBImage, folder: String, file: [String: Any], normalisation: PixelNormalisation,
                         label: String, tally: inout StageTally) throws {
        let golden = try PreprocessGoldens.decode(PreprocessGoldens.folder(folder)
            .appendingPathComponent(JSONAccess.string(file["png"])))
        #expect(SHA256.hex(golden.pixels) == (try JSONAccess.string(file["png_sha256_of_rgb_bytes"])), "\(label): golden bytes")
        let difference = ImageDifference(input, golden)
        #expect(difference.identical, "\(label): max diff \(difference.maxAbs), mean \(difference.meanAbs)")
        let tensor = packImageTensor(input, order: .bgr, normalisation: normalisation)
        #expect(tensor.shape == [1, 3, input.height, input.width])
        let match = PreprocessGoldens.sha256(tensor) == (try JSONAccess.string(file["tensor_sha256_float32_le_nchw"]))
        #expect(match, "\(label): tensor SHA-256")
        tally.add(difference, tensorMatch: match)
    }
}
