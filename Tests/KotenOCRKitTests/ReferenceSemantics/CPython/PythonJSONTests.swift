import Foundation
import Testing
@testable import KotenOCRKit

/// `repr(float)` and `json.dumps(ensure_ascii=False, indent=2)` against CPython 3.11 output
/// (vectors: scripts/gen_python_json_vectors.py).
@Suite struct PythonJSONTests {
    private func vectors() throws -> [String: Any] {
        let url = Fixtures.parityRoot.deletingLastPathComponent().appendingPathComponent("python/python_json_vectors.json")
        return try JSONAccess.dict(Fixtures.json(url))
    }

    @Test func floatReprMatchesCPython() throws {
        let floats = try JSONAccess.array(vectors()["floats"])
        #expect(floats.count > 500)
        for entry in floats {
            let pair = try JSONAccess.array(entry)
            guard let bits = (pair[0] as? NSNumber)?.uint64Value else { throw JSONAccess.Missing(what: "bits") }
            let expected = try JSONAccess.string(pair[1])
            #expect(PythonFloatRepr.string(Double(bitPattern: bits)) == expected)
        }
    }

    @Test func documentMatchesCPythonDumps() throws {
        let expected = try JSONAccess.string(vectors()["document_dumps"])
        let text = " A&B <tag> \"q\" 's' \\path \t\n\r\u{08}\u{0C}\u{01}\u{1F}\u{7F} 𠮷〓"
        let line: JSONValue = .object([
            .init("boundingBox", .array([.array([.int(1), .int(2)]), .array([.int(3), .int(4)])])),
            .init("id", .int(0)), .init("text", .string(text)), .init("confidence", .double(0.94)),
            .init("empty", .array([])), .init("obj", .object([])), .init("t", .bool(true)),
            .init("f", .bool(false)), .init("n", .null),
        ])
        let doc: JSONValue = .object([
            .init("contents", .array([.array([line])])),
            .init("imginfo", .object([.init("img_width", .int(645)), .init("img_name", .string("ä b.png"))])),
        ])
        #expect(PythonJSON.dumps(doc) == expected)
    }
}
