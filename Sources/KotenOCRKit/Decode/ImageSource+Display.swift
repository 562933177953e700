import CVipsShim
import Foundation

/// The page as people see it, for the formats that show the image (searchable PDF, viz, html): the source's own
/// bytes where they can be passed through, or the upright page encoded again through libvips.
extension ImageSource {
    /// How the page is encoded again.
    package enum DisplayEncoding: Sendable, Equatable {
        /// PNG, compression 6, every row filter tried (lossless).
        case png
        /// Baseline JPEG of this quality (1–100).
        case jpeg(quality: Int)
    }

    /// Whether the source is a JPEG (libvips' `jpegload`).
    package var isJPEG: Bool { loader == "jpegload" }

    /// Whether `file` is a JPEG, from its first bytes (false for anything unreadable).
    package static func isJPEG(at file: FileSystemPath) -> Bool {
        Vips.start()
        return (try? ImageOrigin.file(file).loader(name: file.display))?.hasPrefix("VipsForeignLoadJpeg") ?? false
    }

    /// The bytes of the file or of the encoded image in memory, as they are; nil for pixels in memory.
    /// Throws `ImageError.notFound` when the file has gone since it was opened.
    package func sourceBytes() throws -> Data? {
        switch origin {
        case .file(let path):
            do {
                let opened = try FileKind.openRegular(path)
                return try FileHandle(fileDescriptor: opened.descriptor, closeOnDealloc: true).readToEnd() ?? Data()
            } catch {
                throw ImageError.notFound(path: name)
            }
        case .encoded(let bytes):
            return Data(bytes: bytes.base, count: bytes.count)
        case .pixels:
            return nil
        }
    }

    /// Dots per inch of the upright page (x, y): what the file declares (a PDF page: the DPI it was rendered at),
    /// or nil when it declares nothing plausible (under 50 or over 4800; libvips reports 25.4 for none).
    package func declaredDPI() throws -> (x: Double, y: Double)? {
        let handle = try origin.open(name: name, page: page, shrink: 1, dpi: pdfDPI, strict: false)
        var xres = 0.0, yres = 0.0
        kv_resolution(handle.pointer, &xres, &yres)
        var dpi = (x: xres * 25.4, y: yres * 25.4)
        if orientation >= 5 { dpi = (dpi.y, dpi.x) }
        guard (50...4800).contains(dpi.x), (50...4800).contains(dpi.y) else { return nil }
        return dpi
    }

    /// The upright page as people see it (`kv_to_display8`: EXIF orientation applied, alpha flattened onto
    /// white, 8-bit; one band for a grey source, three otherwise), scaled down so that its longer side is at most
    /// `maxSide` (JPEGs shrunk while decoding). Throws `ImageError` naming the file.
    package func displayImage(maxSide: Int? = nil) throws -> VipsHandle {
        let scale = maxSide.map { min(1, Double($0) / Double(max(width, height))) } ?? 1
        let target = (Int((Double(width) * scale).rounded()), Int((Double(height) * scale).rounded()))
        let shrink = scale < 1 ? Self.shrinkFactor(from: (width, height), to: target, loader: loader) : 1
        let raw = try origin.open(name: name, page: page, shrink: shrink, dpi: pdfDPI, strict: !acceptsDamagedData)
        let upright = try raw.apply(displayError) { kv_to_display8($0, $1) }
        guard upright.width != target.0 || upright.height != target.1, scale < 1 else { return upright }
        return try upright.apply(displayError) { image, out in
            kv_resize(image, Double(target.0) / Double(upright.width), Double(target.1) / Double(upright.height),
                      ResizeKernel.lanczos3.rawValue, out)
        }
    }

    /// `displayImage(maxSide:)` encoded as `encoding`.
    package func encodedDisplay(_ encoding: DisplayEncoding, maxSide: Int? = nil) throws -> Data {
        try displayImage(maxSide: maxSide).encoded(encoding, displayError)
    }

    private func displayError(_ message: String) -> Error { Self.classify(path: name, message: message) }
}

extension VipsHandle {
    /// The image encoded as `encoding` (decoded in strips while it is encoded). `describe` turns libvips' error
    /// text into an `Error`.
    package func encoded(_ encoding: ImageSource.DisplayEncoding, _ describe: (String) -> Error) throws -> Data {
        var buffer: UnsafeMutableRawPointer?
        var size = 0
        let status: Int32
        switch encoding {
        case .png: status = kv_save_png_buffer(pointer, 6, &buffer, &size)
        case .jpeg(let quality): status = kv_save_jpeg_buffer(pointer, Int32(min(100, max(1, quality))), &buffer, &size)
        }
        guard status == 0, let buffer else { throw describe(Vips.lastError(fallback: "libvips could not encode the page")) }
        defer { kv_free(buffer) }
        return Data(bytes: buffer, count: size)
    }
}

extension ImageSource {
    /// Whether the page comes from a file (not from bytes or pixels in memory).
    package var isFile: Bool {
        if case .file = origin { return true }
        return false
    }
}
