import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The `koten` mode end to end on the stand-in models: the three shared koten pages through the CLI as
/// one run (koten chosen by default because its models are on the search path), the run's TEI, the RTMDet
/// input of the real wiring, output names that keep the whole stem.
@Suite("KotenMode")
struct KotenMode {
    /// One run over the three shared koten pages, every format, no --mode and no --models: the stand-in
    /// folder is `$KOTEN_OCR_MODELS`, so koten is the default mode (its JSON says so).

    static let run = ModeFixtures.run("koten-mode", environment: ["KOTEN_OCR_MODELS": (try? ModeFixtures.standIns().path) ?? ""]) { out in
        ["-q", "--output", out.path, "--format", "txt,json,xml,ndl-json,tei"] + ModeFixtures.kotenImages.map(\.path)
    }

    @Test("three shared koten pages: exit 0, nothing on stderr, four files per page and one TEI")
    func exitStatusAndFiles() throws {
        let first = ModeFixtures.kotenImages[0].deletingPathExtension().lastPathComponent
        try ModeFixtures.expectCleanRun(try Self.run.get(), images: ModeFixtures.kotenImages, extra: ["\(first)_tei.xml"])
    }

    @Test("outputs parse and agree: XML, our JSON (PageResult), the reference JSON, TXT", arguments: ModeFixtures.kotenImages)
    func outputsAgree(_ image: URL) throws {
        let run = try Self.run.get()
        let stem = image.deletingPathExtension().lastPathComponent
        try ModeFixtures.expectConsistentOutputs(stem: stem, in: run.out, mode: .koten, image: image)
        let result = try ModeFixtures.pageResult(run.out.appendingPathComponent(stem + ".json"))
        #expect(result.models.map(\.role) == ["detector", "recogniser"])
        #expect(result.lines.allSatisfy { $0.kind == "本文" })
    }

    @Test("the run's TEI parses as XML: one surface per page in run order, a zone and an lb per line")
    func tei() throws {
        let run = try Self.run.get()
        let stems = ModeFixtures.kotenImages.map { $0.deletingPathExtension().lastPathComponent }
        let doc = try ModeFixtures.xml(run.out.appendingPathComponent("\(stems[0])_tei.xml"))
        #expect(doc.rootElement()?.name == "TEI")
        let surfaces = try doc.nodes(forXPath: "//*[local-name()='surface']")
        #expect(surfaces.count == 3)
        let pageBreaks = try doc.nodes(forXPath: "//*[local-name()='pb']").compactMap { ModeFixtures.attribute($0, "n") }
        #expect(pageBreaks == ModeFixtures.kotenImages.map(\.lastPathComponent))
        for (surface, stem) in zip(surfaces, stems) {
            let result = try ModeFixtures.pageResult(run.out.appendingPathComponent(stem + ".json"))
            let zones = try surface.nodes(forXPath: "*[local-name()='zone']")
            #expect(zones.count == result.lines.count, "\(stem)")
        }
        #expect(try doc.nodes(forXPath: "//*[local-name()='lb']").count
                == stems.map { (try? ModeFixtures.pageResult(run.out.appendingPathComponent($0 + ".json")).lines.count) ?? -1 }.reduce(0, +))
    }

    @Test("RTMDet input of the real wiring (page decode + padded resize + BGR normalisation) = the reference tensor")
    func rtmdetInputTensor() throws {
        try expectDetectorInputs(folder: "koten/preprocess/rtmdet", side: 1280) { RTMDetDetector.inputTensor($0, inputSide: $1) }
    }

    /// A small part of a koten page (400×600 px: a few lines, read quickly), saved as PNG under `names` in a fresh folder.
    static func smallPages(_ names: [String]) throws -> URL {
        let dir = try TestPaths.temporaryDirectory("koten-small")
        let page = try ImageSource(url: ModeFixtures.kotenImages[0]).decode().cropped(x: 1500, y: 100, width: 400, height: 600)
        for name in names { try ImageWriter.save(page, to: dir.appendingPathComponent(name)) }
        return dir
    }

    @Test("koten models on the search path: koten is the default mode, without a word on stderr but the summary")
    func defaultMode() throws {
        let dir = try Self.smallPages(["p.png"])
        let r = try ModeFixtures.cli(["--format", "json", dir.appendingPathComponent("p.png").path],
                                     environment: ["KOTEN_OCR_MODELS": try ModeFixtures.standIns().path])
        #expect(r.status == 0 && ModeFixtures.stderrLines(r).count == 1 && r.stderr.hasPrefix("koten-ocr: 1 page read, in "), "\(r.stderr)")
        let page = try JSONDecoder().decode(PageResult.self, from: Data(r.stdout.utf8))
        #expect(page.mode == .koten && !page.lines.isEmpty)
    }

    @Test("a.v1 and a.v2 keep their whole stems (no collision); the TEI is named after the first page")
    func wholeStems() throws {
        let dir = try Self.smallPages(["a.v1.png", "a.v2.png"])
        let out = dir.appendingPathComponent("out")
        let r = try ModeFixtures.cli(["-q", "--mode", "koten", "--models", try ModeFixtures.standIns().path, "--output", out.path,
                                      "--format", "txt,xml,tei", dir.appendingPathComponent("a.v1.png").path,
                                      dir.appendingPathComponent("a.v2.png").path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try ModeFixtures.outputFiles(out) == ["a.v1.txt", "a.v1.xml", "a.v1_tei.xml", "a.v2.txt", "a.v2.xml"])
        let doc = try ModeFixtures.xml(out.appendingPathComponent("a.v1_tei.xml"))
        #expect(try doc.nodes(forXPath: "//*[local-name()='surface']").count == 2)
    }

    @Test("tei without --output: the run's document on standard output; with --resume or --shard: refused (exit 2)")
    func teiToStdout() throws {
        let dir = try Self.smallPages(["a.png", "b.png"])
        let pages = ["a.png", "b.png"].map { dir.appendingPathComponent($0).path }
        let models = try ModeFixtures.standIns().path
        let r = try ModeFixtures.cli(["-q", "--mode", "koten", "--models", models, "--format", "tei"] + pages)
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try XMLDocument(data: Data(r.stdout.utf8), options: [])
        #expect(try doc.nodes(forXPath: "//*[local-name()='surface']").count == 2)
        for extra in [["--resume"], ["--shard", "1/2"]] {
            let refused = try ModeFixtures.cli(["--mode", "koten", "--models", models, "--format", "tei", "-o",
                                                dir.appendingPathComponent("out").path] + extra + pages)
            #expect(refused.status == 2 && ModeFixtures.stderrLines(refused).count == 1 && refused.stderr.contains("tei"))
        }
    }

    @Test("reference formats are refused where the mode has none (exit 2, one line)")
    func formatsByMode() throws {
        let image = TestPaths.image("ndlocr-lite-rs/scaned0.png").path
        let tei = try ModeFixtures.cli(["--mode", "ndl", "--models", try ModeFixtures.standIns().path, "--format", "tei", image])
        #expect(tei.status == 2 && ModeFixtures.stderrLines(tei).count == 1 && tei.stderr.contains("tei"))
        let xml = try ModeFixtures.cli(["--mode", "ppocr", "--models", try TestPaths.ppocrModels().root.path, "--format", "xml", image])
        #expect(xml.status == 2 && ModeFixtures.stderrLines(xml).count == 1 && xml.stderr.contains("xml"))
    }
}
