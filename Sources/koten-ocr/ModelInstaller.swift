import Foundation
import KotenOCRKit

/// `koten-ocr models install --mode koten|ndl|ppocr SOURCE [--models DIR]`.
///
/// SOURCE is a folder (NDL's `src/`, a folder holding `ndl/` or `koten/`, or the files themselves) or an
/// archive (.zip with `unzip`, .tar/.tar.gz/.tgz with `tar`), unpacked into a staging folder next to the
/// destination. The mode's files are found in it by name, copied into a temporary sibling of
/// `DIR/<mode>`, loaded and checked with ONNX Runtime, and only then renamed into place (an existing
/// installation is replaced in one rename), so a failed or interrupted install leaves the old one as it was.
enum ModelInstaller {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static func run(_ args: [String]) async -> Int32 {
        var mode: OCRMode?
        var destination = ModelDirectory.userDirectory()
        var sources: [String] = []
        var i = 0
        while i < args.count {
            let arg = args[i]
            if arg == "--mode" || arg == "--models" {
                guard i + 1 < args.count else { return ModelsCommand.usage("\(arg) needs a value") }
                i += 1
                if arg == "--models" {
                    destination = URL(fileURLWithPath: args[i], isDirectory: true)
                } else if let m = OCRMode(rawValue: args[i]) {
                    mode = m
                } else {
                    return ModelsCommand.usage("models install --mode takes koten, ndl or ppocr, not '\(args[i])'")
                }
            } else if arg.hasPrefix("-") {
                return ModelsCommand.usage("unknown option \(arg)")
            } else {
                sources.append(arg)
            }
            i += 1
        }
        guard let mode else { return ModelsCommand.usage("models install needs --mode koten, ndl or ppocr") }
        guard sources.count == 1 else { return ModelsCommand.usage("models install needs one SOURCE folder or archive") }
        do {
            let installed = try await install(mode, from: URL(fileURLWithPath: sources[0]), into: destination)
            print("installed \(mode) into \(installed.path)")
            return 0
        } catch {
            stderrLine("koten-ocr: \(ErrorText.line(error))")
            return 1
        }
    }

    /// Installs `mode` from `source` into `root/<mode>`; returns that folder. Throws `Failure` or the
    /// check's `ModelError` naming the file.
    static func install(_ mode: OCRMode, from source: URL, into root: URL) async throws -> URL {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: source.path, isDirectory: &isDir) else { throw Failure(description: "\(source.path): not found") }
        try fm.createDirectory(at: root, withIntermediateDirectories: true)
        let token = UUID().uuidString
        let staging = root.appendingPathComponent(".install-\(token)", isDirectory: true)
        let target = root.appendingPathComponent(mode.rawValue, isDirectory: true)
        let temporary = root.appendingPathComponent(".\(mode.rawValue).tmp-\(token)", isDirectory: true)
        defer {
            try? fm.removeItem(at: staging)
            try? fm.removeItem(at: temporary)
        }
        var tree = source
        if !isDir.boolValue {
            try fm.createDirectory(at: staging, withIntermediateDirectories: true)
            try unpack(source, into: staging)
            tree = staging
        }
        let found = try locate(mode, in: tree, shownAs: source.path)
        try fm.createDirectory(at: temporary, withIntermediateDirectories: true)
        for group in mode.descriptor.fileGroups {
            guard let file = found.file(anyOf: group, for: mode.descriptor) else { continue }
            // A copy of the file itself, not of a symbolic link to it.
            try fm.copyItem(at: file.resolvingSymlinksInPath(), to: temporary.appendingPathComponent(file.lastPathComponent))
        }
        let check = try KotenOCR(configuration: OCRConfiguration(mode: mode, models: ModelDirectory(root: temporary),
                                                                 tuneAllocator: false))
        do {
            try await check.prepare(mode)
        } catch let ModelError.invalidFile(path, reason) {
            // Name the file where the user has it, not its temporary copy.
            let name = URL(fileURLWithPath: path).lastPathComponent
            let original = isDir.boolValue ? found.file(name, for: mode.descriptor)?.path ?? path : "\(source.path): \(name)"
            throw ModelError.invalidFile(path: original, reason: reason)
        }
        if fm.fileExists(atPath: target.path) {
            let old = root.appendingPathComponent(".\(mode.rawValue).old-\(token)", isDirectory: true)
            try fm.moveItem(at: target, to: old)
            do {
                try fm.moveItem(at: temporary, to: target)
            } catch {
                try? fm.moveItem(at: old, to: target)
                throw error
            }
            try? fm.removeItem(at: old)
        } else {
            try fm.moveItem(at: temporary, to: target)
        }
        return target
    }

    /// Unpacks a .zip (unzip) or .tar / .tar.gz / .tgz (tar) archive into `folder`.
    static func unpack(_ archive: URL, into folder: URL) throws {
        let name = archive.lastPathComponent.lowercased()
        let (tool, arguments): (String, [String])
        if name.hasSuffix(".zip") {
            (tool, arguments) = ("unzip", ["-q", archive.path, "-d", folder.path])
        } else if [".tar.gz", ".tgz", ".tar", ".tar.xz", ".tar.bz2"].contains(where: name.hasSuffix) {
            (tool, arguments) = ("tar", ["-xf", archive.path, "-C", folder.path])
        } else {
            throw Failure(description: "\(archive.path): not a folder, .zip or .tar.gz archive")
        }
        guard let executable = ["/usr/bin/\(tool)", "/bin/\(tool)"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw Failure(description: "\(archive.path): cannot unpack it: \(tool) is not installed")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let first = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? "exit status \(process.terminationStatus)"
            throw Failure(description: "\(archive.path): \(tool) could not unpack it: \(first)")
        }
    }

    /// The folder under `tree` holding every file of `mode`: a folder with the mode's detector, or its
    /// parent (NDL's `src/model` + `src/config` layout), or `tree` itself.
    static func locate(_ mode: OCRMode, in tree: URL, shownAs name: String) throws -> ModelDirectory {
        let detector = mode.descriptor.fileGroups.first?.first ?? ""
        var candidates = [tree]
        if let walker = FileManager.default.enumerator(at: tree, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where url.lastPathComponent == detector {
                let folder = url.deletingLastPathComponent()
                candidates += [folder, folder.deletingLastPathComponent()]
            }
        }
        let dirs = candidates.map(ModelDirectory.init(root:))
        let descriptor = mode.descriptor
        if let complete = dirs.first(where: { $0.isInstalled(descriptor) }) { return complete }
        let best = dirs.min { $0.missingFiles(for: descriptor).count < $1.missingFiles(for: descriptor).count }
            ?? ModelDirectory(root: tree)
        throw Failure(description: "\(name): no complete set of \(mode) model files; missing "
                      + best.missingFiles(for: descriptor).joined(separator: ", "))
    }
}
