import CVipsShim
import Foundation

/// A page image on disk, opened through libvips: its header is read, no pixels are decoded.
///
/// Formats: whatever Debian's libvips 8.14 reads — JPEG, PNG (8/16-bit, grey, alpha, palette), TIFF
/// (multi-page, 1-bit), WebP, GIF, HEIC, JPEG 2000, BMP (via the magick loader), PDF (rendered at `pdfDPI`).
/// The pixel limit is checked on the header before any pixel buffer exists, for every format (BMP's header
/// is read by `kv_bmp_size`, as ImageMagick would decode the image to learn its size).
/// Sizes are upright: the EXIF orientation is applied (a deliberate deviation from NDL's reference, which
/// ignores it; reference-pipelines.md §3.8). Decoding is always top-to-bottom in strips, truncation is an
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

    /// Decodes the whole page at full resolution, upright, as 8-bit RGB (grey replicated, alpha dropped
    /// without compositing as the reference's Pillow `convert('RGB')` does, 16-bit scaled down).
    /// Throws `ImageError.truncated` / `.corrupt` naming the file.
    public func decode() throws -> RGBImage {
        try decode(shrink: 1)
    }

    /// Decodes the page for a target of `width`×`height` (upright): JPEGs are decoded with the largest
    /// shrink-on-load factor (1, 2, 4, 8) that keeps both sides at least the target; other formats at full
    /// size. Then resized to exactly `width`×`height` by libvips (`kernel`). No padded buffer exists.
    public func decode(fitting width: Int, _ height: Int, kernel: ResizeKernel = .linear) throws -> RGBImage {
        let shrink = Self.shrinkFactor(from: (self.width, self.height), to: (width, height), loader: loader)
        let handle = try uprightHandle(shrink: shrink)
        let resized = try handle.apply(describe) { img, out in
            kv_resize(img, Double(width) / Double(handle.width), Double(height) / Double(handle.height), kernel.rawValue, out)
        }
        // libvips rounds sizes; crop or accept exact.
        let exact = (resized.width == width && resized.height == height) ? resized : try resized.apply(describe) { img, out in
            kv_crop(img, 0, 0, Int32(min(width, resized.width)), Int32(min(height, resized.height)), out)
        }
        let pixels = try exact.readPixels(describe)
        let image = RGBImage(uncheckedWidth: exact.width, height: exact.height, pixels: pixels)
        if image.width == width && image.height == height { return image }
        var padded = RGBImage(width: width, height: height)
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
        let pixels = try handle.readPixels(describe)
        return RGBImage(uncheckedWidth: handle.width, height: handle.height, pixels: pixels)
    }

    private func uprightHandle(shrink: Int) throws -> VipsHandle {
        let raw = try Self.openHandle(path: path, page: page, shrink: shrink, dpi: pdfDPI)
        return try raw.apply(describe) { img, out in kv_to_rgb8(img, 1, out) }
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

    static func openHandle(path: String, page: Int, shrink: Int, dpi: Double) throws -> VipsHandle {
        var out: OpaquePointer?
        guard kv_open(path, Int32(page), Int32(shrink), dpi, 0, &out) == 0, let out else {
            throw classify(path: path, message: Vips.lastError(fallback: "libvips could not open the file"))
        }
        return VipsHandle(out)
    }

    func describe(_ message: String) -> Error { Self.classify(path: path, message: message) }

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
