/// An 8-bit RGB image in memory: `height` rows of `width` pixels, channels interleaved R,G,B.
///
/// The one pixel currency between stages. `pixels.count == width * height * 3`.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    /// Wraps `pixels` (width × height × 3 bytes). Returns nil if the count does not match.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width >= 0, height >= 0, pixels.count == width * height * 3 else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A black image.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.pixels = [UInt8](repeating: 0, count: self.width * self.height * 3)
    }

    /// Bytes this image holds.
    public var byteCount: Int { pixels.count }

    /// The rectangle [x, x+w) × [y, y+h) clamped to the image (NumPy slicing semantics for non-negative
    /// starts); an empty rectangle gives a 0×0 image.
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> RGBImage {
        let x0 = min(max(0, x), width), y0 = min(max(0, y), height)
        let x1 = min(max(x0, x + w), width), y1 = min(max(y0, y + h), height)
        let cw = x1 - x0, ch = y1 - y0
        guard cw > 0, ch > 0 else { return RGBImage(width: 0, height: 0) }
        var out = [UInt8](repeating: 0, count: cw * ch * 3)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for row in 0..<ch {
                    let s = ((y0 + row) * width + x0) * 3
                    let d = row * cw * 3
                    for i in 0..<(cw * 3) { dst[d + i] = src[s + i] }
                }
            }
        }
        return RGBImage(uncheckedWidth: cw, height: ch, pixels: out)
    }

    /// Rotated 90° counter-clockwise (the rotation PIL's ROTATE_90 and NumPy's rot90 make).
    public func rotatedCounterClockwise() -> RGBImage {
        // Output is h wide, w high; out(x', y') = in(w-1-y', x').
        quarterTurn { x, y, w, h in (w - 1 - x) * h + y }
    }

    /// Rotated 90° clockwise.
    public func rotatedClockwise() -> RGBImage {
        // Output is h wide, w high; out(x', y') = in(y', h-1-x').
        quarterTurn { x, y, w, h in x * h + (h - 1 - y) }
    }

    /// The image turned a quarter: `target(x, y, width, height)` is where input pixel (x, y) lands in the
    /// output (`height` wide, `width` high), as a pixel index.
    private func quarterTurn(_ target: (Int, Int, Int, Int) -> Int) -> RGBImage {
        var out = [UInt8](repeating: 0, count: pixels.count)
        let w = width, h = height
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        let s = (y * w + x) * 3, d = target(x, y, w, h) * 3
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
        return RGBImage(uncheckedWidth: h, height: w, pixels: out)
    }

    /// Rotated by 180°.
    public func rotated180() -> RGBImage {
        var out = [UInt8](repeating: 0, count: pixels.count)
        let n = width * height
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<n {
                    let s = i * 3, d = (n - 1 - i) * 3
                    dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                }
            }
        }
        return RGBImage(uncheckedWidth: width, height: height, pixels: out)
    }

    init(uncheckedWidth width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
