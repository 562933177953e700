import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport
import Synchronization

/// Line crops cut while the file is decoded strip by strip (`ImageSource.decodeRegions`): the same pixels as the
/// decoded page's, for every EXIF orientation, without the page ever existing whole.
@Suite("Region decoding")
struct RegionDecodeTests {
    /// A 90×70 image whose every pixel differs from its neighbours, so a crop from a wrong place cannot match.
    static func pattern() -> RGBImage {
        var image = RGBImage(width: 90, height: 70)
        for y in 0..<70 {
            for x in 0..<90 {
                let i = (y * 90 + x) * 3
                image.pixels[i] = UInt8((x * 7 + y * 3) % 256)
                image.pixels[i + 1] = UInt8((x * 2 + y * 11) % 256)
                image.pixels[i + 2] = UInt8((x * 13 + y * 5 + 40) % 256)
            }
        }
        return image
    }

    @Test("every EXIF orientation: each crop equals the decoded upright page's crop", arguments: 1...8)
    func orientations(_ orientation: Int) throws {
        let url = try TestPaths.temporaryDirectory("regions").appendingPathComponent("o\(orientation).jpg")
        try ImageWriter.save(Self.pattern(), to: url, quality: 95, exifOrientation: orientation)
        let source = try ImageSource(url: url)
        let page = try source.decode()
        let w = source.width, h = source.height
        // Boxes in every corner, across strips, a whole-page one, a thin one, one partly outside, an empty one.
        let boxes = [PixelBox(x1: 0, y1: 0, x2: 10, y2: 7), PixelBox(x1: w - 9, y1: h - 13, x2: w, y2: h),
                     PixelBox(x1: 3, y1: 5, x2: w - 4, y2: h - 2), PixelBox(x1: 0, y1: 0, x2: w, y2: h),
                     PixelBox(x1: 20, y1: 30, x2: 21, y2: 31), PixelBox(x1: w - 5, y1: -4, x2: w + 8, y2: 9),
                     PixelBox(x1: 5, y1: 5, x2: 5, y2: 9)]
        let crops = try source.decodeRegions(boxes)
        for (box, crop) in zip(boxes, crops) {
            let b = LineCrop.clamped(box, imageWidth: w, imageHeight: h)
            #expect(crop == page.cropped(x: b.x1, y: b.y1, width: b.width, height: b.height), "orientation \(orientation), box \(box)")
        }
    }

    @Test("a page taller than one strip (2048×1446 scan): crops across strip edges match the decoded page")
    func acrossStrips() throws {
        let source = try ImageSource(url: TestPaths.image("ndlocr-lite/digidepo_2531162_0024.jpg"))
        let page = try source.decode()
        let boxes = [PixelBox(x1: 100, y1: 60, x2: 400, y2: 70), PixelBox(x1: 1900, y1: 120, x2: 2048, y2: 1446),
                     PixelBox(x1: 0, y1: 1400, x2: 2048, y2: 1446)]
        for (box, crop) in zip(boxes, try source.decodeRegions(boxes)) {
            #expect(crop == page.cropped(x: box.x1, y: box.y1, width: box.width, height: box.height))
        }
    }

    @Test("line images: a half line is read from its line's crop at its offset, with the page's pixels")
    func lineImages() throws {
        let source = try ImageSource(url: TestPaths.image("ndlocr-lite/digidepo_2531162_0024.jpg"))
        let page = try source.decode()
        let line = PixelBox(x1: 300, y1: 200, x2: 900, y2: 240)
        let images = try LineImages(source, boxes: [line, line])
        let half = PixelBox(x1: 600, y1: 200, x2: 900, y2: 240)
        #expect(images.region(line).image == page.cropped(x: 300, y: 200, width: 600, height: 40))
        #expect(images.region(half).image == page.cropped(x: 600, y: 200, width: 300, height: 40))
    }
}

/// Unmapping the clean library pages start-up touched (`MappedLibraryPages`).
@Suite("Mapped library pages")
struct MappedLibraryPagesTests {
    @Test("this process: pages are released and the code they held runs again")
    func here() throws {
        _ = try InferenceEnvironment.shared()
        let released = MappedLibraryPages.release()
        #if os(Linux)
        #expect(released > 0)  // (other tests run beside this one: the resident size itself is not compared)
        #endif
        // Code used again comes back on its first touch.
        #expect(try ImageSource(url: TestPaths.image("ndlocr-lite-rs/scaned0.png")).decode().width == 1932)
    }

    #if os(Linux)
    /// The suite crashed once in the dynamic loader (strcmp on 0x94f, a pointer read back as its file offset) while
    /// an engine started beside it: pages were released from a /proc/self/smaps read, in which a library being
    /// loaded by another thread showed as one read-only mapping, and its data was discarded once relocated. Here
    /// libraries are loaded and unloaded on one thread while pages are released on another, many times; every
    /// load is then used. The loader's lock, held while the pages are released, keeps this safe whatever the
    /// interleaving; the old way crashed here in 3 runs of 3 (a bad pointer at 0x3f6, 0x10b0, 0x441).
    /// Debian's library folder for this machine's architecture (glibc's gconv modules are under it).
    #if arch(arm64)
    static let multiarch = "aarch64-linux-gnu"
    #else
    static let multiarch = "x86_64-linux-gnu"
    #endif

    @Test("released while another thread loads and unloads libraries: every library loaded works")
    func besideLoading() async throws {
        let modules = ["EUC-JP", "UTF-16", "ISO-2022-JP", "SJIS", "EUC-KR", "BIG5", "GBK", "UTF-7"]
            .map { "/usr/lib/\(Self.multiarch)/gconv/\($0).so" }.filter { FileManager.default.fileExists(atPath: $0) }
        try #require(!modules.isEmpty, "no gconv modules to load")
        let releasing = Mutex(true)
        let loaded = Task.detached { () -> (rounds: Int, found: Int) in
            var rounds = 0, found = 0
            // Until the releases end (at most 200 000 rounds: the loop ends whatever the speed of either thread).
            while releasing.withLock({ $0 }) && rounds < 200_000 {
                let path = modules[rounds % modules.count]
                rounds += 1
                guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else { continue }
                if dlsym(handle, "gconv") != nil { found += 1 }
                dlclose(handle)
            }
            return (rounds, found)
        }
        var released = 0
        for _ in 0..<300 { released += MappedLibraryPages.release() }
        releasing.withLock { $0 = false }
        let result = await loaded.value
        #expect(result.found == result.rounds)
        #expect(released > 0)
        // Every module loads and resolves again after the releases.
        for path in modules {
            let handle = try #require(dlopen(path, RTLD_NOW | RTLD_LOCAL), "\(path)")
            #expect(dlsym(handle, "gconv") != nil)
            dlclose(handle)
        }
    }
    #endif
}
