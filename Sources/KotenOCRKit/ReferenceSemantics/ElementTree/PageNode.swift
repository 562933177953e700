/// One element of an XML tree with ElementTree's text/tail model: `text` is the character data before the
/// first child, `tail` the character data after the closing tag. Named for its main use, the NDL page tree
/// (PAGE, TEXTBLOCK, LINE): the reference builds its page as an indented string and parses it, so the
/// indentation survives as text and tails and travels with the elements when reading order moves them
/// (parity README N8). The koten TEI document is built from it too. It lives with the ElementTree
/// emulation (`TemplateParser`, `ElementTreeSerializer`, `ElementTreeIndent`) because its model is
/// ElementTree's; the NDL accessors are elsewhere: `lines` (Layout/PageNode+Lines.swift) and `lineBox`
/// (Geometry/PixelBox+PageNode.swift).
package struct PageNode: Sendable, Hashable {
    /// One attribute; order is kept as written (TYPE X Y WIDTH HEIGHT CONF PRED_CHAR_CNT ORDER STRING).
    public struct Attribute: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var tag: String
    public var attributes: [Attribute]
    public var text: String?
    public var tail: String?
    public var children: [PageNode]

    public init(tag: String, attributes: [Attribute] = [], text: String? = nil, tail: String? = nil,
                children: [PageNode] = []) {
        self.tag = tag
        self.attributes = attributes
        self.text = text
        self.tail = tail
        self.children = children
    }

    /// The value of an attribute; setting appends a new attribute or replaces the value in place.
    public subscript(attribute name: String) -> String? {
        get { attributes.first { $0.name == name }?.value }
        set {
            if let i = attributes.firstIndex(where: { $0.name == name }) {
                if let newValue { attributes[i].value = newValue } else { attributes.remove(at: i) }
            } else if let newValue {
                attributes.append(Attribute(name: name, value: newValue))
            }
        }
    }

    /// Integer attribute (`X`, `Y`, `WIDTH`, `HEIGHT`), nil when absent or not an integer.
    func int(_ name: String) -> Int? { self[attribute: name].flatMap { Int($0) } }

    /// Float attribute parsed as Python's `float()` does for the values written here.
    func double(_ name: String) -> Double? { self[attribute: name].flatMap { Double($0) } }
}

extension PageNode {
    /// Index paths of every descendant with `tag`, in document order (ElementTree `.//TAG`).
    func paths(of tag: String) -> [[Int]] {
        var result: [[Int]] = []
        func visit(_ node: PageNode, _ path: [Int]) {
            for (i, child) in node.children.enumerated() {
                if child.tag == tag { result.append(path + [i]) }
                visit(child, path + [i])
            }
        }
        visit(self, [])
        return result
    }

    /// The descendant at an index path.
    subscript(path path: [Int]) -> PageNode {
        get { path.reduce(self) { $0.children[$1] } }
        set {
            guard let first = path.first else {
                self = newValue
                return
            }
            children[first][path: Array(path.dropFirst())] = newValue
        }
    }
}
