import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Small conveniences over Foundation's XML tree (`XMLElement`), so the writers read as the format they write.
extension XMLElement {
    /// An element named `name` with `attributes` in the order given.
    convenience init(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        self.init(name: name)
        for (key, value) in attributes { set(key, value) }
    }

    /// Sets (adds) the attribute `name`.
    func set(_ name: String, _ value: String) {
        if let attribute = XMLNode.attribute(withName: name, stringValue: value) as? XMLNode { addAttribute(attribute) }
    }

    /// Appends a child element and returns it.
    @discardableResult
    func add(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], text: String? = nil) -> XMLElement {
        let child = XMLElement(name, attributes)
        if let text { child.addChild(XMLNode.text(withStringValue: text) as? XMLNode ?? XMLNode(kind: .text)) }
        addChild(child)
        return child
    }

    /// Declares the namespace `uri` under `prefix` ("" for the default namespace).
    func declare(_ prefix: String, _ uri: String) {
        if let namespace = XMLNode.namespace(withName: prefix, stringValue: uri) as? XMLNode { addNamespace(namespace) }
    }
}

extension XMLElement {
    /// An element named `name` with `attributes` in the order given.
    convenience init(_ name: String, _ attributes: [(String, String)]) {
        self.init(name: name)
        for (key, value) in attributes { set(key, value) }
    }

    /// Appends a child element with `attributes` in the order given and returns it.
    @discardableResult
    func add(_ name: String, _ attributes: [(String, String)]) -> XMLElement {
        let child = XMLElement(name, attributes)
        addChild(child)
        return child
    }
}

enum XMLOutput {
    /// The UTF-8 bytes of the document whose root `build` makes: an XML declaration, then the tree indented.
    /// `compactEmpty` writes elements without children as `<meta/>` (XHTML's void elements, which HTML parsers
    /// reject as `<meta></meta>`; an element that may be empty then needs an empty text child to stay open and shut).
    ///
    /// The document is made first and outlives every element of its tree. FoundationXML on Linux frees the
    /// document's libxml2 node when the `XMLDocument` goes, while an element still held elsewhere keeps a pointer to
    /// it, and libxml2 reads that freed document when the element is freed (`xmlFreeNode` reads its dictionary):
    /// with the document made after the tree and the tree held by the writer past it, as before, every ALTO, PAGE and
    /// hOCR file read freed memory, and `koten-ocr serve`, whose other threads reuse it at once, crashed
    /// (docs/formats.md, "How the XML is written"). Here `build`'s elements end inside it, the document holds the
    /// tree, and the document's own end frees the tree before itself.
    static func data(compactEmpty: Bool = false, _ build: () -> XMLElement) -> Data {
        let document = XMLDocument()
        return withExtendedLifetime(document) {
            document.setRootElement(build())
            document.version = "1.0"
            document.characterEncoding = "UTF-8"
            var data = document.xmlData(options: compactEmpty ? [.nodePrettyPrint, .nodeCompactEmptyElement] : [.nodePrettyPrint])
            if data.last != 0x0A { data.append(0x0A) }
            return data
        }
    }
}
