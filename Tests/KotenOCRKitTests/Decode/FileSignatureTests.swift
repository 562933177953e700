import Foundation
import Testing
@testable import KotenOCRIIIF
@testable import KotenOCRKit
import KotenOCRTestSupport

/// One signature sniffer (`FileSignature`): what a file is from its first bytes, for the server's uploads and the
/// IIIF wing's downloads alike (they disagreed on BMP and HEIF).
@Suite("a file's signature")
struct FileSignatureTests {
    @Test("real files of every format the engine reads are known by their bytes; the IIIF wing agrees",
          arguments: [("jpg", FileSignature.jpeg), ("png", .png), ("tif", .tiff), ("webp", .webp), ("gif", .gif), ("bmp", .bmp),
                      ("heic", .heif), ("avif", .heif), ("jp2", .jp2)])
    func images(_ suffix: String, _ expected: FileSignature) throws {
        let url = try TestPaths.temporaryDirectory("signature").appendingPathComponent("page.\(suffix)")
        try ImageWriter.save(try BatchFixtures.crop(3), to: url)
        #expect(FileSignature.of(fileAt: url) == expected)
        let head = try Data(contentsOf: url).prefix(FileSignature.headLength)
        #expect(HTTPClient.isImage(Data(head)))
    }

    @Test("a PDF and a zip are known and are no images; text, a video's ISO file and a bare 'BM' are nothing")
    func others() throws {
        let dir = try TestPaths.temporaryDirectory("signature-other")
        let pdf = try BatchFixtures.pdf(ofCrops: [1], scratch: dir)
        #expect(FileSignature.of(pdf) == .pdf && !HTTPClient.isImage(pdf))
        let zip = dir.appendingPathComponent("a.zip")
        try ServeFixtures.zip([("a.txt", "b'x'")], to: zip)
        #expect(FileSignature.of(fileAt: zip) == .zip && FileSignature.zip.isImage == false)
        let mp4 = Data([0, 0, 0, 0x18] + Array("ftypisom".utf8) + [UInt8](repeating: 0, count: 20))
        for data in [Data("just some text".utf8), Data("BM is not a bitmap header, only two letters".utf8), mp4, Data()] {
            #expect(FileSignature.of(data) == nil && !HTTPClient.isImage(data), "\(data.prefix(12) as NSData)")
        }
    }
}
