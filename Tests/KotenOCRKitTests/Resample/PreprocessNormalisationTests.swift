import Foundation
import Testing
@testable import KotenOCRKit

/// The normalisation tables against the manifests' u8 → float32 lookup tables, bit for bit
/// (the manifests' tables reproduce the reference tensors exactly, parity README §3.6).
@Suite("Preprocess: tensor normalisation tables")
struct PreprocessNormalisationTests {
    @Test("DEIM: (x/255 − mean)/std with float32 constants, RGB")
    func deim() throws {
        let lut = try JSONAccess.array(PreprocessGoldens.manifest("ndl/preprocess/deim")["lut_u8_to_float32_rgb"])
        try expectTables(PixelNormalisation.deim, perValue: lut, channelOrder: [0, 1, 2], label: "deim")
    }

    @Test("RTMDet: (x − mean)/std in float32, manifest table in BGR order")
    func rtmdet() throws {
        let lut = try JSONAccess.array(PreprocessGoldens.manifest("koten/preprocess/rtmdet")["lut_u8_to_float32_bgr"])
        try expectTables(PixelNormalisation.rtmdet, perValue: lut, channelOrder: [2, 1, 0], label: "rtmdet")
    }

    @Test("NDL PARSeq: x/127.5 − 1 in float32")
    func ndlParseq() throws {
        let lut = try PreprocessGoldens.floats(PreprocessGoldens.manifest("ndl/preprocess/parseq")["lut_u8_to_float32"])
        try expectSameBits(PixelNormalisation.symmetric, lut, label: "ndl parseq")
    }

    @Test("koten PARSeq: 2(x/255 − 0.5) in Double, cast to float32")
    func kotenParseq() throws {
        let lut = try PreprocessGoldens.floats(PreprocessGoldens.manifest("koten/preprocess/parseq")["lut_u8_to_float32"])
        try expectSameBits(PixelNormalisation.symmetricKoten, lut, label: "koten parseq")
    }

    @Test("Computing DEIM's table with Double constants would not be bit-exact (the test can tell)")
    func doubleConstantsDiffer() throws {
        let lut = try JSONAccess.array(PreprocessGoldens.manifest("ndl/preprocess/deim")["lut_u8_to_float32_rgb"])
        let naive = PixelNormalisation.meanStd(mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225])
        var mismatches = 0
        for (v, row) in lut.enumerated() {
            let triple = try PreprocessGoldens.floats(row)
            for c in 0..<3 where naive.tables[c][v].bitPattern != triple[c].bitPattern { mismatches += 1 }
        }
        #expect(mismatches > 0)
    }

    /// `perValue[v][k]` is the value of u8 `v` in the manifest's k-th channel, which is table `channelOrder[k]`.
    private func expectTables(_ n: PixelNormalisation, perValue: [Any], channelOrder: [Int], label: String) throws {
        try #require(perValue.count == 256)
        var mismatches = 0
        for (v, row) in perValue.enumerated() {
            let triple = try PreprocessGoldens.floats(row)
            for k in 0..<3 where n.tables[channelOrder[k]][v].bitPattern != triple[k].bitPattern { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(label): \(mismatches) of 768 entries differ")
    }

    private func expectSameBits(_ n: PixelNormalisation, _ lut: [Float], label: String) throws {
        try #require(lut.count == 256)
        for c in 0..<3 {
            let mismatches = (0..<256).filter { n.tables[c][$0].bitPattern != lut[$0].bitPattern }.count
            #expect(mismatches == 0, "\(label) channel \(c): \(mismatches) of 256 entries differ")
        }
    }
}
