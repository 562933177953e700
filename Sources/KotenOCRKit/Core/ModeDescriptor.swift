/// What the engine, the model folder, the writers and the command line know of a mode: its files, its
/// formats and how its pipeline is built. Each wing provides one (`Modes/PPOCR`, `Modes/NDL`, `Modes/Koten`);
/// the registry (`OCRMode.descriptor`, Modes/ModeRegistry.swift) is the one place that chooses among them, so
/// adding a mode is a new wing plus one case there (docs/architecture.md, "Adding a mode"). Code below the
/// registry that needs a mode's files or formats takes an `any ModeDescriptor`; the façade, the batch and the
/// command line pass `mode.descriptor`.
package protocol ModeDescriptor: Sendable {
    /// The mode described.
    var mode: OCRMode { get }
    /// The files the mode needs: one group per file, each listing the names it may have (the first is the
    /// current one; NDL's older published names follow). A group is satisfied by the first name found.
    var fileGroups: [[String]] { get }
    /// Whether a file is also looked up in the mode folder's `model/` and `config/` subfolders (NDL's own
    /// `src` layout: ONNX files in `src/model`, YAML files in `src/config`).
    var searchesSubfolders: Bool { get }
    /// The formats pages of this mode can be written in. Default: every format whose need the mode meets
    /// (`ResultFormat.isAvailable(in:)`: a reference tree for `xml` and `ndl-json`, a run document for `tei`).
    var formats: [ResultFormat] { get }
    /// The formats written into an output folder when none are named (standard output gets `txt`).
    var defaultFormats: [ResultFormat] { get }
    /// How the mode's reference writes its own per-page JSON (`ndl-json`, `ReferencePage.jsonStyle`); nil for a
    /// mode whose pages carry no reference tree (`PageResult.reference`), which then has no `xml`, `ndl-json`.
    var referenceJSON: ReferenceJSONStyle? { get }
    /// The document of a whole run the mode writes in the per-run `format` (koten: `tei`), empty; nil when it
    /// writes none. Default: none.
    func runDocument(for format: ResultFormat) -> (any RunDocument)?
    /// The mode's pipeline over `files` (found and complete: `ModelDirectory.files(for:)`, the one check),
    /// with `configuration`'s options and its stage overrides for this mode (`OCRConfiguration.stages`).
    /// Reads and checks the configuration files (charset, classes, keys); models load later.
    /// Throws `ModelError.invalidFile` naming the file and what is wrong, `StageError.mismatch`.
    func pipeline(files: ModeFiles, configuration: OCRConfiguration) throws -> any ModePipeline
}

extension ModeDescriptor {
    public var formats: [ResultFormat] { ResultFormat.allCases.filter { $0.isAvailable(in: self) } }
    public func runDocument(for format: ResultFormat) -> (any RunDocument)? { nil }
}
