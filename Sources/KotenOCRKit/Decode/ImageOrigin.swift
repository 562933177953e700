import CVipsShim
import Foundation

/// Where an `ImageSource`'s pixels come from, and how libvips opens them: a file, encoded bytes in memory
/// (copied once, pinned), or 8-bit pixels in memory (packed once, pinned). Every image opened from memory
/// keeps its bytes alive (`VipsHandle.owner`).
enum ImageOrigin: Sendable {
    case file(FileSystemPath)
    case encoded(PinnedBytes)
    case pixels(PinnedBytes, width: Int, height: Int, bands: Int)

    /// The libvips loader type name ("VipsForeignLoadPngFile", "VipsForeignLoadJpegBuffer"), after checking that
    /// a file is a regular file that can be read and is not empty (it is opened without blocking, and only a
    /// regular file is handed to libvips: never a FIFO or a device). Throws `ImageError.notFound`, `.unreadable`
    /// (device, FIFO, socket, link loop, dangling link, permission), `.empty`, `.unsupportedFormat` naming `name`.
    func loader(name: String) throws -> String {
        if case .file(let path) = self {
            let opened: (descriptor: Int32, size: Int64)
            do {
                opened = try FileKind.openRegular(path)
            } catch {
                throw error.missing ? ImageError.notFound(path: name) : ImageError.unreadable(path: name, reason: error.reason)
            }
            close(opened.descriptor)
            if opened.size == 0 { throw ImageError.empty(path: name) }
        }
        guard case .pixels = self else {
            guard let loader = withInput({ kv_loader($0) }) else {
                _ = Vips.lastError(fallback: "")
                throw ImageError.unsupportedFormat(path: name)
            }
            return String(cString: loader)
        }
        return "pixels"
    }

    /// The width and height a BMP header declares, nil for any other input.
    func bmpSize() -> (width: Int64, height: Int64)? {
        var width: Int64 = 0, height: Int64 = 0
        guard withInput({ kv_bmp_size($0, &width, &height) }) == 0 else { return nil }
        return (width, height)
    }

    /// Opens page `page` lazily for top-to-bottom reading (`kv_open`); `strict`: any decoder warning fails;
    /// `randomAccess`: rows may be read in any order (libvips then holds the decoded page, in memory or in a
    /// temporary file: only for a page that must be flipped top to bottom as a whole).
    /// Throws `ImageError` naming `name`, classified from libvips' message.
    func open(name: String, page: Int, shrink: Int, dpi: Double, strict: Bool, randomAccess: Bool = false) throws -> VipsHandle {
        var out: OpaquePointer?
        let status: Int32
        Vips.forgetWarning()
        switch self {
        case .pixels(let bytes, let width, let height, let bands):
            status = kv_open_pixels(bytes.base, bytes.count, Int32(width), Int32(height), Int32(bands), &out)
        case .file, .encoded:
            status = withInput { kv_open($0, Int32(page), Int32(shrink), dpi, randomAccess ? 1 : 0, strict ? 1 : 0, &out) }
        }
        guard status == 0, let out else {
            throw ImageSource.classify(path: name, message: Vips.lastError(fallback: "libvips could not open the image"))
        }
        return VipsHandle(out, owner: owner)
    }

    /// Page `page` scaled down to fit `width` × `height` through libvips' thumbnail operation (`kv_thumbnail`:
    /// shrink-on-load where the format has it, else decoded in strips; EXIF orientation applied). Pixels in memory
    /// are refused (nothing to shrink on load). Throws `ImageError` naming `name`.
    func thumbnail(name: String, page: Int, width: Int, height: Int) throws -> VipsHandle {
        var out: OpaquePointer?
        Vips.forgetWarning()
        let status: Int32
        switch self {
        case .pixels: status = -1
        case .file, .encoded: status = withInput { kv_thumbnail($0, Int32(page), Int32(width), Int32(height), &out) }
        }
        guard status == 0, let out else {
            throw ImageSource.classify(path: name, message: Vips.lastError(fallback: "libvips could not make a thumbnail of the image"))
        }
        return VipsHandle(out, owner: owner)
    }

    /// Opens every page of a PDF at once, header only (`kv_open_pdf_pages`): poppler looks up each page and its size,
    /// the whole page tree; nothing is rendered. Throws `ImageError` naming `name`.
    func openPDFPages(name: String) throws -> VipsHandle {
        var out: OpaquePointer?
        Vips.forgetWarning()
        let status = withInput { kv_open_pdf_pages($0, &out) }
        guard status == 0, let out else {
            throw ImageSource.classify(path: name, message: Vips.lastError(fallback: "libvips could not open the PDF"))
        }
        return VipsHandle(out, owner: owner)
    }

    /// A TIFF's pages as libtiff reads its tags (`kv_tiff_pages`): how many full-resolution pages it has (a
    /// pyramid's reduced-resolution levels, NewSubfileType bit 0, and masks are not pages; SubIFDs are never in
    /// the chain libvips counts), and the directory of page `page` in the chain (nil past the end). Nil when
    /// libtiff cannot read it or finds no page: libvips' own count then stands.
    func tiffPages(page: Int) -> (count: Int, directory: Int?)? {
        var directory: Int32 = -1
        let count = withInput { kv_tiff_pages($0, Int32(clamping: page), &directory) }
        guard count > 0 else { return nil }
        return (Int(count), directory >= 0 ? Int(directory) : nil)
    }

    /// The memory an image opened from this origin reads from, if any.
    private var owner: PinnedBytes? {
        switch self {
        case .file: return nil
        case .encoded(let bytes), .pixels(let bytes, _, _, _): return bytes
        }
    }

    /// `body` with this file or these encoded bytes as libvips' `kv_input` (pixels: no input).
    private func withInput<R>(_ body: (kv_input) -> R) -> R {
        switch self {
        case .file(let path):
            return path.withCString { body(kv_input(path: $0, data: nil, size: 0)) }
        case .encoded(let bytes):
            return body(kv_input(path: nil, data: bytes.base, size: bytes.count))
        case .pixels:
            return body(kv_input(path: nil, data: nil, size: 0))
        }
    }
}
