import Foundation
import Testing
@testable import KotenOCRKit

/// ALTO, PAGE and hOCR written with freed memory overwritten at once (glibc's `perturb` tunable, no per-thread cache
/// to keep freed blocks as they were): a writer that reads memory it freed reads garbage and crashes here, every
/// time, where in a normal run it crashes only when another thread has reused that memory first, as in
/// `koten-ocr serve` (FoundationXML's document freed before the elements of its tree: `XMLOutput`).
@Suite("Output formats: XML written without reading freed memory")
struct XMLLifetimeTests {
    /// glibc's tunables exist (elsewhere the poisoned run would check nothing).
    static let glibc = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "gnu_get_libc_version") != nil

    @Test("koten-ocr -f alto,page,hocr with freed memory overwritten: exit 0, the same bytes as a normal run", .enabled(if: glibc))
    func freedMemoryPoisoned() throws {
        let folder = try TestPaths.temporaryDirectory("xml-lifetime")
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = TestPaths.fixtures.appendingPathComponent("field/one_line_mixed_scripts.png")
        var outputs: [[Data]] = []
        for (name, tunables) in [("plain", nil), ("poisoned", "glibc.malloc.tcache_count=0:glibc.malloc.perturb=85")] {
            let out = folder.appendingPathComponent(name)
            var env = ProcessInfo.processInfo.environment
            env["GLIBC_TUNABLES"] = tunables
            env["SOURCE_DATE_EPOCH"] = "1700000000"  // PAGE's Created the same in both runs
            let run = try runProcess(TestPaths.cli, ["--mode", "ppocr", "--models", try TestPaths.ppocrModels().root.path, "-q",
                                                     "-o", out.path, "-f", "alto,page,hocr", page.path], environment: env)
            let report = run.stderr.range(of: "*** Program crashed").map { String(run.stderr[$0.lowerBound...].prefix(2500)) }
            try #require(run.status == 0, "\(name): exit \(run.status): \(report ?? String(run.stderr.prefix(600)))")
            outputs.append(try ["alto.xml", "page.xml", "hocr"].map {
                try Data(contentsOf: out.appendingPathComponent("one_line_mixed_scripts.\($0)"))
            })
        }
        #expect(outputs[0].allSatisfy { $0.count > 200 })
        #expect(outputs[0] == outputs[1])
    }
    /// The resident size of this process, bytes (Linux: /proc/self/statm).
    static func residentBytes() -> Int {
        let fields = ((try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "").split(separator: " ")
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    @Test("ALTO, PAGE and hOCR of a 40-line page written 200 times each: the process keeps less than 20 MB of them (290 MB before)",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/statm")))
    func nothingKept() async {
        // In a child process of its own: no other test's memory comes and goes meanwhile.
        await #expect(processExitsWith: .success) {
            let lines = (0..<40).map { i in
                FormatEdgeCaseTests.line(i, "行\(i)の文字列です", characters: "行\(i)の文字列です".map { (String($0), 0.8) }, vertical: i % 2 == 0)
            }
            let page = FormatEdgeCaseTests.page(lines)
            let formats: [ResultFormat] = [.alto, .pageXML, .hocr]
            for format in formats { _ = try? format.render(page) }
            let before = Self.residentBytes()
            for _ in 0..<200 { for format in formats { _ = try? format.render(page) } }
            let grown = Self.residentBytes() - before
            if grown > 20_000_000 {
                print("XMLLifetimeTests: the process grew by \(grown / 1_000_000) MB over 600 documents")
                exit(3)
            }
        }
    }
}
