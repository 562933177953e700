/// `xml.etree.ElementTree.indent(tree, space="  ")` of CPython 3.11: every element with children
/// gets its whitespace-only (or missing) text and its children's whitespace-only tails replaced
/// by a newline plus two spaces per level; the last child's tail dedents to the parent's level.
enum ElementTreeIndent {
    static func indent(_ root: inout PageNode, space: String = "  ") {
        guard !root.children.isEmpty else { return }
        indentChildren(&root, level: 0, space: space)
    }

    private static func indentChildren(_ element: inout PageNode, level: Int, space: String) {
        let own = "\n" + String(repeating: space, count: level)
        let child = own + space
        if isBlank(element.text) { element.text = child }
        for i in element.children.indices {
            if !element.children[i].children.isEmpty { indentChildren(&element.children[i], level: level + 1, space: space) }
            if isBlank(element.children[i].tail) { element.children[i].tail = child }
        }
        if let last = element.children.indices.last, isBlank(element.children[last].tail) {
            element.children[last].tail = own
        }
    }

    /// `not s or not s.strip()` with Python's notion of whitespace (`str.isspace`).
    static func isBlank(_ s: String?) -> Bool {
        guard let s else { return true }
        return s.unicodeScalars.allSatisfy(isPythonSpace)
    }

    static func isPythonSpace(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x09...0x0D, 0x1C...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            return true
        default:
            return false
        }
    }
}
