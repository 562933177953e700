import Foundation

/// Where a mode's model files are: a root folder holding one subfolder per mode (`ppocr/`, `ndl/`,
/// `koten/`), or a folder holding one mode's files directly (e.g. NDL's own `src/model`).
public struct ModelDirectory: Sendable {
    public let root: URL

    public init(root: URL) { self.root = root }

    /// Files a mode needs (the first name of each group must exist; alternatives are NDL's versions).
    public static func requiredFiles(for mode: OCRMode) -> [String] {
        switch mode {
        case .ppocr: return [PPOCRModelFiles.detectorFile, PPOCRModelFiles.classifierFile,
                             PPOCRModelFiles.recogniserFile, PPOCRModelFiles.keysFile]
        case .ndl, .koten: return []
        }
    }

    /// The folder holding `mode`'s files: `root/<mode>` if it exists, else `root`.
    public func directory(for mode: OCRMode) -> URL {
        let sub = root.appendingPathComponent(mode.rawValue, isDirectory: true)
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: sub.path, isDirectory: &isDir), isDir.boolValue { return sub }
        return root
    }

    /// Required files of `mode` missing from its folder.
    public func missingFiles(for mode: OCRMode) -> [String] {
        let dir = directory(for: mode)
        return Self.requiredFiles(for: mode).filter { !FileManager.default.fileExists(atPath: dir.appendingPathComponent($0).path) }
    }

    /// Candidate roots, first match wins: `$KOTEN_OCR_MODELS`, `$XDG_DATA_HOME/koten-ocr/models`
    /// (default `~/.local/share/koten-ocr/models`), then `.deps/models` under the current directory
    /// (a source checkout after `scripts/setup.sh`).
    public static func searchPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var paths: [URL] = []
        if let env = environment["KOTEN_OCR_MODELS"], !env.isEmpty { paths.append(URL(fileURLWithPath: env)) }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"].map { $0 + "/.local/share" } ?? NSHomeDirectory() + "/.local/share")
        paths.append(URL(fileURLWithPath: dataHome).appendingPathComponent("koten-ocr/models"))
        paths.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".deps/models"))
        return paths
    }

    /// The first root on the search path holding `mode`'s files, if any.
    public static func locate(_ mode: OCRMode, environment: [String: String] = ProcessInfo.processInfo.environment) -> ModelDirectory? {
        searchPath(environment: environment).map(ModelDirectory.init(root:)).first { $0.missingFiles(for: mode).isEmpty }
    }
}
