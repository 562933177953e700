/// Why a page image could not be read. Every case names the file; `description` is one line.
public enum ImageError: Error, Equatable, CustomStringConvertible {
    /// No file at the path.
    case notFound(path: String)
    /// The file has zero bytes.
    case empty(path: String)
    /// libvips recognises no image format in the file (e.g. random bytes named `.png`).
    case unsupportedFormat(path: String)
    /// The file ends before its image data does (e.g. a cut-off JPEG). libvips' default would grey-fill it.
    case truncated(path: String, detail: String)
    /// The file is damaged or its decoder failed.
    case corrupt(path: String, detail: String)
    /// The image declares more pixels than the limit (a decompression bomb, or a scan too large to process).
    case tooLarge(path: String, width: Int, height: Int, limit: Int)
    /// A page index past the end of a multi-page file.
    case noSuchPage(path: String, page: Int, pageCount: Int)
    /// The path is not a file that can be read: a device, a FIFO, a socket, a symbolic link loop, a dangling link,
    /// a permission refused (`reason`, one line). Nothing was opened that could block.
    case unreadable(path: String, reason: String)
    /// Pixels in memory whose sizes do not fit their buffer (`ImageSource(pixels:width:height:bytesPerRow:format:)`).
    case invalidPixels(path: String, reason: String)

    public var path: String {
        switch self {
        case .notFound(let p), .empty(let p), .unsupportedFormat(let p), .truncated(let p, _), .corrupt(let p, _),
             .tooLarge(let p, _, _, _), .noSuchPage(let p, _, _), .invalidPixels(let p, _),
             .unreadable(let p, _):
            return p
        }
    }

    public var description: String {
        switch self {
        case .notFound(let p): return "\(p): no such file"
        case .empty(let p): return "\(p): empty file"
        case .unsupportedFormat(let p): return "\(p): not an image format this tool reads"
        case .truncated(let p, let d): return "\(p): truncated image data (\(d))"
        case .corrupt(let p, let d): return "\(p): damaged image data (\(d))"
        case .tooLarge(let p, let w, let h, let limit):
            return "\(p): image is \(w)×\(h) = \(w * h) pixels, over the limit of \(limit) (see --max-pixels)"
        case .noSuchPage(let p, let page, let count): return "\(p): no page \(page + 1) (the file has \(count))"
        case .invalidPixels(let p, let reason), .unreadable(let p, let reason): return "\(p): \(reason)"
        }
    }
}
