import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// Pages from memory (issue 14): pixels an app holds and encoded bytes, beside files; per-image decoding rules;
/// no process-wide change unless asked for.
@Suite("Input from memory")
struct MemoryInputTests {
    static let page = TestPaths.image("ndlocr-lite-rs/scaned0.png")

    /// scaned0.png decoded from its file, and its pixels laid out as `format` with `padding` bytes after each row.
    static func pixels(_ format: ImageSource.PixelFormat, padding: Int) throws -> (image: RGBImage, bytes: [UInt8], bytesPerRow: Int) {
        let image = try ImageSource(url: page).decode()
        let bytesPerRow = image.width * format.bytesPerPixel + padding
        var bytes = [UInt8](repeating: 0xEE, count: bytesPerRow * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let s = (y * image.width + x) * 3, d = y * bytesPerRow + x * format.bytesPerPixel
                let (r, g, b) = (image.pixels[s], image.pixels[s + 1], image.pixels[s + 2])
                switch format {
                case .grey8: bytes[d] = r
                case .rgb8: bytes[d] = r; bytes[d + 1] = g; bytes[d + 2] = b
                case .rgba8: bytes[d] = r; bytes[d + 1] = g; bytes[d + 2] = b; bytes[d + 3] = 255
                case .bgra8: bytes[d] = b; bytes[d + 1] = g; bytes[d + 2] = r; bytes[d + 3] = 255
                }
            }
        }
        return (image, bytes, bytesPerRow)
    }

    @Test("RGB, RGBA and BGRA pixels with padded rows decode to the file's pixels; grey is replicated",
          arguments: ImageSource.PixelFormat.allCases)
    func pixelFormats(_ format: ImageSource.PixelFormat) throws {
        let (image, bytes, bytesPerRow) = try Self.pixels(format, padding: 13)
        let source = try ImageSource(pixels: bytes, width: image.width, height: image.height, bytesPerRow: bytesPerRow,
                                     format: format, name: "camera")
        #expect(source.width == image.width && source.height == image.height && source.pageCount == 1)
        #expect(source.name == "camera")
        let decoded = try source.decode()
        if format == .grey8 {
            let grey = image.pixels.enumerated().map { i, _ in image.pixels[i - i % 3] }
            #expect(decoded.pixels == grey)
        } else {
            #expect(decoded == image)
        }
        // The detector's reduced decode resamples the same pixels the same way.
        if format != .grey8 {
            let fromFile = try ImageSource(url: Self.page).decode(fitting: 320, 448)
            #expect(try source.decode(fitting: 320, 448) == fromFile)
        }
    }

    @Test("a page read from pixels in memory, and from its encoded bytes, has the file's text")
    func readFromMemory() async throws {
        let engine = try KotenOCR(configuration: OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels(),
                                                                  watchMemoryPressure: false))
        let fromFile = try await engine.read(Self.page)
        #expect(!fromFile.lines.isEmpty)
        let (image, bytes, bytesPerRow) = try Self.pixels(.rgba8, padding: 0)
        let pixels = try ImageSource(pixels: bytes, width: image.width, height: image.height, bytesPerRow: bytesPerRow,
                                     format: .rgba8)
        let fromPixels = try await engine.read(pixels)
        #expect(fromPixels.text == fromFile.text)
        #expect(fromPixels.source.path == ImageSource.memoryName)
        let fromData = try await engine.read(try Data(contentsOf: Self.page), name: "upload.png")
        #expect(fromData.text == fromFile.text)
        #expect(fromData.source.path == "upload.png")
    }

    @Test("encoded bytes: pages of a multi-page TIFF, and one-line errors naming the image")
    func encodedBytes() throws {
        let dir = try TestPaths.temporaryDirectory("memory-input")
        let tiff = dir.appendingPathComponent("book.tif")
        try ImageWriter.saveMultiPageTIFF([BatchFixtures.crop(0), BatchFixtures.crop(1), BatchFixtures.crop(2)], to: tiff)
        let data = try Data(contentsOf: tiff)
        let second = try ImageSource(data: data, name: "book.tif", page: 1)
        #expect(second.pageCount == 3 && second.page == 1 && second.loader == "tiffload")
        #expect(throws: ImageError.noSuchPage(path: "book.tif", page: 3, pageCount: 3)) {
            try ImageSource(data: data, name: "book.tif", page: 3)
        }
        #expect(throws: ImageError.empty(path: "scan")) { try ImageSource(data: Data(), name: "scan") }
        #expect(throws: ImageError.unsupportedFormat(path: "scan")) { try ImageSource(data: Data("not an image".utf8), name: "scan") }
        let png = try Data(contentsOf: Self.page)
        #expect(throws: ImageError.self) { try ImageSource(data: png, maxPixels: 1000) }
        do {
            _ = try ImageSource(data: png, name: "big", maxPixels: 1000)
        } catch let error as ImageError {
            guard case .tooLarge(let path, _, _, let limit) = error else { Issue.record("\(error)"); return }
            #expect(path == "big" && limit == 1000)
        }
    }

    @Test("pixel sizes that do not fit their buffer are refused with the reason, before any copy")
    func badPixelLayouts() throws {
        let bytes = [UInt8](repeating: 128, count: 100 * 10 * 3)
        func reason(_ make: () throws -> ImageSource) -> String? {
            do { _ = try make(); return nil } catch let ImageError.invalidPixels(path, reason) {
                #expect(path == "frame")
                return reason
            } catch { return "\(error)" }
        }
        let short = reason { try ImageSource(pixels: bytes, width: 100, height: 11, bytesPerRow: 300, format: .rgb8, name: "frame") }
        #expect(short?.contains("fewer than 11 rows") == true, "\(short ?? "accepted")")
        let narrow = reason { try ImageSource(pixels: bytes, width: 100, height: 10, bytesPerRow: 299, format: .rgb8, name: "frame") }
        #expect(narrow?.contains("bytes per row") == true, "\(narrow ?? "accepted")")
        #expect(reason { try ImageSource(pixels: bytes, width: 0, height: 10, bytesPerRow: 300, format: .rgb8, name: "frame") } != nil)
        #expect(throws: ImageError.tooLarge(path: "frame", width: 100, height: 10, limit: 999)) {
            try ImageSource(pixels: bytes, width: 100, height: 10, bytesPerRow: 300, format: .rgb8, name: "frame", maxPixels: 999)
        }
        // The last row needs no padding after it.
        let padded = [UInt8](repeating: 128, count: 9 * 320 + 300)
        let tight = try ImageSource(pixels: padded, width: 100, height: 10, bytesPerRow: 320, format: .rgb8)
        #expect(try tight.decode().pixels.allSatisfy { $0 == 128 })
    }

    @Test("damaged data: the rule is per image, so a strict and a lenient image coexist in one process")
    func strictnessPerImage() throws {
        var bytes = [UInt8](try Data(contentsOf: TestPaths.image("ndlocr-lite/digidepo_2531162_0024.jpg")))
        for i in 0..<200 { bytes[bytes.count / 2 + i] = UInt8(truncatingIfNeeded: i &* 37 &+ 11) }
        let damaged = Data(bytes)
        let strict = try ImageSource(data: damaged, name: "damaged.jpg")
        let lenient = try ImageSource(data: damaged, name: "damaged.jpg", acceptsDamagedData: true)
        #expect(throws: ImageError.self) { try strict.decode() }
        #expect(try lenient.decode().width == 2048)
        #expect(throws: ImageError.self) { try strict.decode() }
    }

    @Test("an engine changes no process-wide state unless its configuration opts in")
    func noProcessWideChanges() throws {
        #expect(OCRConfiguration(models: try TestPaths.ppocrModels()).tuneAllocator == false)
        let before = AllocatorPolicy.isApplied
        var configuration = OCRConfiguration(mode: .ppocr, models: try TestPaths.ppocrModels(), watchMemoryPressure: false)
        configuration.acceptDamagedImages = true
        _ = try KotenOCR(configuration: configuration)
        #expect(AllocatorPolicy.isApplied == before)
        // Accepting damaged images is the engine's rule for what it opens, not libvips' process-wide setting.
        var bytes = [UInt8](try Data(contentsOf: TestPaths.image("ndlocr-lite/digidepo_2531162_0024.jpg")))
        for i in 0..<200 { bytes[bytes.count / 2 + i] = UInt8(truncatingIfNeeded: i &* 37 &+ 11) }
        #expect(throws: ImageError.self) { try ImageSource(data: Data(bytes)).decode() }
    }
}
