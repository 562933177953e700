import Foundation
import KotenOCRKit

/// The iPhone app's detector preprocessing, kept here only as the benchmark's "before": decode the photo at
/// full resolution, paste it on a square RGBA canvas of its longer side (4032×4032×4 ≈ 65 MB for 12 MP),
/// then resize the canvas. docs/memory-design.md, "The four failures" (2).
enum NaivePreprocess {
    static func padThenResize(_ source: ImageSource, width: Int, height: Int) throws -> RGBImage {
        let page = try source.decode()
        let side = max(page.width, page.height)
        var canvas = [UInt8](repeating: 0, count: side * side * 4)
        for y in 0..<page.height {
            for x in 0..<page.width {
                let s = (y * page.width + x) * 3, d = (y * side + x) * 4
                canvas[d] = page.pixels[s]; canvas[d + 1] = page.pixels[s + 1]; canvas[d + 2] = page.pixels[s + 2]
                canvas[d + 3] = 255
            }
        }
        // Box-average the square down to the target's scale, then drop alpha (as the app did).
        let scale = Double(side) / Double(max(width, height))
        var out = RGBImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let sx = min(side - 1, Int(Double(x) * scale)), sy = min(side - 1, Int(Double(y) * scale))
                let s = (sy * side + sx) * 4, d = (y * width + x) * 3
                out.pixels[d] = canvas[s]; out.pixels[d + 1] = canvas[s + 1]; out.pixels[d + 2] = canvas[s + 2]
            }
        }
        return out
    }
}
