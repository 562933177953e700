import Foundation

/// Searchable PDFs: each page's image as it is, under invisible text that selects, copies and searches as the
/// page was read. `page(_:image:)` makes a page; `document(_:)` a PDF of pages in order; the batch writes a
/// multi-page input's pages one at a time into page files (`pageFile`) and joins them (`write(pageFiles:to:)`)
/// once they are all read. The PDF objects are written by hand: docs/formats.md, "Searchable PDF", says why.
///
/// ```swift
/// let page = try await ocr.read(source)
/// let pdf = try SearchablePDF.document([SearchablePDF.page(page, image: source)])
/// ```
package enum SearchablePDF {
    /// One page: its size, its image, its invisible text.
    public struct Page: Sendable, Equatable, Codable {
        /// Size in points (1/72 inch): the image's pixels at its declared resolution, or 300 dpi.
        public let width: Double
        public let height: Double
        let image: PDFImage
        /// Content stream operators drawing the image, then the text.
        let content: Data
        /// The page font's characters: CID i + 1 is `characters[i]`.
        let characters: [String]
        /// Entries for the document information dictionary, from the page's source (a IIIF canvas's manifest:
        /// `Title`, `IIIFManifest`, `IIIFAttribution`, `IIIFRights`); the document takes its first page's.
        var info: [String: String]?
    }

    /// The resolution assumed for an image that declares none (dots per inch).
    public static let defaultDPI = 300.0

    /// The page of `result`, read from `image` (the page as given): the image (a JPEG's own bytes, otherwise the
    /// upright page as lossless PNG rows; a page read turned back, `PageResult.rotation`, is shown upright as PNG)
    /// and one invisible text object per line in reading order, ruby left out.
    /// Throws `ImageError` naming the file when it cannot be read again.
    public static func page(_ result: PageResult, image given: ImageSource) throws -> Page {
        let image = result.shownImage(given)
        let dpi = try image.declaredDPI() ?? (defaultDPI, defaultDPI)
        let scale = (x: 72 / dpi.x, y: 72 / dpi.y)
        let (width, height) = (Double(image.width) * scale.x, Double(image.height) * scale.y)
        let picture = try PDFImage.of(image)
        let text = PDFTextLayer(lines: result.textLayerLines, pageHeight: height, scale: scale)
        let matrix = picture.matrix(pageWidth: width, pageHeight: height).map { FormatNumber.decimal($0) }.joined(separator: " ")
        let content = "q \(matrix) cm /Im0 Do Q\n" + text.operators
        return Page(width: width, height: height, image: picture, content: Data(content.utf8), characters: text.characters,
                    info: result.source.iiif.map(documentInfo))
    }

    /// The document information of a page read from a IIIF canvas: the manifest's label as the title, its id,
    /// attribution (or requiredStatement) and rights (docs/iiif.md, "Metadata").
    static func documentInfo(_ iiif: IIIFCanvasSource) -> [String: String] {
        var info = ["IIIFManifest": iiif.manifest]
        if let label = iiif.label { info["Title"] = label }
        if let attribution = iiif.attribution { info["IIIFAttribution"] = attribution }
        if let rights = iiif.rights { info["IIIFRights"] = rights }
        return info
    }

    /// A PDF of `pages` in order.
    public static func document(_ pages: [Page]) -> Data {
        var writer = PDFWriter(sink: DataSink(), pageCount: pages.count)
        for page in pages { writer.add(page) }
        return writer.finish().data
    }

    /// The bytes of a page file: the page, to be joined with the input's other pages by `write(pageFiles:to:)`.
    package static func pageFile(_ page: Page) throws -> Data {
        let header = try JSONEncoder().encode(PageFileHeader(page: page))
        var data = Data((pageFileMagic + "\(header.count)\n").utf8)
        data.append(header)
        data.append(page.image.data)
        data.append(page.content)
        return data
    }

    /// The bytes of page file `url` with its text layer made again from `result` (the same page corrected:
    /// `PageResult.applying`): its image, size and document information kept, the invisible text `result`'s.
    /// Throws `PageFileError` for a file that is not a whole page file, or what reading throws.
    package static func pageFile(_ url: URL, text result: PageResult) throws -> Data {
        var page = try readPageFile(url)
        // The image drawn upright: its stored size turned by its EXIF orientation (5–8 swap the sides).
        let turned = (5...8).contains(page.image.orientation)
        let (pixelsWide, pixelsHigh) = turned ? (page.image.height, page.image.width) : (page.image.width, page.image.height)
        guard pixelsWide > 0, pixelsHigh > 0 else { throw PageFileError(path: url.path) }
        let scale = (x: page.width / Double(pixelsWide), y: page.height / Double(pixelsHigh))
        let text = PDFTextLayer(lines: result.textLayerLines, pageHeight: page.height, scale: scale)
        let matrix = page.image.matrix(pageWidth: page.width, pageHeight: page.height).map { FormatNumber.decimal($0) }.joined(separator: " ")
        page = Page(width: page.width, height: page.height, image: page.image,
                    content: Data(("q \(matrix) cm /Im0 Do Q\n" + text.operators).utf8), characters: text.characters, info: page.info)
        return try pageFile(page)
    }

    /// Writes the PDF of the pages in `pageFiles` (in order) to `handle`, reading one page file at a time.
    /// Throws `PageFileError` for a file that is not a whole page file, or what reading and writing throw.
    package static func write(pageFiles: [URL], to handle: FileHandle) throws {
        var writer = PDFWriter(sink: FileSink(handle: handle), pageCount: pageFiles.count)
        for url in pageFiles { writer.add(try readPageFile(url)) }
        try writer.finish().check()
    }

    /// A page file that cannot be read back.
    package struct PageFileError: Error, CustomStringConvertible {
        package let path: String
        package var description: String { "\(path): not a whole page file of a searchable PDF" }
    }

    private static let pageFileMagic = "KotenOCR searchable PDF page 1\n"

    private struct PageFileHeader: Codable {
        var width, height: Double
        var image: PDFImage
        var imageBytes, contentBytes: Int
        var characters: [String]
        var info: [String: String]?

        init(page: Page) {
            (width, height, characters, info) = (page.width, page.height, page.characters, page.info)
            var image = page.image
            imageBytes = image.data.count
            image.data = Data()
            self.image = image
            contentBytes = page.content.count
        }
    }

    private static func readPageFile(_ url: URL) throws -> Page {
        let data = try Data(contentsOf: url)
        let error = PageFileError(path: url.path)
        let magic = Data(pageFileMagic.utf8)
        guard data.starts(with: magic), let newline = data[magic.count...].firstIndex(of: 0x0A),
              let length = Int(String(decoding: data[magic.count..<newline], as: UTF8.self)),
              length > 0, newline + 1 + length <= data.count else { throw error }
        let headerEnd = newline + 1 + length
        guard let header = try? JSONDecoder().decode(PageFileHeader.self, from: data[(newline + 1)..<headerEnd]),
              header.imageBytes >= 0, header.contentBytes >= 0,
              headerEnd + header.imageBytes + header.contentBytes == data.count else { throw error }
        var image = header.image
        image.data = data[headerEnd..<(headerEnd + header.imageBytes)]
        return Page(width: header.width, height: header.height, image: image,
                    content: data[(headerEnd + header.imageBytes)...], characters: header.characters, info: header.info)
    }
}
