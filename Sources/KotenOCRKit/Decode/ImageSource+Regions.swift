import CVipsShim

extension ImageSource {
    /// Rectangles of the page at full resolution, cut while the file is decoded once, strip by strip from its top:
    /// neither the page nor its EXIF-rotated copy ever exists whole (a 12 MP photo would be 36 MB, twice while
    /// libvips turns it). Memory: the crops and one strip of 64 stored rows. Each crop holds exactly the pixels
    /// `decode().cropped(...)` gives (8-bit RGB, upright: the stored pixels are moved to their upright places).
    ///
    /// `boxes` are xyxy pixels of the upright page; each is clamped to the page (an empty one gives a 0×0 image).
    /// Used for the NDL modes' line crops (docs/performance.md, "Where the NDL modes' memory went"). Throws
    /// `ImageError` naming the file.
    package func decodeRegions(_ boxes: [PixelBox]) throws -> [RGBImage] {
        let clamped = boxes.map { LineCrop.clamped($0, imageWidth: width, imageHeight: height) }
        guard turn == .upright else {
            // A page turned back in memory (`turnedUpright(from:)`): cut from the whole upright page.
            let whole = try decode()
            return clamped.map { $0.isEmpty ? RGBImage(width: 0, height: 0)
                : whole.cropped(x: $0.x1, y: $0.y1, width: $0.width, height: $0.height) }
        }
        let raw = try origin.open(name: name, page: directory, shrink: 1, dpi: pdfDPI, strict: !acceptsDamagedData)
        let background = alphaBackground.map(Int32.init) ?? -1
        let stored = try raw.apply(describe) { img, out in kv_to_rgb8(img, 0, background, out) }
        let map = UprightMap(orientation: orientation, storedWidth: stored.width, storedHeight: stored.height)
        guard map.width == width, map.height == height else {
            throw ImageError.corrupt(path: path, detail: "decoded \(stored.width)×\(stored.height), header said \(width)×\(height)")
        }
        // Each crop's rectangle in stored pixels, and its buffer.
        let sources = clamped.map { map.storedRect(of: $0) }
        var crops = clamped.map { $0.isEmpty ? RGBImage(width: 0, height: 0) : RGBImage(width: $0.width, height: $0.height) }
        guard let rows = kv_rows_new(stored.pointer) else { throw describe(Vips.lastError(fallback: Vips.noDecodeMessage)) }
        defer { kv_rows_free(rows) }
        let strip = 64, w = stored.width
        var buffer = [UInt8](repeating: 0, count: w * strip * 3)
        let lastRow = sources.filter { !$0.isEmpty }.map(\.y2).max() ?? 0
        var top = 0
        while top < lastRow {
            let h = min(strip, stored.height - top)
            let ok = buffer.withUnsafeMutableBufferPointer { kv_rows_read(rows, Int32(top), Int32(h), $0.baseAddress, $0.count) }
            guard ok == 0 else { throw describe(Vips.lastError(fallback: Vips.noDecodeMessage)) }
            for k in crops.indices where !sources[k].isEmpty && sources[k].y1 < top + h && sources[k].y2 > top {
                copy(buffer, stripTop: top, stripHeight: h, storedWidth: w, from: sources[k], into: &crops[k], at: clamped[k], map: map)
            }
            top += h
        }
        return crops
    }

    /// Moves the stored pixels of `rect` that lie in the strip into `crop` (the upright box `box`).
    private func copy(_ strip: [UInt8], stripTop: Int, stripHeight: Int, storedWidth: Int, from rect: PixelBox,
                      into crop: inout RGBImage, at box: PixelBox, map: UprightMap) {
        let y1 = max(rect.y1, stripTop), y2 = min(rect.y2, stripTop + stripHeight)
        let cw = crop.width
        strip.withUnsafeBufferPointer { src in
            crop.pixels.withUnsafeMutableBufferPointer { dst in
                for y in y1..<y2 {
                    let row = (y - stripTop) * storedWidth * 3
                    if map.orientation == 1 {
                        let d = ((y - box.y1) * cw) * 3
                        for i in 0..<((rect.x2 - rect.x1) * 3) { dst[d + i] = src[row + rect.x1 * 3 + i] }
                        continue
                    }
                    for x in rect.x1..<rect.x2 {
                        let (u, v) = map.upright(x: x, y: y)
                        let s = row + x * 3, d = ((v - box.y1) * cw + (u - box.x1)) * 3
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
    }
}

/// Where a stored pixel of an image with EXIF orientation 1–8 lands in the upright image (as libvips' autorot
/// turns it), and which stored rectangle an upright rectangle comes from.
struct UprightMap {
    let orientation: Int
    let storedWidth: Int
    let storedHeight: Int

    init(orientation: Int, storedWidth: Int, storedHeight: Int) {
        self.orientation = (1...8).contains(orientation) ? orientation : 1
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
    }

    /// Upright size: the stored sides swapped for orientations 5–8.
    var width: Int { orientation >= 5 ? storedHeight : storedWidth }
    var height: Int { orientation >= 5 ? storedWidth : storedHeight }

    /// The upright position of stored pixel (x, y).
    func upright(x: Int, y: Int) -> (Int, Int) {
        let w = storedWidth - 1, h = storedHeight - 1
        switch orientation {
        case 2: return (w - x, y)          // mirrored left-right
        case 3: return (w - x, h - y)      // turned 180°
        case 4: return (x, h - y)          // mirrored top-bottom
        case 5: return (y, x)              // transposed
        case 6: return (h - y, x)          // shown turned 90° clockwise
        case 7: return (h - y, w - x)      // transversed
        case 8: return (y, w - x)          // shown turned 90° counter-clockwise
        default: return (x, y)
        }
    }

    /// The stored rectangle (xyxy) whose pixels make the upright rectangle `box` (empty for an empty box).
    func storedRect(of box: PixelBox) -> PixelBox {
        guard box.width > 0, box.height > 0 else { return PixelBox(x1: 0, y1: 0, x2: 0, y2: 0) }
        // The stored pixel of each upright corner, by the inverse map (a pixel permutation: corners map to corners).
        let corners = [(box.x1, box.y1), (box.x2 - 1, box.y2 - 1)].map { stored(u: $0.0, v: $0.1) }
        let xs = corners.map(\.0), ys = corners.map(\.1)
        return PixelBox(x1: xs.min() ?? 0, y1: ys.min() ?? 0, x2: (xs.max() ?? 0) + 1, y2: (ys.max() ?? 0) + 1)
    }

    /// The stored position of upright pixel (u, v): the inverse of `upright(x:y:)`.
    func stored(u: Int, v: Int) -> (Int, Int) {
        let w = storedWidth - 1, h = storedHeight - 1
        switch orientation {
        case 2: return (w - u, v)
        case 3: return (w - u, h - v)
        case 4: return (u, h - v)
        case 5: return (v, u)
        case 6: return (v, h - u)
        case 7: return (w - v, h - u)
        case 8: return (w - v, u)
        default: return (u, v)
        }
    }
}

private extension PixelBox {
    var isEmpty: Bool { x2 <= x1 || y2 <= y1 }
}
