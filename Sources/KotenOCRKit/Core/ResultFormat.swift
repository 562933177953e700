import Foundation

/// An output format `--format` names, and the one rule for the names of output files (`fileName(stem:)`).
///
/// Per page: `txt`, `json` (the engine's result), and for the `ndl` and `koten` modes `xml` (NDL XML) and
/// `ndl-json` (the reference's JSON), written byte for byte as NDL's code writes them; in every mode the formats
/// other tools load (`alto`, `page`, `hocr`) and the ones that show the page (`viz`, `html`). Per input: `pdf`, one
/// searchable PDF with all the input's pages. Per run: `tei` (koten only), one document for all pages
/// (`RunDocument`). docs/formats.md describes each.
///
/// Adding a format (docs/architecture.md, "Adding an output format"): a case here; the compiler then asks for
/// its answers in this file (`fileExtension`, `isPerPage`, `need`) and for its bytes in `render`
/// (Write/ResultFormat+Render.swift). Every mode that meets its need offers it (`ModeDescriptor.formats`), and
/// the batch names, writes and records its files through `fileName(stem:)`.
public enum ResultFormat: String, Sendable, CaseIterable {
    /// Plain text, lines in reading order (`<stem>.txt`). For `ndl`/`koten` pages exactly the reference's
    /// TXT (strings joined with "\n", no final newline); otherwise with a final newline, ruby as `ResultFormat.RubyStyle` says
    /// (default: left out).
    case txt
    /// The engine's JSON result (`<stem>.json`, docs/json-schema.md).
    case json
    /// NDL XML (`<stem>.xml`): `<OCRDATASET>` around the ordered PAGE with STRING on every LINE.
    case xml
    /// The reference's own JSON (`<stem>.ndl.json`: `contents`/`imginfo`, `isVertical` always "true").
    case ndlJSON = "ndl-json"
    /// NDL Koten OCR-Lite's TEI for a whole run (`<first-stem>_tei.xml`, a `surface` per page).
    case tei
    /// A searchable PDF per input (`<input-stem>.pdf`, all its pages in order): each page's image as it is (a
    /// JPEG passed through) under invisible text, one text object per line fitted to the line's box.
    case pdf
    /// ALTO 4.3 (`<stem>.alto.xml`): lines with polygons, reading order, line and glyph confidences.
    case alto
    /// PAGE XML 2019-07-15 (`<stem>.page.xml`): lines with polygons, reading order, line and glyph confidences.
    case pageXML = "page"
    /// hOCR 1.2 (`<stem>.hocr`): lines and their confidences in XHTML.
    case hocr
    /// A picture of what was read (`<stem>.viz.png`, `.viz.jpg` for a JPEG source): each line's outline, its
    /// reading-order number and its orientation (colour).
    case viz
    /// One self-contained HTML page (`<stem>.html`): the image with the text laid over each line, the lines
    /// beside it, low-confidence characters marked.
    case html
    /// W3C Web Annotations a IIIF viewer shows (`<stem>.annotations.json`, docs/iiif.md): a Presentation 3
    /// `AnnotationPage` (or for a 2.1 manifest an `sc:AnnotationList`) of the page's lines, each a `TextualBody` with
    /// its target `canvas#xywh=` in the canvas's coordinates. The run's `manifest.json` that references them is
    /// written after the batch (KotenOCRIIIF).
    case iiif

    /// The end of the file name after the stem: `txt`, `json`, `xml`, `ndl.json`, `alto.xml`, `page.xml`, `hocr`,
    /// `viz.png`, `html`, `pdf`; `tei.xml` for `tei`. (`viz` ends in `viz.jpg` for a JPEG source: `fileName`.)
    public var fileExtension: String {
        switch self {
        case .ndlJSON: return "ndl.json"
        case .tei: return "tei.xml"
        case .alto: return "alto.xml"
        case .pageXML: return "page.xml"
        case .viz: return "viz.png"
        case .iiif: return "annotations.json"
        case .txt, .json, .xml, .pdf, .hocr, .html: return rawValue
        }
    }

    /// Whether the format is written as the pages are read (`tei` is written once per run). `pdf` is, and one file
    /// holds all the pages of an input (`isPerInput`).
    public var isPerPage: Bool {
        switch self {
        case .txt, .json, .xml, .ndlJSON, .pdf, .alto, .pageXML, .hocr, .viz, .html, .iiif: return true
        case .tei: return false
        }
    }

    /// Whether one file holds all the pages of an input (`pdf`): named after the input, not the page.
    public var isPerInput: Bool { self == .pdf }

    /// Whether the format shows the page image, so that rendering it needs the page's `ImageSource`
    /// (`pdf`, `viz`, `html`).
    public var needsImage: Bool {
        switch self {
        case .pdf, .viz, .html: return true
        default: return false
        }
    }

    /// Whether the format's bytes are text (everything but `pdf` and `viz`).
    public var isText: Bool { self != .pdf && self != .viz }

    /// The name of this format's file for `stem` — the one rule for output names (`PageTask.outputFile`,
    /// `BatchPlan.runDocument`, the parity tests): per page `<stem>.<fileExtension>` (`a.txt`, `a.ndl.json`;
    /// `a.viz.jpg` when `jpegSource`), per input the same after the input's stem (`book.pdf`), per run
    /// `<stem>_<fileExtension>` after the run's first page (`a_tei.xml`, as NDL Koten OCR-Lite names it).
    /// `stem` may hold folders (`vol1/0001`).
    public func fileName(stem: String, jpegSource: Bool = false) -> String {
        if self == .viz && jpegSource { return stem + ".viz.jpg" }
        return stem + (isPerPage ? "." : "_") + fileExtension
    }

    /// The hidden file in which one page of a multi-page input waits for the rest of its input's `pdf`
    /// (`vol1/.book_p0002.pdf-page` for the page stem `vol1/book_p0002`), removed once the PDF is written.
    public static func pdfPageFileName(pageStem: String) -> String {
        let folder = (pageStem as NSString).deletingLastPathComponent
        let name = "." + (pageStem as NSString).lastPathComponent + ".pdf-page"
        return folder.isEmpty ? name : folder + "/" + name
    }

    /// What a mode must give for its pages to be written in a format.
    package enum Need: Sendable {
        /// Any page (`PageResult`).
        case page
        /// The ordered reference tree (`PageResult.reference`; `ModeDescriptor.referenceJSON` not nil).
        case referenceTree
        /// A document of the run (`ModeDescriptor.runDocument(for:)`).
        case runDocument
    }

    /// What this format needs of a mode.
    package var need: Need {
        switch self {
        case .txt, .json, .pdf, .alto, .pageXML, .hocr, .viz, .html, .iiif: return .page
        case .xml, .ndlJSON: return .referenceTree
        case .tei: return .runDocument
        }
    }

    /// Whether the mode `descriptor` describes meets this format's need.
    package func isAvailable(in descriptor: any ModeDescriptor) -> Bool {
        switch need {
        case .page: return true
        case .referenceTree: return descriptor.referenceJSON != nil
        case .runDocument: return descriptor.runDocument(for: self) != nil
        }
    }
}
