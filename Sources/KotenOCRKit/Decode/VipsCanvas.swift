import CVipsShim
import Foundation

/// An RGB image in memory that libvips draws on (lines, rectangles, text), then encodes: the viz format's canvas.
package final class VipsCanvas {
    private let image: VipsHandle
    package var width: Int { image.width }
    package var height: Int { image.height }

    /// A drawable RGB copy of `handle` (grey is replicated). Throws `ImageError.corrupt` naming `name`.
    package init(_ handle: VipsHandle, name: String) throws {
        let describe = { (message: String) -> Error in ImageError.corrupt(path: name, detail: message) }
        let rgb = try handle.apply(describe) { kv_to_rgb8($0, 0, $1) }
        image = try rgb.apply(describe) { kv_memory_copy($0, $1) }
    }

    /// An RGB colour, 0–255 per channel.
    package struct Colour: Sendable, Equatable {
        package var red: Double, green: Double, blue: Double
        package init(_ red: Double, _ green: Double, _ blue: Double) { (self.red, self.green, self.blue) = (red, green, blue) }
        var ink: [Double] { [red, green, blue] }
    }

    /// A line `thickness` pixels wide from `from` to `to` (page pixels of this canvas), clipped to it.
    package func line(from: (x: Double, y: Double), to: (x: Double, y: Double), colour: Colour, thickness: Int) {
        let ink = colour.ink
        let half = Double(thickness - 1) / 2
        for step in 0..<max(1, thickness) {
            let offset = Double(step) - half
            // Offsetting both ways covers lines of any slope with a pen about `thickness` wide.
            for (dx, dy) in [(offset, 0.0), (0.0, offset)] {
                _ = kv_draw_line(image.pointer, ink, 3, Int32((from.x + dx).rounded()), Int32((from.y + dy).rounded()),
                                 Int32((to.x + dx).rounded()), Int32((to.y + dy).rounded()))
            }
        }
    }

    /// A rectangle, filled or outlined, clipped to the canvas.
    package func rectangle(x: Int, y: Int, width: Int, height: Int, colour: Colour, filled: Bool) {
        _ = kv_draw_rect(image.pointer, colour.ink, 3, Int32(x), Int32(y), Int32(width), Int32(height), filled ? 1 : 0)
    }

    /// `text` rendered in `font` (Pango, e.g. "sans bold 14") as a coverage mask (its width and height are the
    /// text's), or nil if it cannot be rendered.
    package func textMask(_ text: String, font: String) -> VipsHandle? {
        var out: OpaquePointer?
        guard kv_text(text, font, 72, &out) == 0, let out else {
            _ = Vips.lastError(fallback: "")
            return nil
        }
        return VipsHandle(out)
    }

    /// Paints `colour` through `mask` (from `textMask`) with its top-left at (x, y).
    package func paint(_ mask: VipsHandle, x: Int, y: Int, colour: Colour) {
        _ = kv_draw_mask(image.pointer, colour.ink, 3, mask.pointer, Int32(x), Int32(y))
    }

    /// The canvas encoded as `encoding`. Throws `ImageError.corrupt` naming `name`.
    package func encoded(_ encoding: ImageSource.DisplayEncoding, name: String) throws -> Data {
        try image.encoded(encoding) { ImageError.corrupt(path: name, detail: $0) }
    }
}
