/// A reader for the small YAML subset NDL's model configuration files use (`config/ndl.yaml`,
/// `config/NDLmoji.yaml`), so no YAML library is needed. It returns every scalar of the document
/// under its dotted key path: `model.charset_train`, `names.0`, and `names.2` for the third item of
/// a sequence.
///
/// Supported: block mappings nested by space indentation; block sequences (`- item`); flow sequences
/// on one line (`[a, 'b', "c"]`); plain scalars (a ` #` starts a comment); single-quoted scalars
/// (`''` is a quote); double-quoted scalars with YAML's escapes (`\\ \" \/ \0 \a \b \t \n \v \f \r \e
/// \N \_ \L \P \xXX \uXXXX \UXXXXXXXX`, escaped space and line break) spanning lines with YAML's
/// folding; comments; `---` / `...` document markers; CRLF line ends. Anything else (tabs as
/// indentation, block scalars `|` `>`, anchors, flow mappings, several documents) is refused with
/// the line number, never guessed at.
///
/// The text is handled as Unicode scalars throughout: a charset string holds combining marks and
/// variation selectors (U+FE0E) that Swift's `Character` would merge with their neighbours
/// (docs/reference-pipelines.md §1.5, "Pitfall").
enum YAMLSubset {
    struct ParseError: Error, Equatable, CustomStringConvertible {
        let line: Int
        let reason: String
        var description: String { "line \(line): \(reason)" }
    }

    typealias Scalars = [Unicode.Scalar]

    /// Every scalar of `text` by its dotted key path. Throws `ParseError`.
    static func scalars(_ text: String) throws -> [String: String] {
        var parser = Parser(lines: splitLines(text))
        try parser.parse()
        return parser.values
    }

    private static func splitLines(_ text: String) -> [Scalars] {
        var lines: [Scalars] = [[]]
        var previousCR = false
        for s in text.unicodeScalars {
            if s == "\n" {
                if previousCR { lines[lines.count - 1].removeLast() }
                lines.append([])
            } else {
                lines[lines.count - 1].append(s)
            }
            previousCR = s == "\r"
        }
        return lines
    }

    private struct Parser {
        let lines: [Scalars]
        var values: [String: String] = [:]
        /// Open containers, outermost first: the indentation of their entries (nil until the first entry),
        /// key path, whether they hold sequence items, and the next item index.
        private struct Container {
            var indent: Int?
            var path: String
            var isSequence: Bool?
            var nextIndex = 0
        }
        private var stack: [Container] = [Container(indent: nil, path: "")]
        private var row = 0

        init(lines: [Scalars]) { self.lines = lines }

        mutating func parse() throws {
            var documents = 0
            while row < lines.count {
                let line = lines[row]
                let indent = line.prefix { $0 == " " }.count
                let body = Array(line[indent...])
                if body.isEmpty || body.allSatisfy({ $0 == " " || $0 == "\t" }) || body.first == "#" {
                    row += 1
                    continue
                }
                if body.first == "\t" { throw error("tab used for indentation") }
                if indent == 0 && (startsWith(body, "---") || startsWith(body, "...")) {
                    if startsWith(body, "---") { documents += 1 }
                    if documents > 1 { throw error("more than one document") }
                    row += 1
                    continue
                }
                try entry(indent: indent, body: body)
            }
            for c in stack.dropFirst() where c.indent == nil { values[c.path] = "" }
        }

        private func startsWith(_ s: Scalars, _ prefix: String) -> Bool {
            let p = Array(prefix.unicodeScalars)
            return s.count >= p.count && Array(s[0..<p.count]) == p && (s.count == p.count || s[p.count] == " ")
        }

        private func error(_ reason: String) -> ParseError { ParseError(line: row + 1, reason: reason) }

        /// Finds the open container this line belongs to: a key without a value opens a block whose
        /// indentation is that of its first entry (deeper than its parent's, or equal for a sequence —
        /// YAML's compact `key:` / `- item` form); a shallower line closes blocks.
        private mutating func container(for indent: Int, isItem: Bool) throws -> Int {
            if let last = stack.last, last.indent == nil {
                let parentIndent = stack.count > 1 ? (stack[stack.count - 2].indent ?? -1) : -1
                if indent > parentIndent || (indent == parentIndent && isItem) {
                    stack[stack.count - 1].indent = indent
                } else {
                    values[last.path] = ""  // a key with no value (null)
                    stack.removeLast()
                }
            }
            while stack.count > 1, let top = stack.last, let i = top.indent,
                  i > indent || (i == indent && top.isSequence == true && !isItem) {
                stack.removeLast()
            }
            let k = stack.count - 1
            guard stack[k].indent == indent else { throw error("indentation does not match any open block") }
            if let kind = stack[k].isSequence, kind != isItem {
                throw error(isItem ? "a sequence item among mapping entries" : "a mapping entry among sequence items")
            }
            stack[k].isSequence = isItem
            return k
        }

        /// One mapping entry or sequence item at `indent`.
        private mutating func entry(indent: Int, body: Scalars) throws {
            let isItem = body.first == "-" && (body.count == 1 || body[1] == " ")
            let k = try container(for: indent, isItem: isItem)
            let key: String
            let rest: Scalars
            if isItem {
                key = join(stack[k].path, String(stack[k].nextIndex))
                stack[k].nextIndex += 1
                rest = Array(body.dropFirst().drop { $0 == " " })
                if rest.first != "\"" && rest.first != "'" && (try? mappingKey(rest)) != nil {
                    throw error("mappings inside sequence items are not supported")
                }
            } else {
                let (name, afterColon) = try mappingKey(body)
                key = join(stack[k].path, name)
                rest = Array(afterColon.drop { $0 == " " })
            }
            if rest.isEmpty || rest.first == "#" {
                stack.append(Container(indent: nil, path: key))
                row += 1
            } else {
                try value(rest, key: key)
            }
        }

        private func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : a + "." + b }

        /// The key of `key: value` (plain or quoted) and what follows the colon.
        private func mappingKey(_ body: Scalars) throws -> (String, Scalars) {
            if body.first == "\"" || body.first == "'" {
                let (key, end) = try quoted([body], multiLine: false)
                let rest = Array(body[end.index...]).drop { $0 == " " }
                guard rest.first == ":" else { throw error("expected ':' after a quoted key") }
                return (key, Array(rest.dropFirst()))
            }
            var i = 0
            while i < body.count {
                if body[i] == ":" && (i + 1 == body.count || body[i + 1] == " ") {
                    let key = String(String.UnicodeScalarView(body[0..<i])).trimmingTrailingSpaces
                    guard !key.isEmpty else { throw error("empty key") }
                    if let c = key.unicodeScalars.first, "&*!|>{[%@`".unicodeScalars.contains(c) {
                        throw error("unsupported YAML syntax '\(c)'")
                    }
                    return (key, Array(body[(i + 1)...]))
                }
                i += 1
            }
            throw error("expected 'key: value'")
        }

        /// A scalar value (or a one-line flow sequence) starting on the current line; advances past it.
        private mutating func value(_ text: Scalars, key: String) throws {
            switch text.first {
            case "\"", "'":
                var block = Array(lines[row...])
                block[0] = text
                let (s, end) = try quoted(block, multiLine: true)
                try expectEndOfLine(Array(block[end.line][end.index...]), lineOffset: end.line)
                values[key] = s
                row += end.line + 1
            case "[":
                values.merge(try flowSequence(text, key: key)) { $1 }
                row += 1
            case "|", ">", "{", "&", "*", "!", "%", "@", "`":
                throw error("unsupported YAML syntax '\(text[0])' (block scalars, flow mappings, anchors, tags)")
            default:
                values[key] = plain(text)
                row += 1
            }
        }

        /// A plain scalar: up to a ` #` comment, trailing spaces removed.
        private func plain(_ text: Scalars) -> String {
            var end = text.count
            for i in 1..<max(1, text.count) where text[i] == "#" && (text[i - 1] == " " || text[i - 1] == "\t") {
                end = i
                break
            }
            return String(String.UnicodeScalarView(text[0..<end])).trimmingTrailingSpaces
        }

        private func expectEndOfLine(_ rest: Scalars, lineOffset: Int) throws {
            let trimmed = rest.drop { $0 == " " || $0 == "\t" }
            guard trimmed.isEmpty || trimmed.first == "#" else {
                throw ParseError(line: row + lineOffset + 1, reason: "unexpected text after a quoted scalar")
            }
        }

        /// `[a, 'b', "c"]` on one line: items under `key.0`, `key.1`, ...
        private func flowSequence(_ text: Scalars, key: String) throws -> [String: String] {
            var result: [String: String] = [:]
            var i = 1, index = 0
            while true {
                while i < text.count && text[i] == " " { i += 1 }
                guard i < text.count else { throw error("unterminated flow sequence") }
                if text[i] == "]" {
                    try expectEndOfLine(Array(text[(i + 1)...]), lineOffset: 0)
                    return result
                }
                let item: String
                if text[i] == "\"" || text[i] == "'" {
                    let (value, end) = try quoted([Array(text[i...])], multiLine: false)
                    item = value
                    i += end.index
                } else {
                    var j = i
                    while j < text.count && text[j] != "," && text[j] != "]" { j += 1 }
                    item = String(String.UnicodeScalarView(text[i..<j])).trimmingTrailingSpaces
                    if item.unicodeScalars.first.map({ "[{&*!".unicodeScalars.contains($0) }) == true {
                        throw error("nested flow collections are not supported")
                    }
                    i = j
                }
                result[join(key, String(index))] = item
                index += 1
                while i < text.count && text[i] == " " { i += 1 }
                if i < text.count && text[i] == "," { i += 1 }
            }
        }

        /// A quoted scalar starting at `lines[0][0]` (its opening quote, `"` or `'`); returns its value and
        /// the position just past its closing quote. Line breaks inside fold as YAML folds them (one break
        /// is a space, n breaks are n − 1 newlines; white space around them dropped); in single quotes `''`
        /// is a quote; in double quotes the escapes listed above apply, and `\` at a line end joins lines.
        private func quoted(_ lines: [Scalars], multiLine: Bool) throws -> (String, end: (line: Int, index: Int)) {
            let quote = lines[0][0]
            let kind = quote == "\"" ? "double" : "single"
            var out = String.UnicodeScalarView()
            var line = 0, i = 1, pendingBreaks = 0, lineStart = false  // leading white space dropped on continuation lines
            func nextLine() throws {
                guard multiLine, line + 1 < lines.count else {
                    throw ParseError(line: row + 1, reason: "unterminated \(kind)-quoted scalar starting here")
                }
                line += 1
                i = 0
                lineStart = true
            }
            while true {
                let s = lines[line]
                if lineStart {
                    while i < s.count && (s[i] == " " || s[i] == "\t") { i += 1 }
                    lineStart = false
                }
                guard i < s.count else {
                    while let last = out.last, last == " " || last == "\t", pendingBreaks == 0 { out.removeLast() }
                    pendingBreaks += 1
                    try nextLine()
                    continue
                }
                if pendingBreaks == 1 { out.append(" ") } else if pendingBreaks > 1 {
                    out.append(contentsOf: String(repeating: "\n", count: pendingBreaks - 1).unicodeScalars)
                }
                pendingBreaks = 0
                let c = s[i]
                if c == quote {
                    if quote == "'" && i + 1 < s.count && s[i + 1] == "'" {
                        out.append("'")
                        i += 2
                        continue
                    }
                    return (String(out), (line, i + 1))
                }
                guard quote == "\"" && c == "\\" else {
                    out.append(c)
                    i += 1
                    continue
                }
                guard i + 1 < s.count else {
                    try nextLine()  // escaped line break: joined without a space
                    continue
                }
                let (scalars, used) = try escape(s, at: i + 1, line: line)
                out.append(contentsOf: scalars)
                i += 1 + used
            }
        }

        /// The double-quoted escape whose letter is at `s[at]`: its value and how many scalars it used.
        private func escape(_ s: Scalars, at: Int, line: Int) throws -> (String.UnicodeScalarView, Int) {
            let simple: [Unicode.Scalar: String] = [
                "0": "\0", "a": "\u{07}", "b": "\u{08}", "t": "\t", "\t": "\t", "n": "\n", "v": "\u{0B}",
                "f": "\u{0C}", "r": "\r", "e": "\u{1B}", " ": " ", "\"": "\"", "/": "/", "\\": "\\",
                "N": "\u{85}", "_": "\u{A0}", "L": "\u{2028}", "P": "\u{2029}",
            ]
            let e = s[at]
            if let v = simple[e] { return (v.unicodeScalars, 1) }
            let digits: Int
            switch e {
            case "x": digits = 2
            case "u": digits = 4
            case "U": digits = 8
            default: throw ParseError(line: row + line + 1, reason: "unknown escape '\\\(e)'")
            }
            guard at + 1 + digits <= s.count,
                  let v = UInt32(String(String.UnicodeScalarView(s[(at + 1)..<(at + 1 + digits)])), radix: 16),
                  let scalar = Unicode.Scalar(v) else {
                throw ParseError(line: row + line + 1, reason: "bad \\\(e) escape")
            }
            return (String.UnicodeScalarView([scalar]), 1 + digits)
        }
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var s = unicodeScalars
        while let last = s.last, last == " " || last == "\t" { s.removeLast() }
        return String(s)
    }
}
