import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Small conveniences over Foundation's XML tree (`XMLElement`), so the writers read as the format they write.
///
/// Every node is made the way that lets it go with its tree. On Linux, FoundationXML's factories
/// `XMLNode.attribute(withName:stringValue:)`, `XMLNode.text(withStringValue:)` and `XMLNode.namespace(withName:stringValue:)`
/// make nodes that are never freed (swift-corelibs-foundation's `XMLNode.init(ptr:)` keeps a retain of the node in
/// its libxml2 node that nothing releases): through them, each page's ALTO kept 0.68 MB, its PAGE 0.65 MB and its
/// hOCR 0.12 MB for the life of the process (a 40-line page; `koten-ocr serve` writes all three for every page).
/// `XMLNode(kind:)` and `XMLElement(name:stringValue:)` make nodes their tree frees (docs/formats.md, "How the XML
/// is written").
extension XMLElement {
    /// An element named `name` with `attributes` in the order given.
    convenience init(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        self.init(name: name)
        for (key, value) in attributes { set(key, value) }
    }

    /// Sets (adds) the attribute `name`.
    func set(_ name: String, _ value: String) {
        let attribute = XMLNode(kind: .attribute)
        attribute.name = name
        attribute.stringValue = value
        addAttribute(attribute)
    }

    /// Appends a child element, with `text` as its content when given, and returns it.
    @discardableResult
    func add(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], text: String? = nil) -> XMLElement {
        let child = text.map { XMLElement(name: name, stringValue: $0) } ?? XMLElement(name: name)
        for (key, value) in attributes { child.set(key, value) }
        addChild(child)
        return child
    }

    /// Declares the namespace `uri` under `prefix` ("" for the default namespace).
    func declare(_ prefix: String, _ uri: String) {
        let namespace = XMLNode(kind: .namespace)
        namespace.name = prefix
        namespace.stringValue = uri
        addNamespace(namespace)
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
