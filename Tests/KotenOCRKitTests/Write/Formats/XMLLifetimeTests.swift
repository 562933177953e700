import Foundation
import Testing
@testable import KotenOCRKit

/// ALTO, PAGE and hOCR written with freed memory overwritten at once (glibc's `perturb` tunable, no per-thread cache
/// to keep freed blocks as they were): a writer that reads memory it freed reads garbage and crashes here, every
/// time, where in a normal run it crashes only when another thread has reused that memory first, as in
/// `koten-ocr serve` (FoundationXML's document freed before the elements of its tree: `XMLOutput`).
@Suite("Output formats: XML written without reading freed memory")
struct XMLLifetimeTests {
    @Test("koten-ocr -f alto,page,hocr with freed memory overwritten: exit 0, the same bytes as a normal run")
    func freedMemoryPoisoned() throws {
        let folder = try TestPaths.temporaryDirectory("xml-lifetime")
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = TestPaths.fixtures.appendingPathComponent("field/one_line_mixed_scripts.png")
        var outputs: [[Data]] = []
        for (name, tunables) in [("plain", nil), ("poisoned", "glibc.malloc.tcache_count=0:glibc.malloc.perturb=85")] {
            let out = folder.appendingPathComponent(name)
            var env = ProcessInfo.processInfo.environment
            if let tunables { env["GLIBC_TUNABLES"] = tunables }
            let run = try runProcess(TestPaths.cli, ["--mode", "ppocr", "--models", try TestPaths.ppocrModels().root.path, "-q",
                                                     "-o", out.path, "-f", "alto,page,hocr", page.path], environment: env)
            try #require(run.status == 0, "\(name): exit \(run.status): \(run.stderr.prefix(600))")
            outputs.append(try ["alto.xml", "page.xml", "hocr"].map {
                try Data(contentsOf: out.appendingPathComponent("one_line_mixed_scripts.\($0)"))
            })
        }
        #expect(outputs[0].allSatisfy { $0.count > 200 })
        #expect(outputs[0] == outputs[1])
    }
}
