/// Resizes to exactly `width`×`height` with bilinear interpolation at half-pixel centres and no
/// antialiasing (the geometry of OpenCV's INTER_LINEAR), aspect ratio not kept.
public func bilinearResize(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
    guard image.width > 0, image.height > 0, width > 0, height > 0 else { return RGBImage(width: width, height: height) }
    let sx = Double(image.width) / Double(width), sy = Double(image.height) / Double(height)
    let iw = image.width, ih = image.height
    var out = [UInt8](repeating: 0, count: width * height * 3)
    // Horizontal taps once per column.
    var xTaps: [(Int, Int, Double)] = []
    xTaps.reserveCapacity(width)
    for x in 0..<width {
        let fx = max(0, (Double(x) + 0.5) * sx - 0.5)
        let x0 = min(Int(fx), iw - 1)
        xTaps.append((x0, min(x0 + 1, iw - 1), fx - Double(x0)))
    }
    image.pixels.withUnsafeBufferPointer { src in
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                let fy = max(0, (Double(y) + 0.5) * sy - 0.5)
                let y0 = min(Int(fy), ih - 1), y1 = min(y0 + 1, ih - 1)
                let wy = fy - Double(y0)
                for x in 0..<width {
                    let (x0, x1, wx) = xTaps[x]
                    for c in 0..<3 {
                        let a = Double(src[(y0 * iw + x0) * 3 + c]), b = Double(src[(y0 * iw + x1) * 3 + c])
                        let d = Double(src[(y1 * iw + x0) * 3 + c]), e = Double(src[(y1 * iw + x1) * 3 + c])
                        let v = (a + (b - a) * wx) * (1 - wy) + (d + (e - d) * wx) * wy
                        dst[(y * width + x) * 3 + c] = UInt8(min(255, max(0, v.rounded())))
                    }
                }
            }
        }
    }
    return RGBImage(uncheckedWidth: width, height: height, pixels: out)
}
