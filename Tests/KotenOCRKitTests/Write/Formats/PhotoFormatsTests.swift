import Foundation
import KotenOCRTestSupport
import Testing
@testable import KotenOCRKit

/// Phone photos in every format at once (issue 25): JPEGs of one page stored as a phone stores them, with each EXIF
/// orientation 1–8 (`TestPhoto.make`), at 800 px and at 12 MP, read by one CLI run over their folder with
/// `-f txt,json,alto,page,hocr,pdf,viz,html`. Every page has all eight files, each valid, and the pictures (html's,
/// viz) show the page upright. Both sizes cover all eight orientations (6 and 8, a quarter turn each way, are every
/// phone photo held upright: the pages that were failing). The page is three lines of scaned0.png, so that the
/// sixteen pages read in a short time.
@Suite("Phone photos of every EXIF orientation in every format")
struct PhotoFormatsTests {
    static let formats = "txt,json,alto,page,hocr,pdf,viz,html"
    static let endings = [".txt", ".json", ".alto.xml", ".page.xml", ".hocr", ".pdf", ".viz.jpg", ".html"]
    /// (stem, orientation, upright long side)
    static let photos: [(stem: String, orientation: Int, longSide: Int)] =
        (1...8).map { ("o\($0)-800", $0, 800) } + (1...8).map { ("o\($0)-12mp", $0, 4032) }

    /// The photos' folder and the CLI's output folder after one run (shared by the tests below).
    static let run: Result<(photos: URL, output: URL, stderr: String), Error> = Result {
        let folder = try TestPaths.temporaryDirectory("photo-formats")
        let photos = folder.appendingPathComponent("photos"), output = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        // Three lines of print (scaned0.png is 1932×500).
        let page = try BatchFixtures.scan.get().cropped(x: 110, y: 165, width: 760, height: 170)
        for photo in Self.photos {
            try TestPhoto.make(page, to: photos.appendingPathComponent(photo.stem + ".jpg"), orientation: photo.orientation,
                               longSide: photo.longSide)
        }
        let result = try runProcess(TestPaths.cli, ["--mode", "ppocr", "--models", try TestPaths.ppocrModels().root.path, "-q",
                                                    "-o", output.path, "-f", formats, photos.path])
        guard result.status == 0 else { throw Failed(description: "koten-ocr exited \(result.status): \(result.stderr)") }
        return (photos, output, result.stderr)
    }

    struct Failed: Error, CustomStringConvertible { let description: String }

    @Test("every photo has all eight files: ALTO and PAGE validate, hOCR passes hocr-spec, the PDF qpdf --check")
    func everyFormat() throws {
        let (_, output, stderr) = try Self.run.get()
        #expect(stderr.isEmpty, "\(stderr)")
        for photo in Self.photos {
            for ending in Self.endings {
                let file = output.appendingPathComponent(photo.stem + ending)
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                #expect(size > 0, "\(file.lastPathComponent) missing or empty")
            }
            let alto = try FormatCheckers.validate(output.appendingPathComponent(photo.stem + ".alto.xml"), schema: "alto-4-3.xsd")
            #expect(alto.status == 0, "\(photo.stem): \(alto.stderr)")
            let pageXML = try FormatCheckers.validate(output.appendingPathComponent(photo.stem + ".page.xml"),
                                                      schema: "pagecontent-2019-07-15.xsd")
            #expect(pageXML.status == 0, "\(photo.stem): \(pageXML.stderr)")
            let hocr = try FormatCheckers.checkHOCR(output.appendingPathComponent(photo.stem + ".hocr"))
            #expect(hocr.status == 0 && hocr.stdout.contains("Document is valid"), "\(photo.stem): \(hocr.stdout)\(hocr.stderr)")
            let pdf = try FormatCheckers.run("qpdf", ["--check", output.appendingPathComponent(photo.stem + ".pdf").path])
            #expect(pdf.status == 0, "\(photo.stem): \(pdf.stdout)\(pdf.stderr)")
            let json = try JSONDecoder().decode(PageResult.self, from: Data(contentsOf: output.appendingPathComponent(photo.stem + ".json")))
            #expect(json.source.width == photo.longSide * 3 / 4 && json.source.height == photo.longSide, "\(photo.stem): not upright")
            #expect(!json.textLines.isEmpty, "\(photo.stem): no line read")
        }
    }

    @Test("the page read from every orientation is the text of the upright photo; html and viz show it upright")
    func uprightEverywhere() throws {
        let (photos, output, _) = try Self.run.get()
        let text = { (stem: String) in withoutWhitespace((try? String(contentsOf: output.appendingPathComponent(stem + ".txt"), encoding: .utf8)) ?? "") }
        let reference = text("o1-800")
        #expect(reference.count > 30, "\(reference)")
        for photo in Self.photos {
            // The same page, read at another size or from pixels stored turned (JPEG's blocks fall elsewhere): nearly
            // the same text. A page read sideways gives another text altogether.
            #expect(characterErrorRate(text(photo.stem), reference: reference) < 0.2, "\(photo.stem): \(text(photo.stem))")
            // What people see: the photo as its EXIF orientation shows it, small.
            let upright = try ImageSource(url: photos.appendingPathComponent(photo.stem + ".jpg")).decode(fitting: 48, 64)
            let html = try String(contentsOf: output.appendingPathComponent(photo.stem + ".html"), encoding: .utf8)
            let base64 = try #require(html.range(of: "src=\"data:image/jpeg;base64,").map { html[$0.upperBound...].prefix { $0 != "\"" } },
                                      "\(photo.stem): no embedded JPEG")
            let shown = try ImageSource(data: try #require(Data(base64Encoded: String(base64))), name: photo.stem + ".html image")
            #expect(shown.orientation == 1 && shown.width == photo.longSide * 3 / 4 && shown.height == photo.longSide)
            #expect(Self.meanDifference(try shown.decode(fitting: 48, 64), upright) < 12, "\(photo.stem): html's image is not the upright page")
            let viz = try ImageSource(url: output.appendingPathComponent(photo.stem + ".viz.jpg"))
            #expect(viz.height > viz.width, "\(photo.stem): viz is not upright")
        }
    }

    /// Mean absolute difference per channel of two images of one size (255 when the sizes differ).
    static func meanDifference(_ a: RGBImage, _ b: RGBImage) -> Double {
        guard a.width == b.width, a.height == b.height else { return 255 }
        let total = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(max(1, a.pixels.count))
    }
}
