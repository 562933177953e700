import CVipsTestShim
import Foundation
import KotenOCRKit

/// Writes an `RGBImage` through libvips (format by suffix: .jpg, .png, .tif, .webp). Used by benchmarks and
/// tests to make inputs (e.g. a 12 MP JPEG with EXIF orientation 6).
public enum ImageWriter {
    /// Saves `image` to `url`. `exifOrientation` 2–8 writes that tag (JPEG). Throws `ImageError.corrupt`
    /// with libvips' message.
    public static func save(_ image: RGBImage, to url: URL, quality: Int = 90, exifOrientation: Int = 1) throws {
        let handle = try wrap(image, url: url)
        try check(kv_save(handle.pointer, url.path, Int32(quality), Int32(exifOrientation)), url: url)
    }

    /// Saves 8-bit interleaved `pixels` of `bands` channels (1 grey, 2 grey + alpha, 3 RGB, 4 RGBA) by the
    /// suffix of `url` (.png, .tif; .webp is written lossless). Throws `ImageError.corrupt` with libvips' message.
    public static func save(pixels: [UInt8], width: Int, height: Int, bands: Int, to url: URL) throws {
        Vips.start()
        var out: OpaquePointer?
        let made = pixels.withUnsafeBufferPointer { kv_from_pixels($0.baseAddress, Int32(width), Int32(height), Int32(bands), &out) }
        guard made == 0, let out else {
            throw ImageError.corrupt(path: url.path, detail: Vips.lastError(fallback: "could not wrap pixels"))
        }
        let handle = VipsHandle(out)
        let rc = url.pathExtension.lowercased() == "webp" ? kv_save_webp_lossless(handle.pointer, url.path)
            : kv_save(handle.pointer, url.path, 0, 1)
        try check(rc, url: url)
    }

    /// Encodings that exercise the decoders' less common paths.
    public enum Encoding: Sendable, CaseIterable {
        /// 16 bits per channel RGB PNG.
        case png16
        /// 8-bit palette PNG (colour type 3).
        case pngPalette
        /// CMYK JPEG.
        case jpegCMYK
        /// 1-bit (bilevel) TIFF: grey ≥ 128 is white.
        case tiff1Bit
    }

    /// Saves `image` to `url` in `encoding`. Throws `ImageError.corrupt` with libvips' message.
    public static func save(_ image: RGBImage, to url: URL, encoding: Encoding) throws {
        let handle = try wrap(image, url: url)
        let rc: Int32
        switch encoding {
        case .png16: rc = kv_save_png16(handle.pointer, url.path)
        case .pngPalette: rc = kv_save_png_palette(handle.pointer, url.path)
        case .jpegCMYK: rc = kv_save_jpeg_cmyk(handle.pointer, url.path)
        case .tiff1Bit: rc = kv_save_tiff_1bit(handle.pointer, url.path)
        }
        try check(rc, url: url)
    }

    /// Saves `pages` as one multi-page TIFF (every page as tall as the first; narrower pages are padded
    /// with black to the widest). Throws `ImageError.corrupt` with libvips' message.
    public static func saveMultiPageTIFF(_ pages: [RGBImage], to url: URL) throws {
        let handles = try pages.map { try wrap($0, url: url) }
        var pointers: [OpaquePointer?] = handles.map(\.pointer)
        let rc = pointers.withUnsafeMutableBufferPointer { kv_save_tiff_pages($0.baseAddress, Int32(handles.count), url.path) }
        try check(rc, url: url)
        withExtendedLifetime(handles) {}
    }

    /// Saves `image` (upright) as a JPEG tagged with EXIF `orientation` (1–8) whose stored pixels are turned or
    /// flipped so that a viewer applying the tag shows `image` again (`kv_save_oriented`). Throws
    /// `ImageError.corrupt` with libvips' message.
    public static func saveOriented(_ image: RGBImage, to url: URL, quality: Int = 90, orientation: Int) throws {
        let handle = try wrap(image, url: url)
        try check(kv_save_oriented(handle.pointer, url.path, Int32(quality), Int32(orientation)), url: url)
    }

    /// Saves `image` as a tiled pyramid TIFF (libvips' `tiffsave` with `pyramid` and `tile`): the page, then its
    /// reduced-resolution levels, each half the one before, in the main chain marked as reduced images
    /// (NewSubfileType 1), or in SubIFDs of the page when `subIFDs`. Throws `ImageError.corrupt`.
    public static func savePyramidTIFF(_ image: RGBImage, to url: URL, subIFDs: Bool = false) throws {
        let handle = try wrap(image, url: url)
        try check(kv_save_tiff_pyramid(handle.pointer, url.path, subIFDs ? 1 : 0), url: url)
    }

    /// One text of a rendered page: its Pango markup, its centre (page pixels) and its angle (degrees,
    /// clockwise on the page, as CSS `rotate`).
    public struct PlacedText: Sendable {
        public var text: String
        public var centre: (x: Double, y: Double)
        public var degrees: Double
        public init(_ text: String, centre: (x: Double, y: Double), degrees: Double) {
            self.text = text
            self.centre = centre
            self.degrees = degrees
        }
    }

    /// Renders a grey page `width` × `height` (black text on white) with `texts` in `font` (Pango, e.g.
    /// "Noto Sans CJK JP 28") at 72 dpi, each turned about its centre, and saves it by the suffix of `url`
    /// (`kv_save_text_page`). Throws `ImageError.corrupt` with libvips' message.
    public static func saveTextPage(width: Int, height: Int, texts: [PlacedText], font: String, to url: URL) throws {
        Vips.start()
        let strings = texts.map { strdup($0.text) }
        defer { strings.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = strings.map { $0.map { UnsafePointer($0) } }
        let xs = texts.map(\.centre.x), ys = texts.map(\.centre.y), angles = texts.map(\.degrees)
        let rc = pointers.withUnsafeBufferPointer { p in
            kv_save_text_page(Int32(width), Int32(height), p.baseAddress, xs, ys, angles, Int32(texts.count), font, 72, url.path)
        }
        try check(rc, url: url)
    }

    private static func wrap(_ image: RGBImage, url: URL) throws -> VipsHandle {
        Vips.start()
        var out: OpaquePointer?
        let made = image.pixels.withUnsafeBufferPointer { buf in
            kv_from_pixels(buf.baseAddress, Int32(image.width), Int32(image.height), 3, &out)
        }
        guard made == 0, let out else {
            throw ImageError.corrupt(path: url.path, detail: Vips.lastError(fallback: "could not wrap pixels"))
        }
        return VipsHandle(out)
    }

    private static func check(_ rc: Int32, url: URL) throws {
        guard rc == 0 else { throw ImageError.corrupt(path: url.path, detail: Vips.lastError(fallback: "could not save")) }
    }
}
