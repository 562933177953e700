import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

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
    @Test("only private, read-only, file-backed mappings without copied-on-write pages are released")
    func releasable() {
        let smaps = """
        55d1ddbd1000-55d1dddc7000 r-xp 00000000 08:01 123 /usr/lib/libx.so
        Size:               2008 kB
        Rss:                 100 kB
        Anonymous:             0 kB
        VmFlags: rd ex mr mw me sd
        55d1dddc7000-55d1dddd0000 r--p 00200000 08:01 123 /usr/lib/libx.so
        Rss:                  36 kB
        Anonymous:            36 kB
        55d1dddd0000-55d1dddd2000 rw-p 00209000 08:01 123 /usr/lib/libx.so
        Rss:                   8 kB
        Anonymous:             8 kB
        7ffd1000-7ffd3000 r-xp 00000000 00:00 0 [vdso]
        Rss:                   8 kB
        Anonymous:             0 kB
        7f000000-7f100000 r--s 00000000 08:01 9 /dev/shm/x
        Rss:                  64 kB
        Anonymous:             0 kB
        """
        let maps = MappedLibraryPages.parse(smaps + "\n7f200000-7f300000 r--p 00000000 08:01 77     /opt/a b/lib c.so\nRss: 12 kB\n")
        #expect(maps.count == 6)
        #expect(maps.map(\.isReleasable) == [true, false, false, false, false, true])
        #expect(maps[0].start == 0x55d1ddbd1000 && maps[0].end == 0x55d1dddc7000 && maps[0].residentKB == 100)
        #expect(maps[0].path == "/usr/lib/libx.so" && maps[0].permissions == "r-xp")
        #expect(maps[1].residentKB == 36 && maps[1].anonymousKB == 36)
        #expect(maps[5].path == "/opt/a b/lib c.so" && maps[5].residentKB == 12)
    }

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
}
