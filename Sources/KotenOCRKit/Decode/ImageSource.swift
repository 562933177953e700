import CVipsShim
import Foundation

/// A page image, opened through libvips: its header is read, no pixels are decoded. From a file
/// (`init(url:)`), from encoded bytes in memory (`init(data:)`: a JPEG, PNG, ... an app received or read from
/// standard input) or from pixels in memory (`init(pixels:width:height:bytesPerRow:format:)`: a camera frame).
///
/// Formats: whatever Debian's libvips 8.14 reads — JPEG, PNG (8/16-bit, grey, alpha, palette), TIFF
/// (multi-page, 1-bit), WebP, GIF, HEIC, JPEG 2000, BMP (via the magick loader), PDF (rendered at `pdfDPI`).
/// Pages are TIFF pages (its full-resolution directories: a tiled pyramid's reduced-resolution levels, marked in
/// NewSubfileType or held in SubIFDs, are no pages, issue 25), PDF pages and HEIF images; an animated GIF or WebP is one page, its first frame (its
/// frames are moments of one picture, not pages: a 3000-frame GIF is not 3000 pages, issue 17).
/// The pixel limit is checked on the header before any pixel buffer exists, for every format (BMP's header
/// is read by `kv_bmp_size`, as ImageMagick would decode the image to learn its size).
/// Sizes are upright: the EXIF orientation (1–8) is applied (a deliberate deviation from NDL's reference, which
/// ignores it; docs/reference-pipelines.md §3.8); the vertical flip of orientations 3 and 4 is done in place on
/// the decoded rows, since a top-to-bottom decode cannot read the last row first. An alpha channel that is not
/// opaque everywhere is composited onto `alphaBackground` (another deviation: the reference drops alpha), so
/// text carried by the alpha channel stays visible. Decoding is always top-to-bottom in strips, truncation is an
/// error (`ImageError.truncated`), other damage too unless `acceptsDamagedData` (per image: nothing
/// process-wide), and `decode(fitting:)` decodes JPEGs at reduced size (shrink-on-load)
/// so a 12 MP photo never exists at full size when only a detector input is wanted.
public struct ImageSource: Sendable {
    /// Default pixel limit: larger images are refused before decoding (`ImageError.tooLarge`).
    public static let defaultMaxPixels = 200_000_000
    /// The name of an image in memory when none is given.
    public static let memoryName = "image in memory"

    /// The file; for an image in memory, `name` as a file URL (nothing is read from it).
    public let url: URL
    /// How results and errors name the page: the file's path, or the name given to an image in memory.
    public let name: String
    /// 0-based page of a multi-page file.
    public let page: Int
    /// Number of pages in the file (1 for single-page formats).
    public let pageCount: Int
    /// Upright size in pixels (after EXIF orientation and `turn`).
    public private(set) var width: Int
    public private(set) var height: Int
    /// How the page (EXIF orientation applied) is turned from upright; every decode turns it back
    /// (`turnedUpright(from:)`). `.upright` unless set.
    public private(set) var turn: PageRotation = .upright
    /// EXIF orientation tag 1–8 of the file (1 when absent).
    public let orientation: Int
    /// The libvips loader, e.g. "jpegload" ("pixels" for pixels in memory).
    public let loader: String
    /// Render resolution for PDF pages (dots per inch).
    public let pdfDPI: Double
    /// The grey level (0 black, 255 white) an alpha channel is composited onto: the one farther from the ink,
    /// i.e. from the alpha-weighted mean colour (white under dark ink, black under light ink). Nil when the page
    /// has no alpha channel, is opaque everywhere, or transparent everywhere (then alpha is dropped, as NDL's
    /// reference does, and the colour channels are read as they are).
    public let alphaBackground: UInt8?
    /// Read the image even when its decoder reports damaged data (only truncation fails).
    public let acceptsDamagedData: Bool
    let origin: ImageOrigin
    /// What libvips' loader takes as the page: `page`, except in a TIFF whose chain also holds a pyramid's reduced
    /// levels (`ImageOrigin.pages`), where it is the page's directory in the chain.
    let directory: Int

    var path: String { name }

    /// Opens `url` (header only). Throws `ImageError` naming the file: not found, empty, not an image,
    /// too many pixels, no such page.
    public init(url: URL, page: Int = 0, pdfDPI: Double = 300, maxPixels: Int = ImageSource.defaultMaxPixels,
                acceptsDamagedData: Bool = false) throws {
        try self.init(encoded: .file(FileSystemPath(url.path)), url: url, name: url.path, page: page, pdfDPI: pdfDPI,
                      maxPixels: maxPixels, acceptsDamagedData: acceptsDamagedData)
    }

    /// Opens the file at `file`, a path as the file system holds it (a name that is not UTF-8 is opened by its
    /// bytes), named `name` in results and errors (`file.display` when nil: a file fetched for a IIIF canvas is
    /// named by the image's URL, an upload by the name its client gave). As `init(url:)` otherwise.
    package init(file: FileSystemPath, name: String? = nil, page: Int = 0, pdfDPI: Double = 300,
                 maxPixels: Int = ImageSource.defaultMaxPixels, acceptsDamagedData: Bool = false) throws {
        try self.init(encoded: .file(file), url: URL(fileURLWithPath: file.display), name: name ?? file.display, page: page,
                      pdfDPI: pdfDPI, maxPixels: maxPixels, acceptsDamagedData: acceptsDamagedData)
    }

    /// Opens an encoded image held in memory — the bytes of a JPEG, PNG, TIFF, PDF, ... file (header only).
    /// The bytes are copied once (an encoded page, not its pixels), so `data` may go away. `name` is how results
    /// and errors name it. Throws `ImageError` naming it: empty, not an image, too many pixels, no such page.
    public init(data: Data, name: String = ImageSource.memoryName, page: Int = 0, pdfDPI: Double = 300,
                maxPixels: Int = ImageSource.defaultMaxPixels, acceptsDamagedData: Bool = false) throws {
        if data.isEmpty { throw ImageError.empty(path: name) }
        let bytes = data.withUnsafeBytes { PinnedBytes(copying: $0) }
        try self.init(encoded: .encoded(bytes), url: URL(fileURLWithPath: name), name: name, page: page, pdfDPI: pdfDPI,
                      maxPixels: maxPixels, acceptsDamagedData: acceptsDamagedData)
    }

    /// Wraps 8-bit pixels in memory: `height` rows of `width` pixels of `format`, each row starting
    /// `bytesPerRow` bytes after the one above (≥ width × `format.bytesPerPixel`; padding is skipped). The
    /// pixels are copied once, packed (width × height × bytes per pixel; BGRA turned into RGBA), so `pixels`
    /// may go away; grey is replicated and alpha handled as for image files when decoded. No EXIF: the
    /// pixels are upright. Throws `ImageError.invalidPixels` (sizes that do not fit the buffer),
    /// `.tooLarge` (over `maxPixels`).
    public init(pixels: some ContiguousBytes, width: Int, height: Int, bytesPerRow: Int, format: PixelFormat,
                name: String = ImageSource.memoryName, maxPixels: Int = ImageSource.defaultMaxPixels) throws {
        guard width > 0, height > 0 else {
            throw ImageError.invalidPixels(path: name, reason: "\(width)×\(height) pixels: no image")
        }
        let rowBytes = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        guard !rowBytes.overflow, bytesPerRow >= rowBytes.partialValue else {
            throw ImageError.invalidPixels(path: name, reason: "\(bytesPerRow) bytes per row, fewer than \(width) pixels of "
                                           + "\(format.bytesPerPixel) bytes")
        }
        let area = width.multipliedReportingOverflow(by: height)
        if area.overflow || area.partialValue > maxPixels {
            throw ImageError.tooLarge(path: name, width: width, height: height, limit: maxPixels)
        }
        let needed = (height - 1) * bytesPerRow + rowBytes.partialValue
        let packed = try pixels.withUnsafeBytes { buffer throws(ImageError) -> PinnedBytes in
            guard buffer.count >= needed else {
                throw ImageError.invalidPixels(path: name, reason: "\(buffer.count) bytes, fewer than \(height) rows of "
                                               + "\(bytesPerRow) bytes need (\(needed))")
            }
            return format.packed(buffer, width: width, height: height, bytesPerRow: bytesPerRow)
        }
        Vips.start()
        url = URL(fileURLWithPath: name)
        self.name = name
        page = 0
        directory = 0
        pageCount = 1
        self.width = width
        self.height = height
        orientation = 1
        loader = "pixels"
        pdfDPI = 300
        acceptsDamagedData = false
        let origin = ImageOrigin.pixels(packed, width: width, height: height, bands: format == .grey8 ? 1 : format.bytesPerPixel)
        self.origin = origin
        alphaBackground = format.bytesPerPixel == 4
            ? try Self.alphaBackground(origin.open(name: name, page: 0, shrink: 1, dpi: 300, strict: true), path: name)
            : nil
    }

    /// Opens a file or encoded bytes (header only) and checks the page and the pixel limit.
    private init(encoded origin: ImageOrigin, url: URL, name: String, page: Int, pdfDPI: Double, maxPixels: Int,
                 acceptsDamagedData: Bool) throws {
        Vips.start()
        self.url = url
        self.name = name
        self.page = page
        self.pdfDPI = pdfDPI
        self.acceptsDamagedData = acceptsDamagedData
        self.origin = origin
        let loaderName = try origin.loader(name: name)
        loader = Self.shortLoaderName(loaderName)
        // ImageMagick (libvips' BMP reader) decodes the whole image while reading the header: check the size first.
        if loader.hasPrefix("magick"), let declared = origin.bmpSize(),
           declared.width.multipliedReportingOverflow(by: declared.height).partialValue > Int64(maxPixels) {
            throw ImageError.tooLarge(path: name, width: Int(declared.width), height: Int(declared.height), limit: maxPixels)
        }
        let paged = kv_loader_is_paged(loaderName) != 0
        // A TIFF's pages are its full-resolution directories (a pyramid's reduced levels are not pages).
        let tiff = loader == "tiffload" ? origin.tiffPages(page: page) : nil
        if let tiff, tiff.directory == nil { throw ImageError.noSuchPage(path: name, page: page, pageCount: tiff.count) }
        directory = tiff?.directory ?? page
        let handle: VipsHandle
        do {
            handle = try origin.open(name: name, page: directory, shrink: 1, dpi: pdfDPI, strict: !acceptsDamagedData)
        } catch where paged && page > 0 {
            // A loader may refuse a page past the end outright: say so when the first page tells the count.
            let first = try origin.open(name: name, page: 0, shrink: 1, dpi: pdfDPI, strict: !acceptsDamagedData)
            let count = Int(kv_n_pages(first.pointer))
            if page >= count { throw ImageError.noSuchPage(path: name, page: page, pageCount: count) }
            throw error
        }
        pageCount = tiff?.count ?? (paged ? Int(kv_n_pages(handle.pointer)) : 1)
        if page >= pageCount { throw ImageError.noSuchPage(path: name, page: page, pageCount: pageCount) }
        orientation = Int(kv_orientation(handle.pointer))
        let swap = orientation >= 5
        width = swap ? handle.height : handle.width
        height = swap ? handle.width : handle.height
        if width * height > maxPixels {
            throw ImageError.tooLarge(path: name, width: width, height: height, limit: maxPixels)
        }
        // PDF pages are rendered onto white: their alpha channel carries nothing.
        alphaBackground = loader == "pdfload" ? nil : try Self.alphaBackground(handle, path: name)
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
    /// not found, empty, not an image, corrupt (unless `acceptsDamagedData`).
    public static func pageCount(of url: URL, acceptsDamagedData: Bool = false) throws -> Int {
        try pageCount(of: FileSystemPath(url.path), acceptsDamagedData: acceptsDamagedData)
    }

    /// `pageCount(of:acceptsDamagedData:)` of a path as the file system holds it, named `file.display` in errors.
    package static func pageCount(of file: FileSystemPath, acceptsDamagedData: Bool = false) throws -> Int {
        Vips.start()
        let origin = ImageOrigin.file(file)
        let loaderName = try origin.loader(name: file.display)
        guard kv_loader_is_paged(loaderName) != 0 else { return 1 }
        let handle = try origin.open(name: file.display, page: 0, shrink: 1, dpi: 72, strict: !acceptsDamagedData)
        if ImageSource.shortLoaderName(loaderName) == "tiffload", let tiff = origin.tiffPages(page: 0) { return tiff.count }
        return Int(kv_n_pages(handle.pointer))
    }

    /// Decodes the whole page at full resolution, upright, as 8-bit RGB (grey replicated, alpha composited onto
    /// `alphaBackground` or, when that is nil, dropped as the reference's Pillow `convert('RGB')` does, 16-bit
    /// scaled down).
    /// Throws `ImageError.truncated` / `.corrupt` naming the file.
    public func decode() throws -> RGBImage {
        guard turn == .upright else { return turn.upright(try unturned.decode()) }
        return try decode(shrink: 1)
    }

    /// Decodes the page for a target of `width`×`height` (upright): JPEGs are decoded with the largest
    /// shrink-on-load factor (1, 2, 4, 8) that keeps both sides at least the target; other formats at full
    /// size. Then resized to exactly `width`×`height` by libvips (`kernel`). No padded buffer exists.
    public func decode(fitting width: Int, _ height: Int, kernel: ResizeKernel = .linear) throws -> RGBImage {
        try decode(fitting: width, height, rows: 0..<height, kernel: kernel)
    }

    /// Rows `rows` (upright, clamped to 0..<`height`) of the page resized to `width`×`height` as
    /// `decode(fitting:_:kernel:)` makes it: a band of the detector's input, the rest of the page never held.
    /// Each call decodes the file again from its first row (a top-to-bottom decoder cannot seek). A page read
    /// turned (`turn`) decodes the band's place in the page as given (rows, or columns for a quarter turn) and
    /// turns only that.
    public func decode(fitting width: Int, _ height: Int, rows: Range<Int>, kernel: ResizeKernel = .linear) throws -> RGBImage {
        let rows = rows.clamped(to: 0..<height)
        guard turn == .upright else {
            let given = turn.uprightSize(width: width, height: height)  // the same swap takes it back
            let flipped = (height - rows.upperBound)..<(height - rows.lowerBound)
            let (columns, givenRows): (Range<Int>, Range<Int>)
            switch turn {
            case .upright, .halfTurn: (columns, givenRows) = (0..<given.width, turn == .upright ? rows : flipped)
            case .clockwise90: (columns, givenRows) = (flipped, 0..<given.height)
            case .clockwise270: (columns, givenRows) = (rows, 0..<given.height)
            }
            return turn.upright(try unturned.decode(fitting: given.width, given.height, columns: columns, rows: givenRows,
                                                    kernel: kernel))
        }
        return try decode(fitting: width, height, columns: 0..<width, rows: rows, kernel: kernel)
    }

    /// Columns `columns` × rows `rows` (clamped) of the page, as not turned, resized to `width`×`height`.
    private func decode(fitting width: Int, _ height: Int, columns: Range<Int>, rows: Range<Int>,
                        kernel: ResizeKernel) throws -> RGBImage {
        let columns = columns.clamped(to: 0..<width), rows = rows.clamped(to: 0..<height)
        let shrink = Self.shrinkFactor(from: (self.width, self.height), to: (width, height), loader: loader)
        let handle = try uprightHandle(shrink: shrink)
        let resized = try handle.apply(describe) { img, out in
            kv_resize(img, Double(width) / Double(handle.width), Double(height) / Double(handle.height), kernel.rawValue, out)
        }
        // libvips rounds sizes: take the region asked for of at most width × height, pad what is missing with black.
        // Orientations 3 and 4 are still upside down here: their upright rows are counted from the bottom.
        let reversed = kv_needs_row_reversal(Int32(orientation)) != 0
        let top = reversed ? height - rows.upperBound : rows.lowerBound
        let w = max(0, min(columns.count, resized.width - columns.lowerBound)), h = max(0, min(rows.count, resized.height - top))
        guard w > 0, h > 0 else { return RGBImage(width: columns.count, height: rows.count) }
        let exact = (w == resized.width && h == resized.height) ? resized : try resized.apply(describe) { img, out in
            kv_crop(img, Int32(columns.lowerBound), Int32(top), Int32(w), Int32(h), out)
        }
        var pixels = try exact.readPixels(describe)
        reverseRowsIfNeeded(&pixels, width: exact.width, height: exact.height)
        let image = RGBImage(uncheckedWidth: exact.width, height: exact.height, pixels: pixels)
        if image.width == columns.count && image.height == rows.count { return image }
        var padded = RGBImage(width: columns.count, height: rows.count)
        padded.paste(image, x: 0, y: 0)
        return padded
    }

    /// Decodes at reduced size with the largest shrink-on-load factor that keeps both sides at least
    /// `minWidth`×`minHeight` (JPEG only; full size otherwise). Used where exact resampling follows.
    public func decode(atLeast minWidth: Int, _ minHeight: Int) throws -> RGBImage {
        guard turn == .upright else {
            let size = turn.uprightSize(width: minWidth, height: minHeight)
            return turn.upright(try unturned.decode(atLeast: size.width, size.height))
        }
        return try decode(shrink: Self.shrinkFactor(from: (width, height), to: (minWidth, minHeight), loader: loader))
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
        let raw = try origin.open(name: name, page: directory, shrink: shrink, dpi: pdfDPI, strict: !acceptsDamagedData)
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

    /// The error of a failed decode of this image. A decode that failed without a message (libvips' error buffer
    /// is process-wide: another thread may have taken it) of a JPEG file that stops before its end marker is
    /// truncated all the same. (A PNG cut short fails when it is opened, with its own message.)
    func describe(_ message: String) -> Error {
        let error = Self.classify(path: path, message: message)
        if message == Vips.noDecodeMessage, case .corrupt = error, isFile, Self.endsBeforeEndMarker(url.path) {
            return ImageError.truncated(path: path, detail: "the file ends before its end marker")
        }
        return error
    }

    /// Whether the JPEG file at `path` ends before its end marker (EOI, `FF D9`); false for any other file, or one
    /// that cannot be read.
    static func endsBeforeEndMarker(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 2), head.elementsEqual([0xFF, 0xD8]),
              let size = try? handle.seekToEnd(), size >= 4 else { return false }
        try? handle.seek(toOffset: size - 2)
        guard let tail = try? handle.read(upToCount: 2) else { return false }
        return !tail.elementsEqual([0xFF, 0xD9])
    }

    static func classify(path: String, message: String) -> ImageError {
        let lower = message.lowercased()
        if lower.contains("corrupt") || lower.contains("crc error") || lower.contains("bad crc") || lower.contains("checksum") {
            return .corrupt(path: path, detail: message)
        }
        if lower.contains("truncat") || lower.contains("premature end") || lower.contains("unexpected end")
            || lower.contains("short read") || lower.contains("not enough data") || lower.contains("not enough image data") {
            return .truncated(path: path, detail: message)
        }
        // "libpng read error" alone says only that libpng stopped; its warning, when there is one, said why.
        if lower.contains("read error"), !lower.contains(";") { return .truncated(path: path, detail: message) }
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

extension ImageSource {
    /// This page read turned back from `rotation` (how the page, EXIF orientation applied, is turned from
    /// upright): every decode gives the upright page (turned in memory after decoding, one extra copy of the
    /// decoded image while it turns) and `width`/`height` are its size. Used when a rotation is given
    /// (`OCRConfiguration.pageRotation`) in the modes whose detectors need an upright page.
    public func turnedUpright(from rotation: PageRotation) -> ImageSource {
        var turned = unturned
        turned.turn = rotation
        (turned.width, turned.height) = rotation.uprightSize(width: turned.width, height: turned.height)
        return turned
    }

    /// The page as given (EXIF orientation applied), not turned.
    fileprivate var unturned: ImageSource {
        var page = self
        (page.width, page.height) = turn.uprightSize(width: width, height: height)
        page.turn = .upright
        return page
    }
}
