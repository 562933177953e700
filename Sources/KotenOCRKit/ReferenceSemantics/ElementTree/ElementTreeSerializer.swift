/// Serialises a `PageNode` byte for byte as CPython 3.11's `xml.etree.ElementTree.tostring`
/// does: attributes in order, `<X ... />` for an element without text and children, the
/// element's tail included, text escaped `& < >`, attribute values also `" \r \n \t`.
package enum ElementTreeSerializer {
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

    private static let textEscapes: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;"]
    private static let attributeEscapes = textEscapes.merging(
        ["\"": "&quot;", "\r": "&#13;", "\n": "&#10;", "\t": "&#09;"]) { a, _ in a }

    static func escapeText(_ s: String) -> String { ScalarEscaping.escape(s) { textEscapes[$0] } }

    static func escapeAttribute(_ s: String) -> String { ScalarEscaping.escape(s) { attributeEscapes[$0] } }
}
