import Foundation

/// The koten TEI of a run (`ResultFormat.tei`, the koten descriptor's `runDocument(for:)`): pages are added as
/// they are read; the document (one `surface` per page, `KotenTEI.document`) is rendered at the end and named
/// after the run's first page by `ResultFormat.fileName(stem:)`. Holds only each page's line boxes and strings.
/// Reference: parity README O4.
struct TEIRun: RunDocument {
    private(set) var pages: [TEIPage] = []

    var isEmpty: Bool { pages.isEmpty }

    /// Adds a page that carries its reference tree (`PageResult.reference`). Throws
    /// `ResultFormatError.unsupported` for a page without one.
    mutating func add(_ page: PageResult) throws {
        guard let reference = page.reference else { throw ResultFormatError.unsupported(format: .tei, mode: page.mode) }
        var tei = reference.teiPage
        tei.iiif = page.source.iiif
        pages.append(tei)
    }

    /// Adds a page's reference tree.
    mutating func add(_ reference: ReferencePage) { pages.append(reference.teiPage) }

    func render() -> Data { Data(KotenTEI.document(pages: pages).utf8) }
}
