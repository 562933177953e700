import Foundation
import KotenOCRKit

/// `koten-ocr models …`: what is installed where, checking a model folder, installing NDL's models.
enum ModelsCommand {
    static let help = """
    Usage: koten-ocr models [list]
           koten-ocr models verify DIR
           koten-ocr models install --mode koten|ndl|ppocr SOURCE [--models DIR]

      list      the model search path and, for each mode, where its models are (the default)
      verify    load every model file of every mode found in DIR with ONNX Runtime and check its signature
                (inputs, outputs, element types, shapes, charset size, classes); exit 0 when all pass, else 1
      install   copy a mode's files from SOURCE (a folder such as NDL's src/, or a .zip / .tar.gz archive)
                into DIR/<mode> (default: \(ModelDirectory.userDirectory().path)), checked first and
                replaced atomically; exit 0 when installed, else 1

    NDL's model files (CC BY 4.0) come with NDLOCR-Lite (github.com/ndl-lab/ndlocr-lite, src/model and
    src/config) and NDL Koten OCR-Lite (github.com/ndl-lab/ndlkotenocr-lite, src/model and src/config).
    """

    static func run(_ args: [String]) async -> Int32 {
        switch args.first {
        case nil, "list": return list()
        case "verify":
            guard args.count == 2 else { return usage("models verify needs one folder") }
            return await verify(URL(fileURLWithPath: args[1], isDirectory: true))
        case "install": return await ModelInstaller.run(Array(args.dropFirst()))
        case "-h", "--help", "help":
            print(help)
            return 0
        default: return usage("unknown models command '\(args[0])'")
        }
    }

    static func usage(_ message: String) -> Int32 {
        stderrLine("koten-ocr: \(message) (see koten-ocr models --help)")
        return 2
    }

    /// The search path and, per mode, the first folder holding its files.
    static func list() -> Int32 {
        let path = ModelDirectory.searchPath()
        print("Model search path (first match wins):")
        for url in path { print("  \(url.path)") }
        for mode in OCRMode.allCases {
            let label = mode.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
            if let found = ModelDirectory.locate(mode.descriptor) {
                print("\(label) \(found.directory(for: mode).path)")
            } else if mode == .ppocr {
                print("\(label) not installed (scripts/setup.sh puts the PP-OCRv5 files in .deps/models/ppocr; "
                      + "koten-ocr models install --mode ppocr .deps/models/ppocr installs them for your user)")
            } else {
                print("\(label) not installed (koten-ocr models install --mode \(mode) SOURCE)")
            }
        }
        return 0
    }

    /// The modes with at least one of their model files in `root`.
    static func modesPresent(in root: URL) -> [OCRMode] {
        let dir = ModelDirectory(root: root)
        return OCRMode.allCases.filter { mode in
            mode.descriptor.fileGroups.contains { group in
                group.contains { $0.hasSuffix(".onnx") && dir.file($0, for: mode.descriptor) != nil }
            }
        }
    }

    /// Loads and checks every mode found in `root`; one line per mode.
    static func verify(_ root: URL) async -> Int32 {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDir), isDir.boolValue else {
            stderrLine("koten-ocr: \(root.path): no such folder")
            return 1
        }
        let modes = modesPresent(in: root)
        guard !modes.isEmpty else {
            stderrLine("koten-ocr: \(root.path): no model files of any mode (\(OCRMode.allCases.map(\.rawValue).joined(separator: ", ")))")
            return 1
        }
        var failed = false
        for mode in modes {
            if let problem = await check(mode, in: ModelDirectory(root: root)) {
                print("FAIL \(mode): \(problem)")
                failed = true
            }
        }
        return failed ? 1 : 0
    }

    /// Checks one mode's files in `models`, printing what passed; returns the problem, if any.
    static func check(_ mode: OCRMode, in models: ModelDirectory) async -> String? {
        let missing = models.missingFiles(for: mode.descriptor)
        guard missing.isEmpty else { return "\(models.directory(for: mode).path): missing \(missing.joined(separator: ", "))" }
        do {
            let engine = try KotenOCR(configuration: OCRConfiguration(mode: mode, models: models, tuneAllocator: false))
            try await engine.prepare(mode)
            let pipeline = try engine.pipeline(for: mode)
            print("ok   \(mode): \(models.directory(for: mode).path)")
            var routes: [String: String] = [:]
            if let ndl = pipeline as? NDLPipeline {
                for (model, descriptor) in try await ndl.routing(store: engine.store) { routes[descriptor.url.path] = model.rawValue }
            }
            for group in mode.descriptor.fileGroups {
                guard let url = models.file(anyOf: group, for: mode.descriptor) else { continue }
                print("       \(url.lastPathComponent)\(routes[url.path].map { " → \($0)" } ?? "")")
            }
            return nil
        } catch {
            return ErrorText.line(error)
        }
    }
}
