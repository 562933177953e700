/// What the engine, the model folder, the writers and the command line know of a mode: its files, its
/// formats and how its pipeline is built. Each wing provides one (`Modes/PPOCR`, `Modes/NDL`, `Modes/Koten`);
/// `OCRMode.descriptor` is the one place that chooses among them, so adding a mode is a new wing plus one
/// case there.
public protocol ModeDescriptor: Sendable {
    /// The mode described.
    var mode: OCRMode { get }
    /// The files the mode needs: one group per file, each listing the names it may have (the first is the
    /// current one; NDL's older published names follow). A group is satisfied by the first name found.
    var fileGroups: [[String]] { get }
    /// Whether a file is also looked up in the mode folder's `model/` and `config/` subfolders (NDL's own
    /// `src` layout: ONNX files in `src/model`, YAML files in `src/config`).
    var searchesSubfolders: Bool { get }
    /// The formats pages of this mode can be written in.
    var formats: [ResultFormat] { get }
    /// The formats written into an output folder when none are named (standard output gets `txt`).
    var defaultFormats: [ResultFormat] { get }
    /// How the mode's reference writes its own per-page JSON (`ndl-json`); nil for a mode without one.
    var referenceJSON: ReferenceJSONStyle? { get }
    /// The mode's pipeline over `files` (found and complete: `ModelDirectory.files(for:)`, the one check),
    /// with `configuration`'s options and its stage overrides for this mode (`OCRConfiguration.stages`).
    /// Reads and checks the configuration files (charset, classes, keys); models load later.
    /// Throws `ModelError.invalidFile` naming the file and what is wrong, `StageError.mismatch`.
    func pipeline(files: ModeFiles, configuration: OCRConfiguration) throws -> any ModePipeline
}

extension OCRMode {
    /// The wing that describes this mode: everything that differs between modes is asked of it.
    public var descriptor: any ModeDescriptor {
        switch self {
        case .koten: return KotenDescriptor()
        case .ndl: return NDLDescriptor()
        case .ppocr: return PPOCRDescriptor()
        }
    }
}
