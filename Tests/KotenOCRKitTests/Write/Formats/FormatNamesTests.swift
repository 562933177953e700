import Foundation
import Testing
@testable import KotenOCRKit

/// The new formats' file names through the one naming authority (`PageTask.outputFile`, `ResultFormat.fileName`).
@Suite("Output formats: names")
struct FormatNamesTests {
    @Test("per page: .alto.xml, .page.xml, .hocr, .html, .viz.png (.viz.jpg for a JPEG); per input: one .pdf, its pages waiting in hidden files")
    func names() {
        let single = PageTask(input: BatchInput(path: "/in/vol1/a.v1.png", relativePath: "vol1/a.v1.png"), page: 0, pageCount: 1)
        #expect([ResultFormat.alto, .pageXML, .hocr, .html, .viz, .pdf].map(single.outputFile)
                == ["vol1/a.v1.alto.xml", "vol1/a.v1.page.xml", "vol1/a.v1.hocr", "vol1/a.v1.html", "vol1/a.v1.viz.png", "vol1/a.v1.pdf"])
        #expect(single.pageFile(.pdf) == "vol1/a.v1.pdf")
        let photo = PageTask(input: BatchInput(path: "/in/p.jpg", relativePath: "p.jpg"), page: 0, pageCount: 1, jpegSource: true)
        #expect(photo.outputFile(.viz) == "p.viz.jpg")
        let book = PageTask(input: BatchInput(path: "/in/vol1/book.tif", relativePath: "vol1/book.tif"), page: 2, pageCount: 9)
        #expect(book.outputFile(.pdf) == "vol1/book.pdf")
        #expect(book.pageFile(.pdf) == "vol1/.book_p0003.pdf-page")
        #expect(book.outputFile(.alto) == "vol1/book_p0003.alto.xml" && book.pageFile(.alto) == book.outputFile(.alto))
        #expect(ResultFormat(rawValue: "page") == .pageXML)
    }

    @Test("two inputs writing the same PDF are refused before anything is read")
    func sameDocument() {
        let a = PageTask(input: BatchInput(path: "/in/a.tif", relativePath: "a.tif"), page: 0, pageCount: 2)
        let b = PageTask(input: BatchInput(path: "/in/a.png", relativePath: "a.png"), page: 0, pageCount: 1)
        #expect(throws: BatchSetupError.self) { try BatchPlan.checkDistinctOutputs([a, b], perInput: .pdf) }
        #expect(throws: Never.self) { try BatchPlan.checkDistinctOutputs([a, b]) }
    }

    @Test("pdf and viz need an output folder; a format that shows the page needs its image")
    func refusals() throws {
        let page = try TestPaths.ppocrModels()
        let cli = { (arguments: [String]) in
            try runProcess(TestPaths.cli, ["--mode", "ppocr", "--models", page.root.path] + arguments)
        }
        let scan = TestPaths.image("ndlocr-lite-rs/scaned0.png").path
        let pdf = try cli(["-f", "pdf", scan])
        #expect(pdf.status == 2 && pdf.stderr.contains("--output"), "\(pdf.stderr)")
        let viz = try cli(["-f", "viz", "-"])
        #expect(viz.status == 2 && viz.stderr.contains("standard output"), "\(viz.stderr)")
        let result = PageResult(source: .init(path: "x.png", page: 1, pageCount: 1, width: 10, height: 10, exifOrientation: 1),
                                mode: .ppocr, models: [], orientation: "none", lines: [])
        #expect(throws: ResultFormatError.needsImage(format: .html)) { try ResultFormat.html.render(result) }
    }
}
