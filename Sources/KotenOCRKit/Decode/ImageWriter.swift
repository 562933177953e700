import CVipsShim
import Foundation

/// Writes an `RGBImage` through libvips (format by suffix: .jpg, .png, .tif, .webp). Used by benchmarks and
/// tests to make inputs (e.g. a 12 MP JPEG with EXIF orientation 6).
public enum ImageWriter {
    /// Saves `image` to `url`. `exifOrientation` 2–8 writes that tag (JPEG). Throws `ImageError.corrupt`
    /// with libvips' message.
    public static func save(_ image: RGBImage, to url: URL, quality: Int = 90, exifOrientation: Int = 1) throws {
        Vips.start()
        var out: OpaquePointer?
        let made = image.pixels.withUnsafeBufferPointer { buf in
            kv_from_pixels(buf.baseAddress, Int32(image.width), Int32(image.height), 3, &out)
        }
        guard made == 0, let out else {
            throw ImageError.corrupt(path: url.path, detail: Vips.lastError(fallback: "could not wrap pixels"))
        }
        let handle = VipsHandle(out)
        guard kv_save(handle.pointer, url.path, Int32(quality), Int32(exifOrientation)) == 0 else {
            throw ImageError.corrupt(path: url.path, detail: Vips.lastError(fallback: "could not save"))
        }
    }
}
