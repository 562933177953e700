/// A small XML reader for the layout template: elements, attributes (any spacing around `=`),
/// self-closing tags, character data and the five predefined/numeric entities. Enough for the
/// strings `LayoutTemplate` writes; not a general XML parser.
struct TemplateParser {
    struct Malformed: Error, CustomStringConvertible {
        let offset: Int
        let reason: String
        var description: String { "layout template malformed at \(offset): \(reason)" }
    }

    private let s: [Unicode.Scalar]
    private var i = 0

    init(_ scalars: [Unicode.Scalar]) { s = scalars }

    mutating func parseTopLevel() throws -> [PageNode] {
        _ = readText()
        var nodes: [PageNode] = []
        while i < s.count {
            var node = try parseElement()
            let tail = readText()
            node.tail = tail.isEmpty ? nil : tail
            nodes.append(node)
        }
        return nodes
    }

    private mutating func readText() -> String {
        var out = ""
        while i < s.count, s[i] != "<" {
            out.unicodeScalars.append(s[i])
            i += 1
        }
        return decodeEntities(out)
    }

    private mutating func parseElement() throws -> PageNode {
        try expect("<")
        var node = PageNode(tag: readName())
        while true {
            skipSpaces()
            guard i < s.count else { throw Malformed(offset: i, reason: "unterminated tag") }
            if s[i] == "/" {
                i += 1
                try expect(">")
                return node
            }
            if s[i] == ">" {
                i += 1
                break
            }
            let name = readName()
            guard !name.isEmpty else { throw Malformed(offset: i, reason: "attribute name expected") }
            skipSpaces()
            try expect("=")
            skipSpaces()
            try expect("\"")
            var value = ""
            while i < s.count, s[i] != "\"" {
                value.unicodeScalars.append(s[i])
                i += 1
            }
            try expect("\"")
            node.attributes.append(.init(name: name, value: decodeEntities(value)))
        }
        let text = readText()
        node.text = text.isEmpty ? nil : text
        while !(i + 1 < s.count && s[i] == "<" && s[i + 1] == "/") {
            guard i < s.count else { throw Malformed(offset: i, reason: "missing </\(node.tag)>") }
            var child = try parseElement()
            let tail = readText()
            child.tail = tail.isEmpty ? nil : tail
            node.children.append(child)
        }
        i += 2
        guard readName() == node.tag else { throw Malformed(offset: i, reason: "mismatched </\(node.tag)>") }
        skipSpaces()
        try expect(">")
        return node
    }

    private mutating func readName() -> String {
        var out = ""
        while i < s.count, s[i].properties.isAlphabetic || s[i] == "_" || s[i] == ":" || s[i] == "-"
            || ("0"..."9").contains(s[i]) {
            out.unicodeScalars.append(s[i])
            i += 1
        }
        return out
    }

    private mutating func skipSpaces() {
        while i < s.count, s[i] == " " || s[i] == "\n" || s[i] == "\t" || s[i] == "\r" { i += 1 }
    }

    private mutating func expect(_ c: Unicode.Scalar) throws {
        guard i < s.count, s[i] == c else { throw Malformed(offset: i, reason: "expected '\(c)'") }
        i += 1
    }

    private func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { break }
            let name = rest[rest.index(after: amp)..<semi]
            if let decoded = ScalarEscaping.xmlEntities[String(name)] {
                out += decoded
            } else if name.hasPrefix("#"), let code = UInt32(name.dropFirst()), let u = Unicode.Scalar(code) {
                out.unicodeScalars.append(u)
            } else {
                out += rest[amp...semi]
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }
}
