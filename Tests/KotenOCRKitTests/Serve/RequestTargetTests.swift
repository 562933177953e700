import Foundation
import Testing
@testable import KotenOCRServer

/// How the API reads a request-target and a Range header (`RequestTarget`, `Representation.range`).
@Suite("serve: a request's target and range")
struct RequestTargetTests {
    @Test("segments percent-decoded after the split; the query's + a space; the absolute form's path")
    func target() throws {
        let t = try RequestTarget("/v1/a%2Fb/%E6%9C%AC?x=1+2&y=%C3%A9&x=3&flag")
        #expect(t.segments == ["v1", "a/b", "本"])
        #expect(t.query == ["x": "3", "y": "é", "flag": ""])
        #expect(try RequestTarget("/").segments.isEmpty)
        #expect(try RequestTarget("/a/").segments == ["a", ""])
        #expect(try RequestTarget("http://127.0.0.1:8080/healthz?q=1").segments == ["healthz"])
    }

    @Test("refused: control characters decoded anywhere, bad escapes, bytes that are not UTF-8 (400); past 8 KB (414)",
          arguments: ["/a%00", "/a%0d%0a", "/a%09", "/a%7F", "/a?x=%00", "/a%zz", "/a%4", "/a%C3", "/a%FF", "*"])
    func refused(_ target: String) {
        #expect(throws: (any Error).self) { try RequestTarget(target) }
        do { _ = try RequestTarget(target) } catch { #expect(error.code == .badPath, "\(target)") }
    }

    @Test("a target past 8 KB is 414")
    func tooLong() {
        do { _ = try RequestTarget("/" + String(repeating: "a", count: 8192)) } catch { #expect(error.code == .uriTooLong) }
        #expect((try? RequestTarget("/" + String(repeating: "a", count: 8000))) != nil)
    }

    @Test("Range: one bytes= range (a-b, a-, -n) within the document, past its end 416, anything else the whole document")
    func range() {
        let size: Int64 = 1000
        let cases: [(String, Representation.RangeAnswer)] = [
            ("bytes=0-99", .part(offset: 0, length: 100)), ("bytes=990-", .part(offset: 990, length: 10)),
            ("bytes=-10", .part(offset: 990, length: 10)), ("bytes=-5000", .part(offset: 0, length: 1000)),
            ("bytes=900-5000", .part(offset: 900, length: 100)), ("bytes=1000-", .unsatisfiable), ("bytes=-0", .unsatisfiable),
            ("bytes=5-1", .whole), ("bytes=0-1,5-6", .whole), ("items=0-1", .whole), ("bytes=a-b", .whole), ("bytes=-", .whole),
        ]
        for (header, expected) in cases { #expect(Representation.range(header, size: size) == expected, "\(header)") }
    }

    @Test("page numbers are written as numbers are; ids any segment (checked when looked up)")
    func pathParameters() {
        for n in ["1", "12", "999999999"] { #expect(PathParameter.n.accepts(n), "\(n)") }
        for n in ["0", "01", "+1", "-1", "1.0", "1e3", " 1", "1 ", "", "１", "1000000000"] { #expect(!PathParameter.n.accepts(n), "\(n)") }
        let pattern = PathPattern("/v1/jobs/{id}/pages/{n}")
        #expect(pattern.match(["v1", "jobs", "abc", "pages", "3"]) == [.id: "abc", .n: "3"])
        #expect(pattern.match(["v1", "jobs", "abc", "pages", "03"]) == nil)
        #expect(pattern.match(["v1", "jobs", "abc", "pages"]) == nil)
    }
}
