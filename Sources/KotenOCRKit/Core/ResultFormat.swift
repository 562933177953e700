/// An output format `--format` names, and the one rule for the names of output files (`fileName(stem:)`).
///
/// Per page: `txt`, `json` (the engine's result), and for the `ndl` and `koten` modes `xml` (NDL XML) and
/// `ndl-json` (the reference's JSON), written byte for byte as NDL's code writes them. Per run: `tei`
/// (koten only), one document for all pages (`RunDocument`).
///
/// Adding a format (docs/architecture.md, "Adding an output format"): a case here; the compiler then asks for
/// its answers in this file (`fileExtension`, `isPerPage`, `need`) and for its bytes in `render`
/// (Write/ResultFormat+Render.swift). Every mode that meets its need offers it (`ModeDescriptor.formats`), and
/// the batch names, writes and records its files through `fileName(stem:)`.
public enum ResultFormat: String, Sendable, CaseIterable {
    /// Plain text, lines in reading order (`<stem>.txt`). For `ndl`/`koten` pages exactly the reference's
    /// TXT (strings joined with "\n", no final newline); otherwise with a final newline.
    case txt
    /// The engine's JSON result (`<stem>.json`, docs/json-schema.md).
    case json
    /// NDL XML (`<stem>.xml`): `<OCRDATASET>` around the ordered PAGE with STRING on every LINE.
    case xml
    /// The reference's own JSON (`<stem>.ndl.json`: `contents`/`imginfo`, `isVertical` always "true").
    case ndlJSON = "ndl-json"
    /// NDL Koten OCR-Lite's TEI for a whole run (`<first-stem>_tei.xml`, a `surface` per page).
    case tei

    /// The end of the file name after the stem: `txt`, `json`, `xml`, `ndl.json`; `tei.xml` for `tei`.
    public var fileExtension: String {
        switch self {
        case .ndlJSON: return "ndl.json"
        case .tei: return "tei.xml"
        case .txt, .json, .xml: return rawValue
        }
    }

    /// Whether the format has one file per page (`tei` has one per run).
    public var isPerPage: Bool {
        switch self {
        case .txt, .json, .xml, .ndlJSON: return true
        case .tei: return false
        }
    }

    /// The name of this format's file for `stem` — the one rule for output names (`PageTask.outputFile`,
    /// `BatchPlan.runDocument`, the parity tests): per page `<stem>.<fileExtension>` (`a.txt`, `a.ndl.json`),
    /// per run `<stem>_<fileExtension>` after the run's first page (`a_tei.xml`, as NDL Koten OCR-Lite names it).
    /// `stem` may hold folders (`vol1/0001`).
    public func fileName(stem: String) -> String {
        stem + (isPerPage ? "." : "_") + fileExtension
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
        case .txt, .json: return .page
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
