import Foundation
import Testing
@testable import KotenOCRKit

/// Outcome of one parity case, computed once and shared by the per-case test and the summary.
actor ParityResults {
    static let shared = ParityResults()
    private var results: [String: Task<String, Never>] = [:]

    /// "PASS", "PASS (note)" or "FAIL (first difference)".
    func outcome(_ c: ParityCase) async -> String {
        if let task = results[c.description] { return await task.value }
        let task = Task<String, Never> {
            do {
                let note = try await (c.mode == "ndl" ? NDLParityRunner.run(c) : KotenParityRunner.run(c))
                return note.map { "PASS (\($0))" } ?? "PASS"
            } catch {
                return "FAIL (\(error))"
            }
        }
        results[c.description] = task
        return await task.value
    }
}

/// Every discovered parity case (see `discoveredCases`), stage by stage: detections, layout
/// template, xy-cut, ordered tree, recogniser calls/crops, then `<stem>.xml/.txt/.json`
/// (and koten `_tei.xml`) byte for byte. Run alone with `swift test --filter Parity`.
@Suite struct ParityTests {
    @Test(arguments: discoveredCases())
    func parityCase(_ c: ParityCase) async {
        let outcome = await ParityResults.shared.outcome(c)
        print("PARITY \(c): \(outcome)")
        #expect(outcome.hasPrefix("PASS"), "\(c): \(outcome)")
    }

    @Test func summary() async {
        for mode in ["ndl", "koten"] {
            let cases = discoveredCases(mode: mode)
            var passed = 0
            for c in cases where await ParityResults.shared.outcome(c).hasPrefix("PASS") { passed += 1 }
            print("PARITY \(mode): \(passed)/\(cases.count) passed")
            #expect(!cases.isEmpty)
            #expect(passed == cases.count)
        }
    }
}
