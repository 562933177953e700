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

    /// Whether the source's own bytes show the page upright once their EXIF orientation is applied (the page is
    /// not read turned back, `turn`), so that a format may pass them through.
    package var bytesShowUpright: Bool { turn == .upright }

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
        let handle = try origin.open(name: name, page: directory, shrink: 1, dpi: pdfDPI, strict: false)
        var xres = 0.0, yres = 0.0
        kv_resolution(handle.pointer, &xres, &yres)
        var dpi = (x: xres * 25.4, y: yres * 25.4)
        if (orientation >= 5) != turn.swapsSides { dpi = (dpi.y, dpi.x) }
        guard (50...4800).contains(dpi.x), (50...4800).contains(dpi.y) else { return nil }
        return dpi
    }

    /// The upright page as people see it (`kv_to_display8`: EXIF orientation applied, alpha flattened onto
    /// white, 8-bit; one band for a grey source, three otherwise; then turned back from `turn`), scaled down so
    /// that its longer side is at most `maxSide` (JPEGs shrunk while decoding). A page whose rows are wanted out of
    /// order (`needsRandomAccess`: orientations 3–8, a page turned back) is opened for random access. Throws
    /// `ImageError` naming the file. `randomAccess`: open it for random access anyway (its rows to be turned).
    package func displayImage(maxSide: Int? = nil, randomAccess: Bool = false) throws -> VipsHandle {
        let scale = maxSide.map { min(1, Double($0) / Double(max(width, height))) } ?? 1
        let target = (Int((Double(width) * scale).rounded()), Int((Double(height) * scale).rounded()))
        let shrink = scale < 1 ? Self.shrinkFactor(from: (width, height), to: target, loader: loader) : 1
        let raw = try origin.open(name: name, page: directory, shrink: shrink, dpi: pdfDPI, strict: !acceptsDamagedData,
                                  randomAccess: needsRandomAccess || randomAccess)
        let display = try raw.apply(displayError) { kv_to_display8($0, $1) }
        let turns = 4 - turn.quarterTurns  // turned back: clockwise by what the page was turned counter-clockwise
        let upright = turn == .upright ? display : try display.apply(displayError) { kv_rotate_quarters($0, Int32(turns), $1) }
        guard upright.width != target.0 || upright.height != target.1, scale < 1 else { return upright }
        return try upright.apply(displayError) { image, out in
            kv_resize(image, Double(target.0) / Double(upright.width), Double(target.1) / Double(upright.height),
                      ResizeKernel.lanczos3.rawValue, out)
        }
    }

    /// Whether the page as people see it asks for the decoded rows out of order: any EXIF orientation that turns
    /// or flips the rows (3–8: a quarter turn reads each output row from every input row, a vertical flip reads the
    /// last row first), or a page turned back. A top-to-bottom decoder refuses that ("out of order read", issue 25),
    /// so such a page is opened for random access: libvips then holds it decoded once (at the shrunk size), as the
    /// page the engine decoded to read it; no second decode.
    package var needsRandomAccess: Bool { turn != .upright || orientation >= 3 }

    /// `displayImage(maxSide:)` encoded as `encoding`.
    package func encodedDisplay(_ encoding: DisplayEncoding, maxSide: Int? = nil) throws -> Data {
        try displayImage(maxSide: maxSide).encoded(encoding, displayError)
    }

    /// A thumbnail of the upright page as people see it: its longer side `maxSide` pixels (never enlarged), as a
    /// baseline JPEG of `quality`. Made by libvips' thumbnail operation, so the page is never held whole at full
    /// size: a JPEG is shrunk while it is decoded (DCT scaling), a PDF page rendered at the small size, other formats
    /// decoded top to bottom in strips and reduced as they come; only the small image is then turned back from
    /// `turn` (in memory). Pixels in memory are scaled as `displayImage(maxSide:)` does. Throws `ImageError` naming
    /// the file.
    package func encodedThumbnail(maxSide: Int, quality: Int = 80) throws -> Data {
        if case .pixels = origin { return try encodedDisplay(.jpeg(quality: quality), maxSide: maxSide) }
        let side = max(1, maxSide)
        let small = try origin.thumbnail(name: name, page: directory, width: side, height: side)
        var image = try small.apply(displayError) { kv_to_display8($0, $1) }
        if turn != .upright {
            image = try image.apply(displayError) { kv_memory_copy($0, $1) }   // a few hundred pixels a side
            image = try image.apply(displayError) { kv_rotate_quarters($0, Int32(4 - turn.quarterTurns), $1) }
        }
        return try image.encoded(.jpeg(quality: quality), displayError)
    }

    /// The page as people see it (`displayImage()`) cut to `region` (pixels of the upright page, clamped to it;
    /// nil: the whole page) and then turned clockwise by `clockwiseQuarterTurns` × 90°, encoded as PNG (lossless):
    /// a part or a turn of a IIIF image that its server cannot give (docs/iiif.md, "Parts and turns of an image").
    /// Memory: the page decoded in strips while the PNG is written (once whole when it is turned: a turn reads
    /// every row for each one it writes, so the file is opened for random access), and the PNG. Throws `ImageError`
    /// naming the file, `.invalidPixels` when `region` holds no pixel of the page.
    package func encodedPart(_ region: PixelBox?, clockwiseQuarterTurns: Int) throws -> Data {
        let turns = ((clockwiseQuarterTurns % 4) + 4) % 4
        var image = try displayImage(randomAccess: turns != 0)
        if let region {
            let box = LineCrop.clamped(region, imageWidth: width, imageHeight: height)
            guard box.width > 0, box.height > 0 else {
                throw ImageError.invalidPixels(path: name, reason: "the part asked for (\(region.x1),\(region.y1) to \(region.x2),\(region.y2)) "
                                               + "lies outside the \(width)×\(height) image")
            }
            if box.width != width || box.height != height {
                image = try image.apply(displayError) { kv_crop($0, Int32(box.x1), Int32(box.y1), Int32(box.width), Int32(box.height), $1) }
            }
        }
        if turns != 0 { image = try image.apply(displayError) { kv_rotate_quarters($0, Int32(turns), $1) } }
        return try image.encoded(.png, displayError)
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
