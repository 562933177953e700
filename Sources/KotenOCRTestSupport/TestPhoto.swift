import Foundation
import KotenOCRKit

/// Makes phone photos of a book page: a JPEG showing `page` upright on a light background, stored as a phone
/// stores it, turned or flipped and tagged with the EXIF orientation that shows it upright again. The memory
/// benchmarks' standard input is the 12 MP one stored sideways (4032×3024, orientation 6: `make12MP`).
/// Reference: docs/memory-design.md, "How to measure".
public enum TestPhoto {
    /// Writes the 12 MP photo (3024×4032 upright, stored 4032×3024 with EXIF orientation 6) of the page at
    /// `source` to `url`. Throws `ImageError`.
    public static func make12MP(from source: URL, to url: URL) throws {
        try make(from: source, to: url, orientation: 6, longSide: 4032)
    }

    /// Writes a photo of the page at `source` to `url`: upright it is `longSide` pixels tall and three quarters
    /// of that wide (a portrait photo: 4032 gives 12 MP), the page fitted with a margin; stored with EXIF
    /// `orientation` (1–8) and the pixels that orientation turns upright (`ImageWriter.saveOriented`).
    /// Throws `ImageError`.
    public static func make(from source: URL, to url: URL, orientation: Int, longSide: Int) throws {
        try make(try ImageSource(url: source).decode(), to: url, orientation: orientation, longSide: longSide)
    }

    /// `make(from:to:orientation:longSide:)` of a page in memory.
    public static func make(_ page: RGBImage, to url: URL, orientation: Int, longSide: Int) throws {
        let uprightW = longSide * 3 / 4, uprightH = longSide
        // Fit the page into the frame with a margin, as a photo of a book page would show it.
        let scale = min(Double(uprightW) * 0.92 / Double(page.width), Double(uprightH) * 0.92 / Double(page.height))
        let w = Int(Double(page.width) * scale), h = Int(Double(page.height) * scale)
        let scaled = bilinearResize(page, width: w, height: h)
        var canvas = RGBImage(width: uprightW, height: uprightH)
        for i in stride(from: 0, to: canvas.pixels.count, by: 3) {
            canvas.pixels[i] = 214; canvas.pixels[i + 1] = 206; canvas.pixels[i + 2] = 190
        }
        canvas.paste(scaled, x: (uprightW - w) / 2, y: (uprightH - h) / 2)
        try ImageWriter.saveOriented(canvas, to: url, quality: 92, orientation: orientation)
    }
}
