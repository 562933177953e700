import Foundation

/// A document written once for a whole run from every page read, in run order: what a per-run format
/// (`ResultFormat.isPerPage` false; koten's `tei`) writes. A mode makes an empty one for each per-run format it
/// writes (`ModeDescriptor.runDocument(for:)`); the batch adds each page as it is read and writes the document
/// after the last one, named by `ResultFormat.fileName(stem:)` after the run's first page.
package protocol RunDocument: Sendable {
    /// Whether no page has been added.
    var isEmpty: Bool { get }
    /// Adds `page` after the pages added before. Throws `ResultFormatError.unsupported` for a page the document
    /// cannot hold (one without what the format is made from, e.g. the reference tree).
    mutating func add(_ page: PageResult) throws
    /// The document's bytes (UTF-8).
    func render() -> Data
}
