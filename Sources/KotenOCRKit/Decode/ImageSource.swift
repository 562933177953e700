import CVipsShim
import Foundation

/// A page image on disk, opened through libvips: its header is read, no pixels are decoded.
///
/// Formats: whatever Debian's libvips 8.14 reads — JPEG, PNG (8/16-bit, grey, alpha, palette), TIFF
/// (multi-page, 1-bit), WebP, GIF, HEIC, JPEG 2000, BMP (via the magick loader), PDF (rendered at `pdfDPI`).
/// The pixel limit is checked on the header before any pixel buffer exists, for every format (BMP's header
/// is read by `kv_bmp_size`, as ImageMagick would decode the image to learn its size).
/// Sizes are upright: the EXIF orientation (1–8) is applied (a deliberate deviation from NDL's reference, which
/// ignores it; reference-pipelines.md §3.8); the vertical flip of orientations 3 and 4 is done in place on the
/// decoded rows, since a top-to-bottom decode cannot read the last row first. An alpha channel that is not
/// opaque everywhere is composited onto `alphaBackground` (another deviation: the reference drops alpha), so
/// text carried by the alpha channel stays visible. Decoding is always top-to-bottom in strips, truncation is an
/// error (`ImageError.truncated`), and `decode(fitting:)` decodes JPEGs at reduced size (shrink-on-load)
/// so a 12 MP photo never exists at full size when only a detector input is wanted.
public struct ImageSource: Sendable {
    /// Default pixel limit: larger images are refused before decoding (`ImageError.tooLarge`).
    public static let defaultMaxPixels = 200_000_000

    public let url: URL
    /// 0-based page of a multi-page file.
    public let page: Int
    /// Number of pages in the file (1 for single-page formats).
    public let pageCount: Int
    /// Upright size in pixels (after EXIF orientation).
    public let width: Int
    public let height: Int
    /// EXIF orientation tag 1–8 of the file (1 when absent).
    public let orientation: Int
    /// The libvips loader, e.g. "jpegload".
    public let loader: String
    /// Render resolution for PDF pages (dots per inch).
    public let pdfDPI: Double
    /// The grey level (0 black, 255 white) an alpha channel is composited onto: the one farther from the ink,
    /// i.e. from the alpha-weighted mean colour (white under dark ink, black under light ink). Nil when the page
    /// has no alpha channel, is opaque everywhere, or transparent everywhere (then alpha is dropped, as NDL's
    /// reference does, and the colour channels are read as they are).
    public let alphaBackground: UInt8?

    var path: String { url.path }

    /// Opens `url` (header only). Throws `ImageError` naming the file: not found, empty, not an image,
    /// too many pixels, no such page.
    public init(url: URL, page: Int = 0, pdfDPI: Double = 300, maxPixels: Int = ImageSource.defaultMaxPixels) throws {
        Vips.start()
        self.url = url
        self.page = page
        self.pdfDPI = pdfDPI
        let path = url.path
        let loaderName = try Self.findLoader(path: path)
        loader = Self.shortLoaderName(loaderName)
        // ImageMagick (libvips' BMP reader) decodes the whole image while reading the header: check the size first.
        var declaredWidth: Int64 = 0, declaredHeight: Int64 = 0
        if loader.hasPrefix("magick"), kv_bmp_size(path, &declaredWidth, &declaredHeight) == 0,
           declaredWidth.multipliedReportingOverflow(by: declaredHeight).partialValue > Int64(maxPixels) {
            throw ImageError.tooLarge(path: path, width: Int(declaredWidth), height: Int(declaredHeight), limit: maxPixels)
        }
        let handle = try Self.openHandle(path: path, page: page, shrink: 1, dpi: pdfDPI)
        pageCount = kv_loader_is_paged(loaderName) != 0 ? Int(kv_n_pages(handle.pointer)) : 1
        if page >= pageCount { throw ImageError.noSuchPage(path: path, page: page, pageCount: pageCount) }
        orientation = Int(kv_orientation(handle.pointer))
        let swap = orientation >= 5
        width = swap ? handle.height : handle.width
        height = swap ? handle.width : handle.height
        if width * height > maxPixels {
            throw ImageError.tooLarge(path: path, width: width, height: height, limit: maxPixels)
        }
        // PDF pages are rendered onto white: their alpha channel carries nothing.
        alphaBackground = loader == "pdfload" ? nil : try Self.alphaBackground(handle, path: path)
    }

    /// Reads an image with an alpha channel once (streaming, no page buffer) to choose its background; nil
    /// without alpha, or when alpha is the same everywhere at 255 or 0. Throws `ImageError` naming the file.
    private static func alphaBackground(_ handle: VipsHandle, path: String) throws -> UInt8? {
        var ink = 0.0, alphaMin = 0.0, alphaMax = 0.0
        switch kv_alpha_ink(handle.pointer, &ink, &alphaMin, &alphaMax) {
        case 1: return nil
        case 0: break
        default: throw classify(path: path, message: Vips.lastError(fallback: "could not read the alpha channel"))
        }
        if alphaMin >= 255 || alphaMax <= 0 { return nil }
        return ink < 127.5 ? 255 : 0
    }

    /// Number of pages of the file at `url`, read from the header of its first page (a single-page format
    /// is not opened at all: only its first bytes are read to recognise it). No pixel is decoded and no
    /// size limit applies here; each page is checked when it is opened. Throws `ImageError` naming the file:
    /// not found, empty, not an image, corrupt.
    public static func pageCount(of url: URL) throws -> Int {
        Vips.start()
        let path = url.path
        let loaderName = try findLoader(path: path)
        guard kv_loader_is_paged(loaderName) != 0 else { return 1 }
        let handle = try openHandle(path: path, page: 0, shrink: 1, dpi: 72)
        return Int(kv_n_pages(handle.pointer))
    }

    /// Decodes the whole page at full resolution, upright, as 8-bit RGB (grey replicated, alpha composited onto
    /// `alphaBackground` or, when that is nil, dropped as the reference's Pillow `convert('RGB')` does, 16-bit
    /// scaled down).
    /// Throws `ImageError.truncated` / `.corrupt` naming the file.
    public func decode() throws -> RGBImage {
        try decode(shrink: 1)
    }

    /// Decodes the page for a target of `width`×`height` (upright): JPEGs are decoded with the largest
    /// shrink-on-load factor (1, 2, 4, 8) that keeps both sides at least the target; other formats at full
    /// size. Then resized to exactly `width`×`height` by libvips (`kernel`). No padded buffer exists.
    public func decode(fitting width: Int, _ height: Int, kernel: ResizeKernel = .linear) throws -> RGBImage {
        try decode(fitting: width, height, rows: 0..<height, kernel: kernel)
    }

    /// Rows `rows` (upright, clamped to 0..<`height`) of the page resized to `width`×`height` as
    /// `decode(fitting:_:kernel:)` makes it: a band of the detector's input, the rest of the page never held.
    /// Each call decodes the file again from its first row (a top-to-bottom decoder cannot seek).
    public func decode(fitting width: Int, _ height: Int, rows: Range<Int>, kernel: ResizeKernel = .linear) throws -> RGBImage {
        let rows = rows.clamped(to: 0..<height)
        let shrink = Self.shrinkFactor(from: (self.width, self.height), to: (width, height), loader: loader)
        let handle = try uprightHandle(shrink: shrink)
        let resized = try handle.apply(describe) { img, out in
            kv_resize(img, Double(width) / Double(handle.width), Double(height) / Double(handle.height), kernel.rawValue, out)
        }
        // libvips rounds sizes: take the rows asked for of at most width × height, pad what is missing with black.
        // Orientations 3 and 4 are still upside down here: their upright rows are counted from the bottom.
        let reversed = kv_needs_row_reversal(Int32(orientation)) != 0
        let top = reversed ? height - rows.upperBound : rows.lowerBound
        let w = min(width, resized.width), h = max(0, min(rows.count, resized.height - top))
        guard w > 0, h > 0 else { return RGBImage(width: width, height: rows.count) }
        let exact = (w == resized.width && h == resized.height) ? resized : try resized.apply(describe) { img, out in
            kv_crop(img, 0, Int32(top), Int32(w), Int32(h), out)
        }
        var pixels = try exact.readPixels(describe)
        reverseRowsIfNeeded(&pixels, width: exact.width, height: exact.height)
        let image = RGBImage(uncheckedWidth: exact.width, height: exact.height, pixels: pixels)
        if image.width == width && image.height == rows.count { return image }
        var padded = RGBImage(width: width, height: rows.count)
        padded.paste(image, x: 0, y: 0)
        return padded
    }

    /// Decodes at reduced size with the largest shrink-on-load factor that keeps both sides at least
    /// `minWidth`×`minHeight` (JPEG only; full size otherwise). Used where exact resampling follows.
    public func decode(atLeast minWidth: Int, _ minHeight: Int) throws -> RGBImage {
        try decode(shrink: Self.shrinkFactor(from: (width, height), to: (minWidth, minHeight), loader: loader))
    }

    public enum ResizeKernel: Int32, Sendable { case nearest = 0, linear = 1, cubic = 2, lanczos3 = 3 }

    // MARK: - internals

    private func decode(shrink: Int) throws -> RGBImage {
        let handle = try uprightHandle(shrink: shrink)
        var pixels = try handle.readPixels(describe)
        reverseRowsIfNeeded(&pixels, width: handle.width, height: handle.height)
        return RGBImage(uncheckedWidth: handle.width, height: handle.height, pixels: pixels)
    }

    /// The page as libvips gives it top to bottom: upright but for the vertical flip of orientations 3 and 4
    /// (`reverseRowsIfNeeded`), 8-bit RGB, alpha composited onto `alphaBackground` or dropped.
    private func uprightHandle(shrink: Int) throws -> VipsHandle {
        let raw = try Self.openHandle(path: path, page: page, shrink: shrink, dpi: pdfDPI)
        let background = alphaBackground.map(Int32.init) ?? -1
        return try raw.apply(describe) { img, out in kv_to_rgb8(img, 1, background, out) }
    }

    /// Completes the EXIF orientation: swaps rows end for end in place (no second buffer) for 3 and 4.
    private func reverseRowsIfNeeded(_ pixels: inout [UInt8], width: Int, height: Int) {
        guard kv_needs_row_reversal(Int32(orientation)) != 0, height > 1 else { return }
        let row = width * 3
        pixels.withUnsafeMutableBufferPointer { p in
            guard let base = p.baseAddress else { return }
            for y in 0..<(height / 2) {
                let a = base + y * row, b = base + (height - 1 - y) * row
                for i in 0..<row { swap(&a[i], &b[i]) }
            }
        }
    }

    /// The libvips loader type name for `path` ("VipsForeignLoadPngFile"), after checking the file exists and is
    /// not empty. Throws `ImageError.notFound`, `.empty`, `.unsupportedFormat`.
    private static func findLoader(path: String) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw ImageError.notFound(path: path)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if size == 0 { throw ImageError.empty(path: path) }
        guard let loaderName = kv_loader(path) else {
            _ = Vips.lastError(fallback: "")
            throw ImageError.unsupportedFormat(path: path)
        }
        return String(cString: loaderName)
    }

    private static func openHandle(path: String, page: Int, shrink: Int, dpi: Double) throws -> VipsHandle {
        var out: OpaquePointer?
        guard kv_open(path, Int32(page), Int32(shrink), dpi, 0, &out) == 0, let out else {
            throw classify(path: path, message: Vips.lastError(fallback: "libvips could not open the file"))
        }
        return VipsHandle(out)
    }

    private func describe(_ message: String) -> Error { Self.classify(path: path, message: message) }

    static func classify(path: String, message: String) -> ImageError {
        let lower = message.lowercased()
        if lower.contains("corrupt") { return .corrupt(path: path, detail: message) }
        if lower.contains("truncat") || lower.contains("premature end") || lower.contains("unexpected end")
            || lower.contains("read error") || lower.contains("short read") {
            return .truncated(path: path, detail: message)
        }
        if lower.contains("not a known file format") { return .unsupportedFormat(path: path) }
        return .corrupt(path: path, detail: message)
    }

    static func shrinkFactor(from source: (Int, Int), to target: (Int, Int), loader: String) -> Int {
        guard loader == "jpegload" else { return 1 }
        var factor = 1
        for f in [2, 4, 8] where source.0 / f >= target.0 && source.1 / f >= target.1 { factor = f }
        return factor
    }

    private static func shortLoaderName(_ typeName: String) -> String {
        // "VipsForeignLoadJpegFile" -> "jpegload"
        var name = typeName
        if name.hasPrefix("VipsForeignLoad") { name.removeFirst("VipsForeignLoad".count) }
        for suffix in ["File", "Buffer", "Source"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        return name.lowercased() + "load"
    }
}

extension RGBImage {
    /// Copies `image` into this one with its top-left at (x, y), clipped to this image.
    public mutating func paste(_ image: RGBImage, x: Int, y: Int) {
        let w = width
        for row in 0..<image.height {
            let ty = y + row
            guard ty >= 0, ty < height else { continue }
            for col in 0..<image.width {
                let tx = x + col
                guard tx >= 0, tx < w else { continue }
                let s = (row * image.width + col) * 3, d = (ty * w + tx) * 3
                pixels[d] = image.pixels[s]; pixels[d + 1] = image.pixels[s + 1]; pixels[d + 2] = image.pixels[s + 2]
            }
        }
    }
}
