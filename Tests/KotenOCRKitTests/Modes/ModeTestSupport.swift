import Foundation
import Testing
@testable import KotenOCRKit
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What the `ndl` / `koten` mode tests share: the stand-in models (generated once per script version by
/// `StandInFiles`, the StandInModels suite's cache under .build/standins), the shared page images, model
/// folders assembled from stand-in files, and the CLI run in an isolated environment.
enum ModeFixtures {
    /// The v1.2 stand-ins: `ndl/` and `koten/`.
    static func standIns() throws -> URL { try StandInFiles.current.get() }

    static func standIn(_ mode: String, _ name: String) throws -> URL {
        try standIns().appendingPathComponent("\(mode)/\(name)")
    }

    /// The shared NDLOCR-Lite pages (ndlocr-lite/*.jpg|png and ndlocr-lite-rs/scaned0.png), sorted.
    static let ndlImages: [URL] = images(in: "ndlocr-lite") + [TestPaths.image("ndlocr-lite-rs/scaned0.png")]
    /// The shared NDL Koten OCR-Lite pages (ndlkotenocr-lite/*.jpg), sorted.
    static let kotenImages: [URL] = images(in: "ndlkotenocr-lite")

    private static func images(in folder: String) -> [URL] {
        let dir = TestPaths.images.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }.sorted().map { dir.appendingPathComponent($0) }
    }

    /// What goes into an assembled model folder: a stand-in file (linked, not copied) or text.
    enum Entry {
        case standIn(mode: String, name: String)
        case text(String)
    }

    /// A fresh folder holding `entries` (path relative to the folder → content).
    static func modelFolder(_ entries: [String: Entry]) throws -> URL {
        let root = try TestPaths.temporaryDirectory("models")
        for (path, entry) in entries {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            switch entry {
            case .standIn(let mode, let name):
                try FileManager.default.createSymbolicLink(at: url, withDestinationURL: try standIn(mode, name))
            case .text(let text):
                try Data(text.utf8).write(to: url)
            }
        }
        return root
    }

    /// The stand-in files of `mode` under `prefix` (e.g. "ndl/"), each linked under its own name.
    static func standInEntries(_ mode: String, prefix: String) throws -> [String: Entry] {
        let names = try FileManager.default.contentsOfDirectory(atPath: try standIns().appendingPathComponent(mode).path)
        return Dictionary(uniqueKeysWithValues: names.map { ("\(prefix)\($0)", Entry.standIn(mode: mode, name: $0)) })
    }

    /// Runs the CLI with no model folder from the user's environment: `$KOTEN_OCR_MODELS` removed and
    /// `$XDG_DATA_HOME` an empty folder, then `environment` applied.
    /// Runs from the package root, so `./.deps/models` (PP-OCRv5) is on the model search path.
    static func cli(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        var env = ProcessInfo.processInfo.environment
        env["KOTEN_OCR_MODELS"] = nil
        env["XDG_DATA_HOME"] = try TestPaths.temporaryDirectory("xdg").path
        env.merge(environment) { $1 }
        return try runProcess(TestPaths.cli, arguments, environment: env, directory: TestPaths.packageRoot)
    }

    /// A CLI run writing into a fresh output folder.
    struct Run {
        let result: ProcessResult
        let out: URL
    }

    /// Runs the CLI (`cli`) with the arguments `arguments(outputFolder)` into a fresh folder named after `name`.
    static func run(_ name: String, environment: [String: String] = [:],
                    _ arguments: (URL) throws -> [String]) -> Result<Run, Error> {
        Result {
            let out = try TestPaths.temporaryDirectory(name)
            return Run(result: try cli(try arguments(out), environment: environment), out: out)
        }
    }

    /// A run that read every page of `images`: exit 0, nothing on standard error, and in its output folder
    /// exactly `<stem>.txt|json|xml|ndl.json` per image plus `extra` and the batch manifest (no temporary files).
    static func expectCleanRun(_ run: Run, images: [URL], extra: [String] = []) throws {
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(run.result.stderr.isEmpty)
        let stems = images.map { $0.deletingPathExtension().lastPathComponent }
        let expected = stems.flatMap { s in ["txt", "json", "xml", "ndl.json"].map { "\(s).\($0)" } } + extra
        #expect(try outputFiles(run.out) == expected.sorted())
    }

    /// The files in an output folder, sorted, after checking that the only hidden ones are the batch manifest and
    /// the folder's lock file.
    static func outputFiles(_ folder: URL) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.filter { $0.hasPrefix(".") }.sorted() == [BatchManifest.fileName(shard: nil), OutputLock.fileName])
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    /// Standard error's lines.
    static func stderrLines(_ r: ProcessResult) -> [String] {
        r.stderr.split(separator: "\n").map(String.init)
    }

    /// Parses `url` as XML (FoundationXML); throws if it is not well-formed.
    static func xml(_ url: URL) throws -> XMLDocument {
        try XMLDocument(contentsOf: url, options: [])
    }

    /// An attribute's value (FoundationXML's `attribute(forName:)` misses attributes of elements in a
    /// default namespace, as TEI's are).
    static func attribute(_ node: XMLNode, _ name: String) -> String? {
        (node as? XMLElement)?.attributes?.first { $0.name == name }?.stringValue
    }

    /// The decoded engine result `<stem>.json`.
    static func pageResult(_ url: URL) throws -> PageResult {
        try JSONDecoder().decode(PageResult.self, from: Data(contentsOf: url))
    }

    /// Checks what every `ndl`/`koten` page's outputs must satisfy: the XML parses, its LINEs are the JSON's
    /// lines in the same order with the same strings, per-character probabilities are there, orientation
    /// comes from the box, and the TXT is the reference's (strings joined, no final newline).
    static func expectConsistentOutputs(stem: String, in out: URL, mode: OCRMode, image: URL) throws {
        let xml = try xml(out.appendingPathComponent(stem + ".xml"))
        #expect(xml.rootElement()?.name == "OCRDATASET")
        let lines = try xml.nodes(forXPath: "//LINE").compactMap { $0 as? XMLElement }
        let result = try pageResult(out.appendingPathComponent(stem + ".json"))
        #expect(result.mode == mode)
        #expect(result.source.path == image.path)
        #expect(result.reference == nil)
        #expect(result.models.contains { $0.role == "detector" })
        #expect(result.lines.count == lines.count, "\(stem): JSON lines vs XML LINEs")
        #expect(!result.lines.isEmpty, "\(stem): the stand-in detector finds lines on every shared page")
        for (line, element) in zip(result.lines, lines) {
            #expect(line.text == attribute(element, "STRING"))
            #expect(line.kind == attribute(element, "TYPE"))
            #expect(line.characters.map(\.text).joined() == line.text)
            #expect(line.characters.allSatisfy { $0.confidence > 0 && $0.confidence <= 1 })
            #expect(line.orientation == (line.box.height > line.box.width ? "vertical" : "horizontal"))
            #expect(line.box.x >= 0 && line.box.y >= 0 && line.box.x + line.box.width <= result.source.width
                    && line.box.y + line.box.height <= result.source.height)
        }
        #expect(result.lines.map(\.readingOrder) == Array(result.lines.indices))
        let txt = try String(contentsOf: out.appendingPathComponent(stem + ".txt"), encoding: .utf8)
        #expect(txt == result.lines.map(\.text).joined(separator: "\n"))
        let reference = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent(stem + ".ndl.json")))
                                     as? [String: Any])
        let contents = try #require((reference["contents"] as? [[Any]])?.first)
        #expect(contents.count == lines.count)
    }
}
