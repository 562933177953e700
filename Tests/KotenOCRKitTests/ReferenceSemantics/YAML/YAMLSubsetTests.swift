import Foundation
import Testing
@testable import KotenOCRKit

/// The YAML subset of NDL's configuration files (`config/ndl.yaml`, `config/NDLmoji.yaml`): what it reads,
/// and that everything else is refused with its line.
@Suite("YAML subset")
struct YAMLSubsetTests {
    @Test("YAML: nested mappings, plain / single / double-quoted scalars, comments, CRLF")
    func yamlScalars() throws {
        let text = "# header\r\n---\r\nmodel:\r\n  name: parseq   # comment\r\n  quoted: 'it''s #1'\r\n"
            + "  escaped: \"a\\\"b\\\\c\\t\\u00e9\\U0002000B\\x41 \"\r\n  nested:\r\n    deep: 3\r\nlast: x\r\n"
        let v = try YAMLSubset.scalars(text)
        #expect(v == ["model.name": "parseq", "model.quoted": "it's #1", "model.escaped": "a\"b\\c\té𠀋A ",
                      "model.nested.deep": "3", "last": "x"])
    }

    @Test("YAML: sequences (block, compact, flow), integer keys, empty values, multi-line double quotes")
    func yamlCollections() throws {
        let v = try YAMLSubset.scalars("""

        names:
          0: text_block
          16: line_title
        list:
        - a
        - "b c"
        flow: [x, 'y', "z"]
        empty:
        folded: "one
          two

          three"
        """)
        #expect(v == ["names.0": "text_block", "names.16": "line_title", "list.0": "a", "list.1": "b c",
                      "flow.0": "x", "flow.1": "y", "flow.2": "z", "empty": "", "folded": "one two\nthree"])
    }

    @Test("YAML: what the subset does not read is refused with its line", arguments: [
        ("a: |\n  block\n", 1), ("a:\n\tb: 1\n", 2), ("a: \"open\n", 1), ("a: 1\n b: 2\n", 2), ("a: &x 1\n", 1),
        ("- a: 1\n", 1), ("a: \"\\q\"\n", 1), ("---\na: 1\n---\nb: 2\n", 3),
    ])
    func yamlRefusals(_ input: (String, Int)) {
        #expect(throws: YAMLSubset.ParseError.self) { try YAMLSubset.scalars(input.0) }
        do {
            _ = try YAMLSubset.scalars(input.0)
        } catch let e as YAMLSubset.ParseError {
            #expect(e.line == input.1, "\(e)")
        } catch {}
    }
}
