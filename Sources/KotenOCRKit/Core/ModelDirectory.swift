import Foundation

/// Where a mode's model files are: a root folder holding one subfolder per mode (`ppocr/`, `ndl/`,
/// `koten/`), or a folder holding one mode's files directly. For the `ndl` and `koten` modes a file is
/// looked up in the mode's folder, then in its `model/` and `config/` subfolders, so NDL's own `src` folder
/// (ONNX files in `src/model`, YAML files in `src/config`) works as it is. Lookups take the mode's descriptor
/// (`mode.descriptor` from the registry, or a wing's own), which says the files and whether subfolders count.
public struct ModelDirectory: Sendable {
    public let root: URL

    public init(root: URL) { self.root = root }

    /// Subfolders of a mode's folder searched after the folder itself (NDL's `src/model`, `src/config`).
    public static let subfolders = ["model", "config"]

    /// The first name of each file `mode` needs (`ModeDescriptor.fileGroups` lists the accepted alternatives).
    package static func requiredFiles(for mode: any ModeDescriptor) -> [String] {
        mode.fileGroups.compactMap(\.first)
    }

    /// The folder holding `mode`'s files: `root/<mode>` if it exists, else `root`.
    public func directory(for mode: OCRMode) -> URL {
        let sub = root.appendingPathComponent(mode.rawValue, isDirectory: true)
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: sub.path, isDirectory: &isDir), isDir.boolValue { return sub }
        return root
    }

    /// Where `name` is for `mode`: in its folder, else (NDL's modes: `ModeDescriptor.searchesSubfolders`) in
    /// the folder's `model/` or `config/`; nil if absent.
    package func file(_ name: String, for mode: any ModeDescriptor) -> URL? {
        let dir = directory(for: mode.mode)
        let subfolders = mode.searchesSubfolders
            ? Self.subfolders.map { dir.appendingPathComponent($0, isDirectory: true) } : []
        for folder in [dir] + subfolders {
            let url = folder.appendingPathComponent(name)
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue { return url }
        }
        return nil
    }

    /// The file satisfying a group of alternative names (the first one found), if any.
    package func file(anyOf names: [String], for mode: any ModeDescriptor) -> URL? {
        names.lazy.compactMap { file($0, for: mode) }.first
    }

    /// Files of `mode` missing from its folder: for each unsatisfied group its first name, followed by
    /// "(or …)" with the alternatives.
    package func missingFiles(for mode: any ModeDescriptor) -> [String] { lookUp(mode).missing }

    /// Every file `mode` needs, found in its folder: the one check of a mode's files, made when its pipeline
    /// is built (and by the CLI before it starts). Throws `ModelError.missingFiles` naming the folder and
    /// every missing file (with its alternative names).
    package func files(for mode: any ModeDescriptor) throws -> ModeFiles {
        let (found, missing) = lookUp(mode)
        guard missing.isEmpty else {
            throw ModelError.missingFiles(mode: mode.mode, directory: directory(for: mode.mode).path, files: missing)
        }
        return ModeFiles(mode: mode.mode, directory: directory(for: mode.mode), found: found)
    }

    /// Each group of `mode` looked up: the file found by the group's first name, and the missing groups
    /// described as `missingFiles` describes them.
    private func lookUp(_ mode: any ModeDescriptor) -> (found: [String: URL], missing: [String]) {
        var found: [String: URL] = [:]
        var missing: [String] = []
        for group in mode.fileGroups {
            guard let first = group.first else { continue }
            if let url = file(anyOf: group, for: mode) {
                found[first] = url
            } else {
                missing.append(group.count > 1 ? "\(first) (or \(group.dropFirst().joined(separator: ", ")))" : first)
            }
        }
        return (found, missing)
    }

    /// Whether every file `mode` needs is present (signatures are checked when the models load).
    package func isInstalled(_ mode: any ModeDescriptor) -> Bool { missingFiles(for: mode).isEmpty }

    /// Candidate roots, first match wins: `$KOTEN_OCR_MODELS`, `$XDG_DATA_HOME/koten-ocr/models`
    /// (default `~/.local/share/koten-ocr/models`), `.deps/models` under the current directory, the models
    /// installed with the executable (`make install`), then `.deps/models` under the source checkout the running
    /// executable was built in (after `scripts/setup.sh`).
    public static func searchPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var paths: [URL] = []
        if let env = environment["KOTEN_OCR_MODELS"], !env.isEmpty { paths.append(URL(fileURLWithPath: env)) }
        paths.append(userDirectory(environment: environment))
        paths.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".deps/models"))
        if let installed = installedModels(), !paths.contains(installed) { paths.append(installed) }
        if let checkout = sourceCheckout() {
            let models = checkout.appendingPathComponent(".deps/models")
            if !paths.contains(models) { paths.append(models) }
        }
        return paths
    }

    /// The models installed with this executable by `make install`: `<prefix>/share/koten-ocr/models` beside
    /// `<prefix>/lib/koten-ocr/koten-ocr` (the file `<prefix>/bin/koten-ocr` links to), if that folder exists.
    static func installedModels() -> URL? {
        guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
        let libexec = executable.deletingLastPathComponent()
        guard libexec.lastPathComponent == "koten-ocr", libexec.deletingLastPathComponent().lastPathComponent == "lib" else {
            return nil
        }
        let models = libexec.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/koten-ocr/models")
        return FileManager.default.fileExists(atPath: models.path) ? models : nil
    }

    /// The source checkout this executable was built in (`<checkout>/.build/<config>/koten-ocr`), if any:
    /// its `.deps/models` serves a `koten-ocr` run from any folder.
    static func sourceCheckout() -> URL? {
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            if dir.lastPathComponent == ".build" {
                let checkout = dir.deletingLastPathComponent()
                return FileManager.default.fileExists(atPath: checkout.appendingPathComponent("Package.swift").path) ? checkout : nil
            }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    /// The per-user model folder `koten-ocr models install` writes to: `$XDG_DATA_HOME/koten-ocr/models`,
    /// default `~/.local/share/koten-ocr/models`.
    public static func userDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"].map { $0 + "/.local/share" } ?? NSHomeDirectory() + "/.local/share")
        return URL(fileURLWithPath: dataHome).appendingPathComponent("koten-ocr/models")
    }

    /// The first root on the search path holding `mode`'s files, if any.
    package static func locate(_ mode: any ModeDescriptor, environment: [String: String] = ProcessInfo.processInfo.environment) -> ModelDirectory? {
        searchPath(environment: environment).map(ModelDirectory.init(root:)).first { $0.isInstalled(mode) }
    }
}
