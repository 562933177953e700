import Foundation
import Testing
@testable import KotenOCRKit

@Suite("Error lines")
struct ErrorTextTests {
    @Test("Foundation file errors read as the system's reason, our errors as their description")
    func lines() {
        #expect(ErrorText.line(CocoaError(.fileWriteOutOfSpace)) == "no space left on device")
        #expect(ErrorText.line(CocoaError(.fileWriteNoPermission)) == "permission denied")
        #expect(ErrorText.line(POSIXError(.EACCES)) == "Permission denied")
        #expect(ErrorText.line(ModelError.modeUnavailable(mode: .ndl)) == "mode ndl is not available in this build")
        #expect(ErrorText.line(ImageError.empty(path: "a b.png")) == "a b.png: empty file")
    }

    @Test("an output folder under a file is one line naming the folder, exit 2, nothing written")
    func outputUnderFile() throws {
        let dir = try TestPaths.temporaryDirectory()
        let file = dir.appendingPathComponent("plain")
        try Data("x".utf8).write(to: file)
        let r = try runProcess(TestPaths.cli, ["--mode", "ppocr", "--models", try TestPaths.ppocrModels().root.path,
                                               "-o", file.appendingPathComponent("out").path,
                                               TestPaths.image("ndlocr-lite-rs/scaned0.png").path])
        #expect(r.status == 2)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(!r.stderr.contains("Error Domain"), "\(r.stderr)")
        #expect(r.stderr.contains(file.path))
    }
}
