/// One line of a TEI page: its box (image pixels, xyxy) and recognised text.
package struct TEILine: Sendable, Hashable {
    public var box: PixelBox
    public var text: String

    public init(box: PixelBox, text: String) {
        self.box = box
        self.text = text
    }
}

/// One page of a koten TEI document.
package struct TEIPage: Sendable, Hashable {
    public var image: ImageInfo
    /// The page's LINEs in document order.
    public var lines: [TEILine]
    /// The IIIF canvas the page was read from (a manifest's), if any: its `surface` names it (`corresp`), and the
    /// header the first such page's manifest (docs/iiif.md, "Metadata").
    package var iiif: IIIFCanvasSource?

    public init(image: ImageInfo, lines: [TEILine]) {
        self.image = image
        self.lines = lines
    }

    /// The page as the reference's JSON describes it: every LINE box and STRING.
    public init(page: PageNode, image: ImageInfo) {
        self.init(image: image, lines: page.lines.map { TEILine(box: $0.lineBox, text: $0[attribute: "STRING"] ?? "") })
    }
}

extension ReferencePage {
    /// The page as one `surface` of a koten TEI document.
    var teiPage: TEIPage { TEIPage(page: page, image: image) }
}

/// The koten TEI document (`<first-stem>_tei.xml`) for a batch of pages, byte for byte as the
/// reference's converter writes it (parity README O4; koten `tools/ndlkoten2tei.py`, Apache-2.0,
/// Kiyonori Nagasaki): ElementTree output with `<?xml version='1.0' encoding='utf-8'?>`, the
/// header of its template, one `surface` per page (graphic URL with spaces as %20, zones
/// `L{page:04}_{line:03}` with ulx/uly/lrx/lry), and in the body a `pb` per page and an `lb`
/// per line whose tail is the text, indented with two spaces (whitespace-only texts become
/// indentation, as `ElementTree.indent` does).
package enum KotenTEI {
    public static func document(pages: [TEIPage]) -> String {
        func element(_ tag: String, _ attributes: [(String, String)] = [], text: String? = nil) -> PageNode {
            PageNode(tag: tag, attributes: attributes.map { .init(name: $0.0, value: $0.1) }, text: text)
        }
        func element(_ tag: String, text: String? = nil, _ children: [PageNode]) -> PageNode {
            PageNode(tag: tag, text: text, children: children)
        }
        var surfaces: [PageNode] = []
        var body: [PageNode] = []
        for (pn, page) in pages.enumerated() {
            let pageID = padded(pn, 4)
            var surface = element("surface", page.iiif.map { [("corresp", $0.canvas)] } ?? [], text: nil)
            surface.children = [element("graphic", [
                ("url", page.image.path.replacingOccurrences(of: " ", with: "%20")),
                ("width", "\(page.image.width)px"), ("height", "\(page.image.height)px"),
            ])]
            body.append(element("pb", [("n", page.image.name), ("facs", "#\(page.image.name)")]))
            for (n, line) in page.lines.enumerated() {
                let zoneID = "L\(pageID)_\(padded(n, 3))"
                surface.children.append(element("zone", [
                    ("xml:id", zoneID), ("ulx", "\(line.box.x1)"), ("uly", "\(line.box.y1)"),
                    ("lrx", "\(line.box.x2)"), ("lry", "\(line.box.y2)"),
                ]))
                var lb = element("lb", [("n", "\(n)"), ("facs", "#\(zoneID)")])
                lb.tail = line.text
                body.append(lb)
            }
            surfaces.append(surface)
        }
        let source = pages.lazy.compactMap(\.iiif).first
        let header = element("teiHeader", [element("fileDesc", [
            element("titleStmt", [
                element("title", text: source?.label ?? "Title"),
                element("respStmt", [
                    element("resp", text: "Automated Transcription"),
                    element("name", [("ref", "https://github.com/ndl-lab/ndlkotenocr-lite")], text: "NDL古典籍OCR-Liteアプリケーション"),
                ]),
                element("respStmt", [element("resp", text: "Conversion to TEI encoding"), element("name", text: "Kiyonori Nagasaki")]),
            ]),
            element("publicationStmt", [element("p", text: "Publication Information")]),
            element("sourceDesc", [source.map(Self.bibl) ?? element("p", text: "Information about the source")]),
        ])])
        // Template whitespace of an element without children survives ElementTree.indent.
        let facsimile = element("facsimile", text: surfaces.isEmpty ? "\n   " : nil, surfaces)
        var root = element("TEI", [header, facsimile, element("text", [element("body", [element("p", body)])])])
        root[attribute: "xmlns"] = "http://www.tei-c.org/ns/1.0"
        ElementTreeIndent.indent(&root)
        return "<?xml version='1.0' encoding='utf-8'?>\n" + ElementTreeSerializer.string(root)
    }

    /// The book a IIIF manifest describes: its label, id (`idno type="IIIF manifest"`), attribution and rights.
    private static func bibl(_ source: IIIFCanvasSource) -> PageNode {
        var children: [PageNode] = []
        if let label = source.label { children.append(PageNode(tag: "title", text: label)) }
        children.append(PageNode(tag: "idno", attributes: [.init(name: "type", value: "IIIF manifest")], text: source.manifest))
        if let attribution = source.attribution {
            children.append(PageNode(tag: "note", attributes: [.init(name: "type", value: "attribution")], text: attribution))
        }
        if let rights = source.rights {
            children.append(PageNode(tag: "ref", attributes: [.init(name: "type", value: "rights"), .init(name: "target", value: rights)], text: rights))
        }
        return PageNode(tag: "bibl", children: children)
    }

    private static func padded(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}
