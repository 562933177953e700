import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// PAGE XML 2019-07-15 (`<stem>.page.xml`; schema: schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15).
///
/// One `TextRegion` holding the lines in reading order (`ReadingOrder` points at it; each `TextLine` also carries
/// Transkribus' `readingOrder {index:n;}` in `custom`), its `Coords` the lines' outlines' box. Each line: its
/// outline (`Coords`), `readingDirection` top-to-bottom when vertical, and `TextEquiv` with `conf` (mean
/// character probability); its words (`Word`) and characters (`Glyph`), each with `TextEquiv` `conf`. PAGE
/// requires `Coords` on words and glyphs, but the recognisers give no character positions: those outlines are
/// the line's cut evenly along its reading direction (said in `Metadata/Comments`). `Created` and `LastChange`
/// are when the page was read (`BatchOptions.readingTime`; for a result rendered alone, the page image's
/// modification time). A corrected line (`PageResult.applying`) has two `TextEquiv`s: `index` 1 the corrected text,
/// `index` 2 the engine's with its `conf`, and no words or glyphs (the recogniser's characters no longer spell
/// it). docs/formats.md, "PAGE".
enum PageXMLWriter {
    static let namespace = "http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15"
    static let schema = namespace + "/pagecontent.xsd"

    /// `created`: when the page was read (nil: the epoch).
    static func document(_ page: PageResult, created: Date?) -> Data {
        XMLOutput.data { tree(page, created: created) }
    }

    private static func tree(_ page: PageResult, created: Date?) -> XMLElement {
        let root = XMLElement("PcGts")
        root.declare("", namespace)
        root.declare("xsi", "http://www.w3.org/2001/XMLSchema-instance")
        root.set("xsi:schemaLocation", "\(namespace) \(schema)")
        let metadata = root.add("Metadata")
        metadata.add("Creator", text: "KotenOCR \(EngineVersion.current) (mode \(page.mode.rawValue))")
        let date = timestamp(created ?? Date(timeIntervalSince1970: 0))
        metadata.add("Created", text: date)
        metadata.add("LastChange", text: date)
        metadata.add("Comments", text: "Word and Glyph Coords are estimates (each line cut evenly along its reading "
                     + "direction); confidences are the recogniser's character probabilities.")
        if let iiif = page.source.iiif {
            // The IIIF canvas the page is and its manifest's metadata (docs/iiif.md, "Metadata").
            let items: [(String, String?)] = [("IIIF manifest", iiif.manifest), ("IIIF manifest label", iiif.label),
                                              ("IIIF attribution", iiif.attribution), ("IIIF rights", iiif.rights),
                                              ("IIIF canvas", iiif.canvas), ("IIIF image", iiif.image)]
            for (name, value) in items { if let value { metadata.add("MetadataItem", ["type": "other", "name": name, "value": value]) } }
        }
        let pageElement = root.add("Page", ["imageFilename": page.source.path, "imageWidth": String(page.source.width),
                                            "imageHeight": String(page.source.height)])
        let lines = page.formatLines
        guard let union = PageResult.Box.union(lines.map(\.box)) else { return root }
        pageElement.add("ReadingOrder").add("OrderedGroup", ["id": "order1"])
            .add("RegionRefIndexed", ["index": "0", "regionRef": "region1"])
        let vertical = page.orientation == LineOrientation.vertical.rawValue
        let region = pageElement.add("TextRegion", ["id": "region1",
                                                    "readingDirection": vertical ? "top-to-bottom" : "left-to-right",
                                                    "textLineOrder": vertical ? "right-to-left" : "top-to-bottom"])
        let (x0, y0, x1, y1) = (Double(union.x), Double(union.y), Double(union.x + union.width), Double(union.y + union.height))
        region.add("Coords", ["points": FormatNumber.points([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])])
        for line in lines { region.addChild(textLine(line)) }
        return root
    }

    private static func textLine(_ line: FormatLine) -> XMLElement {
        let element = XMLElement("TextLine", ["id": line.id, "readingDirection": line.isVertical ? "top-to-bottom" : "left-to-right",
                                              "custom": "readingOrder {index:\(line.number - 1);}"])
        element.add("Coords", ["points": FormatNumber.points(line.corners)])
        let words = line.words
        if line.characters != nil {
            for (index, word) in words.enumerated() where !word.text.isEmpty {
                let range = word.start..<(word.start + word.characters.count)
                let wordElement = element.add("Word", ["id": "\(line.id)_w\(index + 1)"])
                wordElement.add("Coords", ["points": FormatNumber.points(line.estimatedOutline(of: range))])
                for (offset, character) in word.characters.enumerated() {
                    let glyph = wordElement.add("Glyph", ["id": "\(line.id)_w\(index + 1)_g\(offset + 1)"])
                    let place = word.start + offset
                    glyph.add("Coords", ["points": FormatNumber.points(line.estimatedOutline(of: place..<(place + 1)))])
                    textEquiv(glyph, character.text, Double(character.confidence))
                }
                textEquiv(wordElement, word.text, word.confidence.map(Double.init))
            }
        }
        if let model = line.line.modelText {
            // Corrected: the proofreader's text first (index 1, ground truth), the engine's second with its confidence.
            textEquiv(element, line.line.text, nil, index: 1, comments: "corrected")
            textEquiv(element, model, line.line.confidence.map(Double.init), index: 2, comments: "engine")
        } else {
            textEquiv(element, line.line.text, line.line.confidence.map(Double.init))
        }
        return element
    }

    private static func textEquiv(_ parent: XMLElement, _ text: String, _ confidence: Double?, index: Int? = nil,
                                  comments: String? = nil) {
        var attributes: [(String, String)] = []
        if let index { attributes.append(("index", String(index))) }
        if let confidence { attributes.append(("conf", FormatNumber.decimal(min(1, max(0, confidence))))) }
        if let comments { attributes.append(("comments", comments)) }
        let equiv = parent.add("TextEquiv", attributes)
        equiv.add("Unicode", text: text)
    }

    private static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
