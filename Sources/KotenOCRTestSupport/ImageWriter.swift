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
