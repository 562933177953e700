import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// ALTO 4.3 (`<stem>.alto.xml`; schema: www.loc.gov/standards/alto/v4/alto-4-3.xsd).
///
/// Page pixels (`MeasurementUnit` pixel), one `TextBlock` holding the lines in reading order, also listed in
/// `ReadingOrder` (`ElementRef`s). Each `TextLine` has its box, its outline (`Shape`/`Polygon`) and
/// `BASEDIRECTION` `ttb` when vertical (`ltr` otherwise); its words are `String`s (a line without white space is
/// one) with `WC` (mean character probability), `CC` (per character, 0 sure … 9 unsure) and a `Glyph` per
/// character with `GC` (its probability). ALTO's glyph positions are optional and left out: the recognisers give
/// none. A corrected line (`PageResult.applying`) gives the corrected text, the engine's as each word's
/// `ALTERNATIVE` (`PURPOSE` OCR). docs/formats.md, "ALTO".
enum ALTOWriter {
    static let namespace = "http://www.loc.gov/standards/alto/ns-v4#"
    static let schema = "http://www.loc.gov/standards/alto/v4/alto-4-3.xsd"

    static func document(_ page: PageResult) -> Data {
        XMLOutput.data { tree(page) }
    }

    private static func tree(_ page: PageResult) -> XMLElement {
        let root = XMLElement("alto")
        root.declare("", namespace)
        root.declare("xsi", "http://www.w3.org/2001/XMLSchema-instance")
        root.set("xsi:schemaLocation", "\(namespace) \(schema)")
        root.set("SCHEMAVERSION", "4.3")
        let description = root.add("Description")
        description.add("MeasurementUnit", text: "pixel")
        let sourceImage = description.add("sourceImageInformation")
        sourceImage.add("fileName", text: page.source.path)
        if let iiif = page.source.iiif {
            // The canvas (and the image fetched for it) and the manifest: ALTO's identifiers (docs/iiif.md, "Metadata").
            sourceImage.add("fileIdentifier", ["fileIdentifierLocation": "IIIF canvas"], text: iiif.canvas)
            if let image = iiif.image { sourceImage.add("fileIdentifier", ["fileIdentifierLocation": "IIIF image"], text: image) }
            sourceImage.add("documentIdentifier", ["documentIdentifierLocation": "IIIF manifest"], text: iiif.manifest)
        }
        let processing = description.add("Processing", ["ID": "processing1"])
        processing.add("processingStepSettings", text: "mode \(page.mode.rawValue); page \(page.source.page) of "
                       + "\(page.source.pageCount); models " + page.models.map { "\($0.role) \($0.file)" }.joined(separator: ", "))
        let software = processing.add("processingSoftware")
        software.add("softwareName", text: "KotenOCR")
        software.add("softwareVersion", text: EngineVersion.current)
        let lines = page.formatLines
        if !lines.isEmpty {
            let order = root.add("ReadingOrder").add("OrderedGroup", ["ID": "order1"])
            for line in lines { order.add("ElementRef", ["ID": "order1_\(line.number)", "REF": line.id]) }
        }
        let width = String(page.source.width), height = String(page.source.height)
        let pageElement = root.add("Layout").add("Page", ["ID": "page\(page.source.page)", "PHYSICAL_IMG_NR": String(page.source.page),
                                                          "WIDTH": width, "HEIGHT": height, "PROCESSING": "processing1"])
        let space = pageElement.add("PrintSpace", ["HPOS": "0", "VPOS": "0", "WIDTH": width, "HEIGHT": height])
        guard let union = PageResult.Box.union(lines.map(\.box)) else { return root }
        let block = space.add("TextBlock", [("ID", "block1")] + position(union))
        block.set("BASEDIRECTION", page.orientation == LineOrientation.vertical.rawValue ? "ttb" : "ltr")
        for line in lines { block.addChild(textLine(line)) }
        return root
    }

    private static func textLine(_ line: FormatLine) -> XMLElement {
        let element = XMLElement("TextLine", [("ID", line.id)] + position(line.box))
        element.set("BASEDIRECTION", line.isVertical ? "ttb" : "ltr")
        element.add("Shape").add("Polygon", ["POINTS": FormatNumber.points(line.corners)])
        let words = line.words
        // A corrected line: each word the engine read otherwise is its ALTERNATIVE (when both readings have as many
        // words; a line of one word, as most Japanese lines are, always).
        let modelWords = line.modelWords
        for (index, word) in words.enumerated() {
            if index > 0 { element.add("SP") }
            let string = element.add("String", ["ID": "\(line.id)_w\(index + 1)", "CONTENT": word.text])
            if words.count == 1 { for (key, value) in position(line.box) { string.set(key, value) } }
            if let modelWords, modelWords.count == words.count, modelWords[index] != word.text {
                string.add("ALTERNATIVE", ["PURPOSE": "OCR"], text: modelWords[index])
            }
            guard let confidence = word.confidence else { continue }
            string.set("WC", FormatNumber.decimal(Double(confidence)))
            // CC and Glyph count Unicode characters: only when each recognised character is one.
            guard word.characters.allSatisfy({ $0.text.unicodeScalars.count == 1 }) else { continue }
            string.set("CC", word.characters.map { String(Int(((1 - Double($0.confidence)) * 9).rounded())) }.joined(separator: " "))
            for (offset, character) in word.characters.enumerated() {
                string.add("Glyph", ["ID": "\(line.id)_w\(index + 1)_g\(offset + 1)", "CONTENT": character.text,
                                     "GC": FormatNumber.decimal(Double(character.confidence))])
            }
        }
        return element
    }

    private static func position(_ box: PageResult.Box) -> [(String, String)] {
        [("HPOS", String(box.x)), ("VPOS", String(box.y)), ("WIDTH", String(box.width)), ("HEIGHT", String(box.height))]
    }
}
