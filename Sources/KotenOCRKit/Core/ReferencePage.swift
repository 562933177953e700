/// What the reference-format writers need of a page read in the `ndl` or `koten` mode: the page tree in
/// the reference's document order (ORDER set, LINEs sorted and de-duplicated, STRING on every LINE), the
/// image facts and how the mode's reference writes its JSON. Carried on `PageResult.reference` (not part of
/// the engine's JSON), so `<stem>.xml`, `<stem>.txt`, the reference's `<stem>.ndl.json` and the koten TEI can be
/// written byte for byte as NDL's code writes them (parity README O1–O4): the writers are in Write/
/// (`xml`, `text`, `json`) and the koten wing (`teiPage`); the tree is built in Layout/ and the wings.
package struct ReferencePage: Sendable, Hashable {
    /// The mode that read the page (`ndl` or `koten`).
    public var mode: OCRMode
    /// The ordered PAGE element with STRING on every LINE.
    public var page: PageNode
    /// Size of the page as read (upright), the path as given and the file name.
    public var image: ImageInfo
    /// How the mode's reference writes its per-page JSON (the mode's `ModeDescriptor.referenceJSON`).
    public var jsonStyle: ReferenceJSONStyle

    public init(mode: OCRMode, page: PageNode, image: ImageInfo, jsonStyle: ReferenceJSONStyle) {
        self.mode = mode
        self.page = page
        self.image = image
        self.jsonStyle = jsonStyle
    }
}

/// Image facts written to the JSON `imginfo` and the TEI `graphic`.
package struct ImageInfo: Sendable, Hashable {
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

/// How a reference writes its per-page JSON (the `ndl-json` format, `PageOutput.json`): NDLOCR-Lite adds each
/// line's `class_index` and writes a line without CONF with confidence 0.0; NDL Koten OCR-Lite writes no
/// `class_index` and 0 (parity README O1). A mode's is `ModeDescriptor.referenceJSON`.
package struct ReferenceJSONStyle: Sendable, Hashable {
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
