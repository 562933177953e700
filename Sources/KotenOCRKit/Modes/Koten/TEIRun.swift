/// The koten TEI of a run: pages are added as they are read; the document (`<first-stem>_tei.xml`, named
/// after the run's first page, one `surface` per page) is rendered at the end. Holds only each page's
/// line boxes and strings. Reference: parity README O4; `KotenTEI`.
public struct TEIRun: Sendable {
    public private(set) var firstStem: String?
    public private(set) var pages: [TEIPage] = []

    public init() {}

    /// Adds a page read in the koten mode (a mode whose pages `tei` supports), whose output stem is `stem`.
    /// Throws `ResultFormatError` for a page of another mode.
    public mutating func add(_ page: PageResult, stem: String) throws {
        guard let reference = page.reference, ResultFormat.tei.supports(reference.mode) else {
            throw ResultFormatError.unsupported(format: .tei, mode: page.mode)
        }
        if firstStem == nil { firstStem = stem }
        pages.append(reference.teiPage)
    }

    /// The TEI file, or nil when no page was added.
    public var file: OutputFile? {
        firstStem.map { KotenTEI.file(firstStem: $0, pages: pages) }
    }
}
