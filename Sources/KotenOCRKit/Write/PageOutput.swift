/// The reference's per-page output files, byte for byte (parity README O1–O3, N8): the NDL XML, the TXT and
/// the reference's JSON of a recognised page tree (STRING set on its LINEs). File names are
/// `ResultFormat.fileName(stem:)`'s (the reference cuts koten names at the first dot; this package does not).
package enum PageOutput {
    /// `<stem>.xml`: "<OCRDATASET>\n" + the PAGE serialised by ElementTree (with its tail)
    /// + "\n</OCRDATASET>", no declaration.
    public static func xml(page: PageNode) -> String {
        "<OCRDATASET>\n" + ElementTreeSerializer.string(page) + "\n</OCRDATASET>"
    }

    /// `<stem>.txt`: the recognised strings joined with "\n", no final newline.
    public static func text(strings: [String]) -> String { strings.joined(separator: "\n") }

    /// `<stem>.ndl.json` (the reference's own `<stem>.json`): `{"contents": [[line, ...]], "imginfo": {...}}` as
    /// `json.dumps(ensure_ascii=False, indent=2)`. Each line: boundingBox [[x,y],[x,y+h],[x+w,y],[x+w,y+h]], id
    /// (document index), isVertical "true", text (STRING), isTextline "true", confidence (float of CONF; without
    /// CONF 0.0, or 0 in `style` koten), and with `style.classIndex` (NDL) class_index = index of TYPE among the
    /// English class names, else 1 (so 1 for every Japanese TYPE, as in the reference).
    public static func json(page: PageNode, image: ImageInfo, style: ReferenceJSONStyle) -> String {
        let contents: [JSONValue] = page.lines.enumerated().map { idx, line in
            let b = line.lineBox
            func point(_ x: Int, _ y: Int) -> JSONValue { .array([.int(x), .int(y)]) }
            var members: [JSONValue.Member] = [
                .init("boundingBox", .array([point(b.x1, b.y1), point(b.x1, b.y2), point(b.x2, b.y1), point(b.x2, b.y2)])),
                .init("id", .int(idx)), .init("isVertical", .string("true")),
                .init("text", .string(line[attribute: "STRING"] ?? "")), .init("isTextline", .string("true")),
                .init("confidence", line.double("CONF").map { .double($0) } ?? (style.floatZeroConfidence ? .double(0) : .int(0))),
            ]
            if style.classIndex {
                let type = line[attribute: "TYPE"] ?? ""
                members.append(.init("class_index", .int(NDLClass.all.firstIndex { $0.name == type } ?? 1)))
            }
            return .object(members)
        }
        return PythonJSON.dumps(.object([
            .init("contents", .array([.array(contents)])),
            .init("imginfo", .object([
                .init("img_width", .int(image.width)), .init("img_height", .int(image.height)),
                .init("img_path", .string(image.path)), .init("img_name", .string(image.name)),
            ])),
        ]))
    }
}

extension ReferencePage {
    /// The reference's `<stem>.xml` (NDL XML: `<OCRDATASET>` around the PAGE, no declaration).
    public var xml: String { PageOutput.xml(page: page) }
    /// The reference's `<stem>.txt`: the strings joined with "\n", no final newline.
    public var text: String { PageOutput.text(strings: strings) }
    /// The reference's `<stem>.json` (written as `<stem>.ndl.json`: `contents`/`imginfo`,
    /// `json.dumps(ensure_ascii=False, indent=2)`) in the mode's `jsonStyle`.
    public var json: String { PageOutput.json(page: page, image: image, style: jsonStyle) }
}
