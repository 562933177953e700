import Foundation

/// The reference builds its page as an XML string template with fixed indentation and
/// `name = "value"` spacing, then parses it (parity README N8, `stage_layout.xml`). This is the
/// writer side of that template and the parser that turns it into a `PageNode`.
enum LayoutTemplate {
    /// `%.3f` as Python formats a float (correctly rounded, half to even on exact ties).
    static func fixed3(_ value: Double) -> String { String(format: "%.3f", value) }

    /// A template attribute value. Image names are the only free text here; they are escaped so
    /// the template always parses (the reference would fail to parse a name with `&` or `<`).
    static func value(_ s: String) -> String { ElementTreeSerializer.escapeAttribute(s) }

    static func pageHead(imageName: String, width: Int, height: Int) -> String {
        "<PAGE IMAGENAME = \"\(value(imageName))\" WIDTH = \"\(width)\" HEIGHT = \"\(height)\">\n"
    }

    /// `<LINE TYPE = ... X = ... Y = ... WIDTH = ... HEIGHT = ...[ CONF = ...][ PRED_CHAR_CNT=...]></LINE>`
    static func line(indent: String, type: String, box: PixelBox, conf: Double?, predCharCount: Double?) -> String {
        var s = "\(indent)<LINE TYPE = \"\(type)\" X = \"\(box.x1)\" Y = \"\(box.y1)\" "
            + "WIDTH = \"\(box.width)\" HEIGHT = \"\(box.height)\""
        if let conf { s += " CONF = \"\(fixed3(conf))\"" }
        if let predCharCount { s += " PRED_CHAR_CNT=\"\(fixed3(predCharCount))\"" }
        return s + "></LINE>\n"
    }

    /// Parses the template into its top-level elements (text before the first one is dropped).
    static func parse(_ s: String) throws -> [PageNode] {
        var parser = TemplateParser(Array(s.unicodeScalars))
        return try parser.parseTopLevel()
    }
}

extension LayoutTemplate {
    struct NoPage: Error, CustomStringConvertible {
        var description: String { "layout template holds no PAGE element" }
    }

    /// The PAGE element of a template, with the tail the reference's parse gives it ("\n").
    static func parsePage(_ s: String) throws -> PageNode {
        guard let page = try parse(s).first(where: { $0.tag == "PAGE" }) else { throw NoPage() }
        return page
    }

    /// The template parsed and put in reading order (`style`).
    static func orderedPage(_ template: String, options: ReadingOrderOptions, style: OCRConfiguration.ReadingOrderStyle) throws -> PageNode {
        var page = try parsePage(template)
        ReadingOrder.apply(to: &page, options: options, leafOrder: style == .page ? .byOrientation : .reference)
        return page
    }
}
