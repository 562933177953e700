/// `json.dumps(value, ensure_ascii=False, indent=2)` of CPython 3.11, byte for byte: `", "`
/// → `",\n"` + indentation, `": "` after keys, `[]`/`{}` when empty, floats as `repr`
/// (NaN/Infinity as Python writes them), strings escaping only `"`, `\` and controls < 0x20.
package enum PythonJSON {
    public static func dumps(_ value: JSONValue, indent: Int = 2) -> String {
        var out = ""
        write(value, level: 0, indent: String(repeating: " ", count: indent), into: &out)
        return out
    }

    private static func write(_ value: JSONValue, level: Int, indent: String, into out: inout String) {
        let inner = "\n" + String(repeating: indent, count: level + 1)
        switch value {
        case .object(let members):
            guard !members.isEmpty else { return out += "{}" }
            out += "{"
            for (i, m) in members.enumerated() {
                out += (i == 0 ? "" : ",") + inner + quoted(m.key) + ": "
                write(m.value, level: level + 1, indent: indent, into: &out)
            }
            out += "\n" + String(repeating: indent, count: level) + "}"
        case .array(let items):
            guard !items.isEmpty else { return out += "[]" }
            out += "["
            for (i, item) in items.enumerated() {
                out += (i == 0 ? "" : ",") + inner
                write(item, level: level + 1, indent: indent, into: &out)
            }
            out += "\n" + String(repeating: indent, count: level) + "]"
        case .string(let s): out += quoted(s)
        case .int(let n): out += String(n)
        case .double(let d):
            if d.isNaN { out += "NaN" } else if d.isInfinite { out += d < 0 ? "-Infinity" : "Infinity" } else {
                out += PythonFloatRepr.string(d)
            }
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        }
    }

    private static let escapes: [Unicode.Scalar: String] = [
        "\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\u{08}": "\\b", "\u{0C}": "\\f",
    ]

    static func quoted(_ s: String) -> String {
        "\"" + ScalarEscaping.escape(s) { u in
            if let e = escapes[u] { return e }
            guard u.value < 0x20 else { return nil }
            let hex = String(u.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } + "\""
    }
}
