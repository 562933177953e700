import Foundation
import Testing
@testable import KotenOCRKit

/// Model folders for the `ndl` and `koten` modes: NDL's file names and layouts, NDL's configuration files
/// (the YAML subset itself is tested in ReferenceSemantics/YAML), routing of the cascade recognisers by their
/// shapes, the signature check with one clear line per bad file, and `koten-ocr models` (list, verify, install).
@Suite("ModelDirectory")
struct ModelDirectoryTests {
    @Test("NDLmoji.yaml in NDL's layout: charset_train as Unicode scalars (space first, escapes, U+FE0E kept apart)")
    func charsetLayout() throws {
        let url = try TestPaths.temporaryDirectory("charset").appendingPathComponent("NDLmoji.yaml")
        let train = " !\\\"#\\\\漢\u{FE0E}𠮷"
        try Data("# @package _global_\nmodel:\n  charset_test: \"xyz\"\n  charset_train: \"\(train)\"\n".utf8).write(to: url)
        let charset = try PARSeqCharset(contentsOf: url)
        #expect(charset.entries == Array(" !\"#\\漢\u{FE0E}𠮷".unicodeScalars))
        #expect(charset.outputClasses == 9)
    }

    @Test("the stand-in charsets read as the generator wrote them (7141 entries; koten's four '〓')")
    func standInCharsets() throws {
        for mode in ["ndl", "koten"] {
            let url = try ModeFixtures.standIn(mode, "NDLmoji.yaml")
            let charset = try PARSeqCharset(contentsOf: url)
            #expect(charset.entries == (try charsetTrain(yaml: String(contentsOf: url, encoding: .utf8))), "\(mode)")
            #expect(charset.entries.count == 7141)
            #expect(charset.entries.filter { $0 == "〓" }.count == (mode == "koten" ? 4 : 0))
        }
    }

    @Test("ndl.yaml: NDL's 17 classes in order pass; a different list fails naming the file and the class")
    func classesFile() throws {
        try NDLClass.validateClassesFile(try ModeFixtures.standIn("ndl", "ndl.yaml"))
        let dir = try TestPaths.temporaryDirectory("classes")
        let names = NDLClass.all.map(\.name)
        func write(_ list: [String]) throws -> URL {
            let url = dir.appendingPathComponent("ndl-\(UUID().uuidString).yaml")
            try Data(("\n# Classes\nnames:\n" + list.enumerated().map { "  \($0): \($1)\n" }.joined()).utf8).write(to: url)
            return url
        }
        try NDLClass.validateClassesFile(try write(names))
        let swapped = try write([names[1], names[0]] + names.dropFirst(2))
        #expect(throws: ModelError.invalidFile(path: swapped.path, reason: "class 0 is 'line_main', NDLOCR-Lite's is 'text_block'")) {
            try NDLClass.validateClassesFile(swapped)
        }
        let short = try write(Array(names.dropLast()))
        #expect(throws: ModelError.invalidFile(path: short.path, reason: "16 classes under names, NDLOCR-Lite's layout has 17")) {
            try NDLClass.validateClassesFile(short)
        }
    }

    // MARK: - Layouts and names

    @Test("NDL's own src layout (model/ and config/) and the v1.0 names are accepted; missing files are named")
    func layouts() throws {
        var src = try ModeFixtures.standInEntries("ndl", prefix: "src/model/")
        for name in ["ndl.yaml", "NDLmoji.yaml"] {
            src["src/config/\(name)"] = src.removeValue(forKey: "src/model/\(name)")
        }
        let root = try ModeFixtures.modelFolder(src).appendingPathComponent("src")
        let dir = ModelDirectory(root: root)
        #expect(dir.isInstalled(NDLDescriptor()) && !dir.isInstalled(KotenDescriptor()))
        let files = try NDLModelFiles(models: dir)
        #expect(files.detector.url.path == root.appendingPathComponent("model/deim-s-1024x1024.onnx").path)
        #expect(files.charset.path == root.appendingPathComponent("config/NDLmoji.yaml").path)

        let v10 = ModelDirectory(root: try StandInFiles.version10.get())
        #expect(v10.isInstalled(NDLDescriptor()))
        #expect(try NDLModelFiles(models: v10).recognisers.map(\.url.lastPathComponent) == NDLModelFiles.recogniserFiles.map { $0[1] })

        try FileManager.default.removeItem(at: root.appendingPathComponent("model/" + NDLModelFiles.recogniserFiles[1][0]))
        #expect(dir.missingFiles(for: NDLDescriptor()) == ["\(NDLModelFiles.recogniserFiles[1][0]) (or \(NDLModelFiles.recogniserFiles[1][1]))"])
        #expect(throws: ModelError.self) { try NDLModelFiles(models: dir) }
    }

    @Test("routing follows the sessions' shapes, not the file names (the 30 and 100 files swapped)")
    func routingByShape() async throws {
        let names = NDLModelFiles.recogniserFiles.map { $0[0] }
        var entries = try ModeFixtures.standInEntries("ndl", prefix: "ndl/")
        entries["ndl/" + names[0]] = .standIn(mode: "ndl", name: names[2])
        entries["ndl/" + names[2]] = .standIn(mode: "ndl", name: names[0])
        let root = try ModeFixtures.modelFolder(entries)
        let engine = try KotenOCR(configuration: OCRConfiguration(mode: .ndl, models: ModelDirectory(root: root), tuneAllocator: false))
        let pipeline = try #require(try engine.pipeline(for: .ndl) as? NDLPipeline)
        let routing = try await pipeline.routing(store: engine.store)
        // The file named as the 30-character model takes 768 px: it is read as the 100 model.
        #expect(routing[.rec30]?.url.lastPathComponent == names[2])
        #expect(routing[.rec50]?.url.lastPathComponent == names[1])
        #expect(routing[.rec100]?.url.lastPathComponent == names[0])
        for (model, width) in [(CascadeModel.rec30, 256), (.rec50, 384), (.rec100, 768)] {
            let d = try #require(routing[model])
            let w = try await engine.store.withModel(d) { $0.inputs.first?.shape.last }
            #expect(w == width, "\(model)")
        }
        // Two recognisers of one width cannot make a cascade.
        entries["ndl/" + names[1]] = .standIn(mode: "ndl", name: names[0])
        let twice = try ModeFixtures.modelFolder(entries)
        let engine2 = try KotenOCR(configuration: OCRConfiguration(mode: .ndl, models: ModelDirectory(root: twice), tuneAllocator: false))
        await #expect(throws: ModelError.self) { try await engine2.prepare() }
    }

    // MARK: - Bad folders through the CLI

    /// A CLI run on `root` that must stop before the first page: exit 2, one line naming `file`.
    static func expectRefused(mode: String, root: URL, file: String, saying words: [String]) throws {
        let r = try ModeFixtures.cli(["--mode", mode, "--models", root.path, TestPaths.image("ndlocr-lite-rs/scaned0.png").path])
        #expect(r.status == 2)
        let lines = ModeFixtures.stderrLines(r)
        #expect(lines.count == 1, "\(r.stderr)")
        let line = try #require(lines.first)
        #expect(line.contains(file), "\(line)")
        for word in words { #expect(line.contains(word), "\(line)") }
    }

    @Test("a missing file: exit 2, one line naming it")
    func missingFile() throws {
        var entries = try ModeFixtures.standInEntries("koten", prefix: "koten/")
        entries["koten/rtmdet-s-1280x1280.onnx"] = nil
        try Self.expectRefused(mode: "koten", root: try ModeFixtures.modelFolder(entries), file: "rtmdet-s-1280x1280.onnx",
                               saying: ["not found"])
    }

    @Test("a recogniser whose output classes are not the charset + 1: exit 2, one line naming the recogniser")
    func charsetMismatch() throws {
        var entries = try ModeFixtures.standInEntries("ndl", prefix: "ndl/")
        entries["ndl/NDLmoji.yaml"] = .text("model:\n  charset_train: \"abc\"\n")
        try Self.expectRefused(mode: "ndl", root: try ModeFixtures.modelFolder(entries), file: NDLModelFiles.recogniserFiles[0][0],
                               saying: ["7142 classes", "3 entries"])
    }

    @Test("a detector with the wrong input: exit 2, one line naming the file and the input it needs")
    func wrongDetector() throws {
        var ndl = try ModeFixtures.standInEntries("ndl", prefix: "ndl/")
        ndl["ndl/deim-s-1024x1024.onnx"] = .standIn(mode: "koten", name: "rtmdet-s-1280x1280.onnx")
        try Self.expectRefused(mode: "ndl", root: try ModeFixtures.modelFolder(ndl), file: "deim-s-1024x1024.onnx",
                               saying: ["'images'", "input float32 [1,3,1280,1280]"])
        var koten = try ModeFixtures.standInEntries("koten", prefix: "koten/")
        koten["koten/rtmdet-s-1280x1280.onnx"] = .standIn(mode: "ndl", name: "deim-s-1024x1024.onnx")
        try Self.expectRefused(mode: "koten", root: try ModeFixtures.modelFolder(koten), file: "rtmdet-s-1280x1280.onnx",
                               saying: ["'input'", "images float32"])
    }

    @Test("a file ONNX Runtime cannot load: exit 2, one line naming it")
    func notAModel() throws {
        var entries = try ModeFixtures.standInEntries("koten", prefix: "koten/")
        entries["koten/parseq-ndl-32x384-tiny-10.onnx"] = .text("not a model")
        try Self.expectRefused(mode: "koten", root: try ModeFixtures.modelFolder(entries), file: "parseq-ndl-32x384-tiny-10.onnx",
                               saying: ["ONNX Runtime cannot load it"])
    }

    /// A ppocr folder from the installed PP-OCRv5 files, with `replace` swapped in (name → file or text).
    static func ppocrFolder(_ replace: [String: URL?], keys: String? = nil) throws -> URL {
        let source = try TestPaths.ppocrModels().directory(for: .ppocr)
        let root = try TestPaths.temporaryDirectory("ppocr-models")
        let dir = root.appendingPathComponent("ppocr")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for name in ModelDirectory.requiredFiles(for: PPOCRDescriptor()) {
            let target = dir.appendingPathComponent(name)
            if name == PPOCRModelFiles.keysFile, let keys {
                try Data(keys.utf8).write(to: target)
            } else if let replacement = replace[name] {
                if let replacement { try FileManager.default.createSymbolicLink(at: target, withDestinationURL: replacement) }
            } else {
                try FileManager.default.createSymbolicLink(at: target, withDestinationURL: source.appendingPathComponent(name))
            }
        }
        return root
    }

    @Test("ppocr: the classifier in the recogniser's place is refused before any page, naming the file")
    func ppocrWrongRecogniser() throws {
        let source = try TestPaths.ppocrModels().directory(for: .ppocr)
        let root = try Self.ppocrFolder([PPOCRModelFiles.recogniserFile: source.appendingPathComponent(PPOCRModelFiles.classifierFile)])
        try Self.expectRefused(mode: "ppocr", root: root, file: PPOCRModelFiles.recogniserFile, saying: ["[N,3,48,W]"])
        let verify = try ModeFixtures.cli(["models", "verify", root.path])
        #expect(verify.status == 1, "\(verify.stdout)\(verify.stderr)")
    }

    @Test("ppocr: a keys file that does not match the recogniser's classes is refused, naming the keys file")
    func ppocrKeysMismatch() throws {
        let keys = (0..<100).map { "k\($0)" }.joined(separator: "\n") + "\n"
        try Self.expectRefused(mode: "ppocr", root: try Self.ppocrFolder([:], keys: keys), file: PPOCRModelFiles.keysFile,
                               saying: ["100 keys", "18385 output classes"])
    }

    // MARK: - koten-ocr models

    @Test("models verify: exit 0 with the routing for the stand-ins, 1 for a bad folder")
    func verify() throws {
        let ok = try ModeFixtures.cli(["models", "verify", try ModeFixtures.standIns().path])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        #expect(ok.stdout.contains("ok   koten") && ok.stdout.contains("ok   ndl"))
        #expect(ok.stdout.contains("\(NDLModelFiles.recogniserFiles[2][0]) → rec100"))
        var entries = try ModeFixtures.standInEntries("ndl", prefix: "ndl/")
        entries["ndl/NDLmoji.yaml"] = .text("model:\n  charset_train: \"abc\"\n")
        let bad = try ModeFixtures.cli(["models", "verify", try ModeFixtures.modelFolder(entries).path])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("FAIL ndl:") && bad.stdout.contains(NDLModelFiles.recogniserFiles[0][0]))
        #expect(try ModeFixtures.cli(["models", "verify", TestPaths.fixtures.path]).status == 1)
    }

    @Test("models install: koten from a .zip of NDL's src layout, ndl from a folder; list shows them; koten becomes the default")
    func install() throws {
        let xdg = try TestPaths.temporaryDirectory("install-xdg")
        let env = ["XDG_DATA_HOME": xdg.path]
        var src = try ModeFixtures.standInEntries("koten", prefix: "ndlkotenocr-lite/src/model/")
        src["ndlkotenocr-lite/src/config/NDLmoji.yaml"] = src.removeValue(forKey: "ndlkotenocr-lite/src/model/NDLmoji.yaml")
        let tree = try ModeFixtures.modelFolder(src)
        let zip = tree.appendingPathComponent("koten.zip")
        let zipped = try runProcess(URL(fileURLWithPath: "/usr/bin/zip"), ["-q", "-0", "-r", zip.path, "ndlkotenocr-lite"],
                                    environment: nil, directory: tree)
        try #require(zipped.status == 0, "\(zipped.stderr)")

        let koten = try ModeFixtures.cli(["models", "install", "--mode", "koten", zip.path], environment: env)
        #expect(koten.status == 0, "\(koten.stderr)")
        let installed = xdg.appendingPathComponent("koten-ocr/models/koten")
        let names = try FileManager.default.contentsOfDirectory(atPath: installed.path).sorted()
        #expect(names == ["NDLmoji.yaml", "parseq-ndl-32x384-tiny-10.onnx", "rtmdet-s-1280x1280.onnx"])
        for name in names {  // copies, not links
            let type = try FileManager.default.attributesOfItem(atPath: installed.appendingPathComponent(name).path)[.type] as? FileAttributeType
            #expect(type == .typeRegular, "\(name)")
        }

        let ndl = try ModeFixtures.cli(["models", "install", "--mode", "ndl", try ModeFixtures.standIns().appendingPathComponent("ndl").path],
                                       environment: env)
        #expect(ndl.status == 0, "\(ndl.stderr)")
        let list = try ModeFixtures.cli(["models"], environment: env)
        #expect(list.stdout.contains("koten  \(installed.path)"))
        #expect(list.stdout.contains("ndl    \(xdg.appendingPathComponent("koten-ocr/models/ndl").path)"))
        // Leftovers of the install (staging, temporary folders): none.
        #expect(try FileManager.default.contentsOfDirectory(atPath: xdg.appendingPathComponent("koten-ocr/models").path).sorted()
                == ["koten", "ndl"])
    }

    @Test("models install refuses an incomplete archive and a mismatched file (exit 1), leaving the installation as it was")
    func installRefusals() throws {
        let xdg = try TestPaths.temporaryDirectory("install-xdg")
        let env = ["XDG_DATA_HOME": xdg.path]
        let good = try ModeFixtures.cli(["models", "install", "--mode", "koten", try ModeFixtures.standIns().appendingPathComponent("koten").path],
                                        environment: env)
        try #require(good.status == 0, "\(good.stderr)")
        let installed = xdg.appendingPathComponent("koten-ocr/models/koten/NDLmoji.yaml")
        let before = try Data(contentsOf: installed)

        let tree = try ModeFixtures.modelFolder(["src/config/NDLmoji.yaml": .standIn(mode: "koten", name: "NDLmoji.yaml")])
        let archive = tree.appendingPathComponent("partial.tar.gz")
        try #require(try runProcess(URL(fileURLWithPath: "/usr/bin/tar"), ["-chzf", archive.path, "-C", tree.path, "src"]).status == 0)
        let partial = try ModeFixtures.cli(["models", "install", "--mode", "koten", archive.path], environment: env)
        #expect(partial.status == 1)
        #expect(ModeFixtures.stderrLines(partial).count == 1 && partial.stderr.contains("missing rtmdet-s-1280x1280.onnx"))

        var entries = try ModeFixtures.standInEntries("koten", prefix: "")
        entries["NDLmoji.yaml"] = .text("model:\n  charset_train: \"abc\"\n")
        let bad = try ModeFixtures.modelFolder(entries)
        let mismatch = try ModeFixtures.cli(["models", "install", "--mode", "koten", bad.path], environment: env)
        #expect(mismatch.status == 1)
        #expect(ModeFixtures.stderrLines(mismatch).count == 1
                && mismatch.stderr.contains(bad.appendingPathComponent("parseq-ndl-32x384-tiny-10.onnx").path))
        #expect(try Data(contentsOf: installed) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: xdg.appendingPathComponent("koten-ocr/models").path) == ["koten"])
    }

    @Test("without koten models on the search path the CLI says which mode it uses and how to install NDL's (one line, before the summary)")
    func defaultModeNote() throws {
        _ = try TestPaths.ppocrModels()  // ./.deps/models, on the search path of a run from the package root
        let r = try ModeFixtures.cli([TestPaths.image("ndlocr-lite-rs/scaned0.png").path])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = ModeFixtures.stderrLines(r)
        #expect(lines.count == 2 && lines[0].contains("using mode ppocr") && lines[0].contains("models install --mode")
                && lines[1].hasPrefix("koten-ocr: 1 page read, in "), "\(r.stderr)")
    }
}
