import Foundation
import Testing
@testable import KotenOCRKit

/// Damaged files must fail their page with one line, not yield wrong text with exit 0.
@Suite("Damaged images")
struct DamagedImageTests {
    static func damagedFiles() throws -> (dir: URL, corrupt: URL, headerLie: URL) {
        let dir = try TestPaths.temporaryDirectory("damaged")
        let jpeg = try Data(contentsOf: TestPaths.image("ndlocr-lite/digidepo_2531162_0024.jpg"))
        var bytes = [UInt8](jpeg)
        var rng = SystemRandomNumberGenerator()
        for i in 0..<200 { bytes[bytes.count / 2 + i] = UInt8.random(in: 0...255, using: &rng) }
        let corrupt = dir.appendingPathComponent("corrupt.jpg")
        try Data(bytes).write(to: corrupt)
        // The frame header (SOF0) promises 14000×14000 pixels over the 2048×1446 page's data.
        var lie = [UInt8](jpeg)
        let sof = try #require((0..<lie.count - 9).first { lie[$0] == 0xFF && lie[$0 + 1] == 0xC0 })
        lie[sof + 5] = 0x36; lie[sof + 6] = 0xB0; lie[sof + 7] = 0x36; lie[sof + 8] = 0xB0
        let headerLie = dir.appendingPathComponent("headerlie.jpg")
        try Data(lie).write(to: headerLie)
        return (dir, corrupt, headerLie)
    }

    @Test("damaged JPEG data and a lying header fail with one line each; --accept-damaged-images reads them")
    func damagedJPEG() throws {
        let files = try Self.damagedFiles()
        let models = try TestPaths.ppocrModels().root.path
        let out = files.dir.appendingPathComponent("out")
        let r = try runProcess(TestPaths.cli, ["--mode", "ppocr", "--models", models, "-o", out.path,
                                               files.corrupt.path, files.headerLie.path])
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines.last?.hasPrefix("koten-ocr: 0 pages read, 2 failed, in ") == true, "\(r.stderr)")
        #expect(lines.dropLast().allSatisfy { $0.contains("damaged image data") }, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("corrupt.txt").path))
        let lenient = try runProcess(TestPaths.cli, ["--mode", "ppocr", "--models", models, "--accept-damaged-images",
                                                     files.corrupt.path])
        #expect(lenient.status == 0, "\(lenient.stderr)")
    }
}
