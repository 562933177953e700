/// Image facts written to the JSON `imginfo` and the TEI `graphic`.
public struct ImageInfo: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// The path as given on the command line (`img_path`, TEI graphic URL).
    public var path: String
    /// The file name (`img_name`, TEI `pb n`).
    public var name: String

    public init(width: Int, height: Int, path: String, name: String) {
        self.width = width
        self.height = height
        self.path = path
        self.name = name
    }
}

/// How a reference writes its per-page JSON (`<stem>.json`, the `ndl-json` format): NDLOCR-Lite adds each
/// line's `class_index` and writes a line without CONF with confidence 0.0; NDL Koten OCR-Lite writes no
/// `class_index` and 0 (parity README O1). A mode's is `ModeDescriptor.referenceJSON`.
public struct ReferenceJSONStyle: Sendable, Hashable {
    /// Each line has `class_index` (the index of its TYPE among NDL's English class names, else 1).
    public var classIndex: Bool
    /// A line without CONF has confidence 0.0 (a float), not 0.
    public var floatZeroConfidence: Bool

    public init(classIndex: Bool, floatZeroConfidence: Bool) {
        self.classIndex = classIndex
        self.floatZeroConfidence = floatZeroConfidence
    }

    /// NDLOCR-Lite's JSON.
    public static let ndl = ReferenceJSONStyle(classIndex: true, floatZeroConfidence: true)
    /// NDL Koten OCR-Lite's JSON.
    public static let koten = ReferenceJSONStyle(classIndex: false, floatZeroConfidence: false)
}

/// The reference's per-page output files, byte for byte (parity README O1–O3, N8).
/// File names are the caller's: `<stem>.xml`, `<stem>.txt`, `<stem>.json` with the stem passed in
/// (the reference cuts koten names at the first dot; this package does not decide stems).
public enum PageOutput {
    /// `<stem>.xml`: "<OCRDATASET>\n" + the PAGE serialised by ElementTree (with its tail)
    /// + "\n</OCRDATASET>", no declaration.
    public static func xml(page: PageNode) -> String {
        "<OCRDATASET>\n" + ElementTreeSerializer.string(page) + "\n</OCRDATASET>"
    }

    /// `<stem>.txt`: the recognised strings joined with "\n", no final newline.
    public static func text(strings: [String]) -> String { strings.joined(separator: "\n") }

    /// `<stem>.json`: `{"contents": [[line, ...]], "imginfo": {...}}` as `json.dumps(ensure_ascii=False,
    /// indent=2)`. Each line: boundingBox [[x,y],[x,y+h],[x+w,y],[x+w,y+h]], id (document index),
    /// isVertical "true", text (STRING), isTextline "true", confidence (float of CONF; 0.0 without
    /// CONF, koten 0), and for NDL class_index = index of TYPE among the English class names,
    /// else 1 (so 1 for every Japanese TYPE, as in the reference). The differences are `mode`'s
    /// `ModeDescriptor.referenceJSON` (a mode without a reference JSON is written as NDL's).
    public static func json(page: PageNode, image: ImageInfo, mode: OCRMode) -> String {
        let style = mode.descriptor.referenceJSON ?? .ndl
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

/// One output file: its name and UTF-8 contents.
public struct OutputFile: Sendable, Hashable {
    public var name: String
    public var contents: String

    public init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }
}

extension PageOutput {
    /// The output stem of an image file name: the name without its last extension
    /// (`a.b.jpg` → `a.b`). NDL does the same; the koten reference cuts at the first dot
    /// (`a`), which this package deliberately does not do.
    public static func stem(ofImageName name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// `<stem>.xml`, `<stem>.txt`, `<stem>.json` for a recognised page (STRING set on its LINEs).
    public static func files(stem: String, page: PageNode, image: ImageInfo, mode: OCRMode) -> [OutputFile] {
        [
            OutputFile(name: stem + ".xml", contents: xml(page: page)),
            OutputFile(name: stem + ".txt", contents: text(strings: page.lines.map { $0[attribute: "STRING"] ?? "" })),
            OutputFile(name: stem + ".json", contents: json(page: page, image: image, mode: mode)),
        ]
    }
}

extension KotenTEI {
    /// `<stem>_tei.xml`, named after the batch's first page, as the reference names it.
    public static func file(firstStem: String, pages: [TEIPage]) -> OutputFile {
        OutputFile(name: firstStem + "_tei.xml", contents: document(pages: pages))
    }
}
