import Foundation
import KotenOCRKit

/// Makes the memory benchmarks' standard input: a 12 MP phone photo of a book page — a 4032×3024 JPEG
/// stored sideways with EXIF orientation 6, showing `page` upright (3024×4032) on a light background.
/// Reference: docs/memory-design.md, "How to measure".
public enum TestPhoto {
    /// Writes the photo of the page at `source` to `url`. Throws `ImageError`.
    public static func make12MP(from source: URL, to url: URL) throws {
        let page = try ImageSource(url: source).decode()
        let uprightW = 3024, uprightH = 4032
        // Fit the page into the frame with a margin, as a photo of a book page would show it.
        let scale = min(Double(uprightW) * 0.92 / Double(page.width), Double(uprightH) * 0.92 / Double(page.height))
        let w = Int(Double(page.width) * scale), h = Int(Double(page.height) * scale)
        let scaled = bilinearResize(page, width: w, height: h)
        var canvas = RGBImage(width: uprightW, height: uprightH)
        for i in stride(from: 0, to: canvas.pixels.count, by: 3) {
            canvas.pixels[i] = 214; canvas.pixels[i + 1] = 206; canvas.pixels[i + 2] = 190
        }
        canvas.paste(scaled, x: (uprightW - w) / 2, y: (uprightH - h) / 2)
        // Orientation 6: the viewer rotates the stored image 90° clockwise, so store it turned counter-clockwise.
        try ImageWriter.save(canvas.rotatedCounterClockwise(), to: url, quality: 92, exifOrientation: 6)
    }
}
