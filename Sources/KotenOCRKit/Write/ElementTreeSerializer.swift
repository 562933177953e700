/// Serialises a `PageNode` byte for byte as CPython 3.11's `xml.etree.ElementTree.tostring`
/// does: attributes in order, `<X ... />` for an element without text and children, the
/// element's tail included, text escaped `& < >`, attribute values also `" \r \n \t`.
public enum ElementTreeSerializer {
    /// The element and its tail.
    public static func string(_ node: PageNode) -> String {
        var out = ""
        write(node, into: &out)
        return out
    }

    static func write(_ node: PageNode, into out: inout String) {
        out += "<" + node.tag
        for a in node.attributes { out += " \(a.name)=\"\(escapeAttribute(a.value))\"" }
        let text = node.text ?? ""
        if !text.isEmpty || !node.children.isEmpty {
            out += ">" + escapeText(text)
            for child in node.children { write(child, into: &out) }
            out += "</\(node.tag)>"
        } else {
            out += " />"
        }
        out += escapeText(node.tail ?? "")
    }

    static func escapeText(_ s: String) -> String {
        guard s.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" }) else { return s }
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    static func escapeAttribute(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\r": out += "&#13;"
            case "\n": out += "&#10;"
            case "\t": out += "&#09;"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
