import Foundation
import KotenOCRKit

/// The size of the image asked for each canvas (`--iiif-size`, docs/iiif.md "Sizes").
package enum IIIFImageSize: Sendable, Equatable {
    /// The largest the server gives: `max` (Image API 3) or `full` (2.x).
    case max
    /// At most this many pixels on the longer side (`!N,N`), never enlarged.
    case longSide(Int)

    /// The default: a longer side of 4 × the ppocr detector's first pass (960 → 3840). The detector's finer
    /// passes (`DetectorScale`: thin lines aimed at 8 map pixels from under 3.5, up to the page's own resolution)
    /// can then still read at up to 4 × the first pass's scale, and the recogniser's crops come from a page as
    /// large as a 300 dpi scan of a 12 × 16 inch book page; a smaller image is taken as it is.
    package static let defaultLongSide = 3840

    /// `max`, `full` (the same) or a whole number ≥ 64 (`N`: the longer side). Nil for anything else.
    package init?(parsing text: String) {
        switch text.lowercased() {
        case "max", "full": self = .max
        default:
            guard let n = Int(text), n >= 64 else { return nil }
            self = .longSide(n)
        }
    }
}

/// Puts one canvas's image into a file (docs/iiif.md, "Sizes"): through its Image API service at the size asked,
/// or, for an image without a service, its body as it is.
///
/// With a service, its `info.json` is read first: a level-0 service (static files) is asked for the largest of
/// the `sizes` it lists that fits (the largest of all for `max`; the smallest when none fits), as `w,` (2.x) or
/// `w,h` (3); any other for `!N,N` when the image is larger than N, else `full` (2.x) or `max` (3). The request is
/// `{service}/full/{size}/0/default.jpg`.
package enum IIIFImageRequest {
    /// The image URL of `canvas` at `size` (reads the service's `info.json` through `client`). Throws
    /// `HTTPError` or `IIIFBook.Failure`.
    package static func url(of canvas: IIIFBook.Canvas, size: IIIFImageSize, client: HTTPClient,
                            limits: HTTPClient.Limits, scratch: URL) async throws -> String {
        guard let service = canvas.service else {
            guard let image = canvas.image else {
                throw IIIFBook.Failure(source: canvas.id, reason: "the canvas has no image")
            }
            return image
        }
        let base = service.id.hasSuffix("/") ? String(service.id.dropLast()) : service.id
        var infoLimits = limits
        infoLimits.maxBytes = 4 << 20
        let infoFile = scratch.deletingLastPathComponent().appendingPathComponent("." + scratch.lastPathComponent + ".info.json")
        defer { try? FileManager.default.removeItem(at: infoFile) }
        _ = try await client.download(base + "/info.json", to: infoFile, expected: .json, limits: infoLimits)
        let info = (try? JSONSerialization.jsonObject(with: Data(contentsOf: infoFile))) as? [String: Any] ?? [:]
        return base + "/full/" + sizeParameter(info: info, version: service.version, size: size) + "/0/default.jpg"
    }

    /// The Image API size parameter for a service described by `info` (its `info.json`).
    package static func sizeParameter(info: [String: Any], version: Int, size: IIIFImageSize) -> String {
        let everything = version >= 3 ? "max" : "full"
        let profiles = IIIFBook.strings(info["profile"])
            + ((info["profile"] as? [Any])?.compactMap { ($0 as? [String: Any]).flatMap { IIIFBook.strings($0["@id"]).first } } ?? [])
        let levelZero = profiles.contains { $0.lowercased().contains("level0") }
        let width = info["width"] as? Int ?? 0, height = info["height"] as? Int ?? 0
        if levelZero, let sizes = info["sizes"] as? [[String: Any]] {
            let listed = sizes.compactMap { s -> (Int, Int)? in
                guard let w = s["width"] as? Int, let h = s["height"] as? Int, w > 0, h > 0 else { return nil }
                return (w, h)
            }.sorted { $0.0 * $0.1 < $1.0 * $1.1 }
            let chosen: (Int, Int)?
            switch size {
            case .max: chosen = listed.last
            case .longSide(let n): chosen = listed.last { Swift.max($0.0, $0.1) <= n } ?? listed.first
            }
            if let (w, h) = chosen { return version >= 3 ? "\(w),\(h)" : "\(w)," }
            return everything
        }
        switch size {
        case .max: return everything
        case .longSide(let n):
            if width > 0, height > 0, Swift.max(width, height) <= n { return everything }
            return "!\(n),\(n)"
        }
    }
}

/// The batch's fetcher of one canvas's image (`PageFetcher`): its Image API request, downloaded through the
/// shared client into the page's file.
struct IIIFCanvasFetcher: PageFetcher {
    let canvas: IIIFBook.Canvas
    let size: IIIFImageSize
    let client: HTTPClient
    let limits: HTTPClient.Limits

    func fetch(to file: URL) async throws {
        if FileManager.default.fileExists(atPath: file.path) { return }
        let url = try await IIIFImageRequest.url(of: canvas, size: size, client: client, limits: limits, scratch: file)
        _ = try await client.download(url, to: file, expected: .image, limits: limits)
    }
}
