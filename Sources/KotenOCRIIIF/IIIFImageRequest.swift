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

/// Puts one canvas's image into a file (docs/iiif.md, "Sizes" and "Parts and turns of an image"): through its
/// Image API service at the size asked, or, for an image without a service, its body as it is.
///
/// With a service, its `info.json` is read first; it says the API version (its `@context`: 1.x, 2.x or 3) and the
/// compliance level and features (`IIIFImageRequest.Features`). The request is
/// `{service}/{region}/{size}/{rotation}/{quality}.jpg`: quality `native` for Image API 1.x, `default` after. A
/// level-0 service (static files) is asked for the largest of the `sizes` it lists that fits (the largest of all
/// for `max`; the smallest when none fits), as `w,` (1.x, 2.x) or `w,h` (3), or `full`/`max` when it lists none;
/// any other for `!N,N` when it can confine a size (level 2) and `N,` or `,N` when it cannot (level 1), when the
/// image is larger than N, else `full` (1.x, 2.x) or `max` (3). A part or turn of the image (a `SpecificResource`'s
/// selector) is asked of the service when its level or features say it gives it (a region in pixels: level 1; in
/// percent, or a quarter turn: level 2), else the image is fetched whole and cut and turned here.
package enum IIIFImageRequest {
    /// What to fetch for a canvas, and what is left to do to the fetched image.
    package struct Plan: Sendable, Equatable {
        /// The image's address.
        package var url: String
        /// The part and turn still to apply once fetched (nil: the fetched image is the canvas's).
        package var local: IIIFImageSelection?
        /// The image's full size (from `info.json`, else the manifest; zeros when unknown), which `local`'s pixels
        /// are in.
        package var fullWidth = 0
        package var fullHeight = 0
        /// How results name the pixels read: `url`, with the part cut here as a Media Fragment (`#xywh=`) of it.
        package var name: String
    }

    /// The image URL of `canvas` at `size` (reads the service's `info.json` through `client`). Throws
    /// `HTTPError` or `IIIFBook.Failure`.
    package static func url(of canvas: IIIFBook.Canvas, size: IIIFImageSize, client: HTTPClient,
                            limits: HTTPClient.Limits, scratch: URL) async throws -> String {
        try await plan(of: canvas, size: size, client: client, limits: limits, scratch: scratch).url
    }

    /// What to fetch for `canvas` at `size` (reads the service's `info.json` through `client`; its temporary file
    /// beside `scratch`). Throws `HTTPError`, or `IIIFBook.Failure` for a canvas without an image or with a part
    /// that cannot be read (a mirror, an angle that is not a multiple of 90°).
    package static func plan(of canvas: IIIFBook.Canvas, size: IIIFImageSize, client: HTTPClient,
                             limits: HTTPClient.Limits, scratch: URL) async throws -> Plan {
        if let reason = canvas.selection.unsupported { throw IIIFBook.Failure(source: canvas.id, reason: reason) }
        guard let service = canvas.service else {
            guard let image = canvas.image else { throw IIIFBook.Failure(source: canvas.id, reason: "the canvas has no image") }
            return plan(image: image, local: canvas.selection, full: (canvas.imageWidth, canvas.imageHeight))
        }
        let base = service.id.hasSuffix("/") ? String(service.id.dropLast()) : service.id
        var infoLimits = limits
        infoLimits.maxBytes = 4 << 20
        let infoFile = scratch.deletingLastPathComponent().appendingPathComponent("." + scratch.lastPathComponent + ".info.json")
        defer { try? FileManager.default.removeItem(at: infoFile) }
        _ = try await client.download(base + "/info.json", to: infoFile, expected: .json, limits: infoLimits)
        let info = (try? JSONSerialization.jsonObject(with: Data(contentsOf: infoFile))) as? [String: Any] ?? [:]
        return plan(base: base, info: info, version: service.version, selection: canvas.selection, size: size,
                    declared: (canvas.imageWidth, canvas.imageHeight))
    }

    /// The plan for an image without a service: fetched as it is, any part cut and turned here.
    static func plan(image: String, local: IIIFImageSelection, full: (Int, Int)) -> Plan {
        var plan = Plan(url: image, local: local.isWhole ? nil : local, fullWidth: full.0, fullHeight: full.1, name: image)
        plan.name = name(plan, inPixels: true)
        return plan
    }

    /// The plan for the service at `base` described by `info` (its `info.json`), which the manifest says is of
    /// Image API `version` (0: unknown; `info`'s `@context` decides when it names one).
    package static func plan(base: String, info: [String: Any], version declared: Int, selection: IIIFImageSelection,
                             size: IIIFImageSize, declared full: (Int, Int) = (0, 0)) -> Plan {
        let version = IIIFImageRequest.version(IIIFBook.strings(info["@context"])) ?? (declared > 0 ? declared : 2)
        let features = Features(info: info)
        let width = info["width"] as? Int ?? full.0, height = info["height"] as? Int ?? full.1
        let regionThere = selection.region == .full || features.gives(selection.region)
        let turnThere = regionThere && (selection.quarterTurns == 0 || features.turnsByQuarters)
        let local = IIIFImageSelection(region: regionThere ? .full : selection.region, quarterTurns: turnThere ? 0 : selection.quarterTurns)
        let region = regionThere ? selection.regionParameter : "full"
        let parameter = sizeParameter(info: info, version: version, size: size,
                                      region: regionThere ? selection.regionSize(width: width, height: height) : nil)
        let rotation = turnThere ? String(selection.quarterTurns * 90) : "0"
        var plan = Plan(url: "\(base)/\(region)/\(parameter)/\(rotation)/\(version == 1 ? "native" : "default").jpg",
                        local: local.isWhole ? nil : local, fullWidth: width, fullHeight: height, name: "")
        plan.name = name(plan, inPixels: false)
        return plan
    }

    /// How results name what a plan reads: its URL; with a part cut here, that part as a Media Fragment of it
    /// (`#xywh=x,y,w,h` of an image fetched as it is, which is its full size; `#xywh=percent:…` of an image asked
    /// of a service at another size), and with a turn made here, nothing more (no fragment says a turn).
    static func name(_ plan: Plan, inPixels: Bool) -> String {
        guard let local = plan.local, local.region != .full else { return plan.url }
        switch local.region {
        case .pixels(let x, let y, let w, let h) where !inPixels && plan.fullWidth > 0 && plan.fullHeight > 0:
            func pct(_ v: Int, _ of: Int) -> String { String(format: "%.4g", 100 * Double(v) / Double(of)) }
            return plan.url + "#xywh=percent:" + [pct(x, plan.fullWidth), pct(y, plan.fullHeight), pct(w, plan.fullWidth), pct(h, plan.fullHeight)].joined(separator: ",")
        case .pixels(let x, let y, let w, let h): return plan.url + "#xywh=\(x),\(y),\(w),\(h)"
        case .percent(let x, let y, let w, let h):
            return plan.url + "#xywh=percent:" + [x, y, w, h].map { String(format: "%.4g", $0) }.joined(separator: ",")
        case .square, .full: return plan.url
        }
    }

    /// The Image API version a service's `@context` or `profile` URIs name: 3 (`image/3`), 2 (`image/2`), 1
    /// (`image/1`, or the 1.x compliance and context URIs under `library.stanford.edu/iiif/image-api/`); nil for none.
    package static func version(_ marks: [String]) -> Int? {
        if marks.contains(where: { $0.contains("iiif.io/api/image/3") }) { return 3 }
        if marks.contains(where: { $0.contains("iiif.io/api/image/2") }) { return 2 }
        if marks.contains(where: { $0.contains("iiif.io/api/image/1") || $0.contains("library.stanford.edu/iiif/image-api") }) { return 1 }
        return nil
    }

    /// What a service gives, from its `info.json`: its compliance level (0, 1, 2; nil when it names none) from its
    /// `profile` (1.x: a compliance URI ending in `#levelN`; 2.x: an array whose first entry is `…/levelN.json`, then
    /// objects whose `supports` add features; 3: `levelN`, with `extraFeatures`), and the features it adds.
    package struct Features: Sendable, Equatable {
        package var level: Int?
        package var extra: Set<String> = []

        package init(level: Int?, extra: Set<String> = []) {
            self.level = level
            self.extra = extra
        }

        init(info: [String: Any]) {
            let profile = info["profile"]
            let uris = IIIFBook.strings(profile) + ((profile as? [Any])?.compactMap { ($0 as? [String: Any]).flatMap { IIIFBook.strings($0["@id"]).first } } ?? [])
            level = uris.lazy.compactMap { Self.level(of: $0) }.first
            extra = Set(IIIFBook.strings(info["extraFeatures"])
                        + ((profile as? [Any])?.flatMap { IIIFBook.strings(($0 as? [String: Any])?["supports"]) } ?? []))
        }

        /// The compliance level a profile URI or name gives (`level2`, `…/level1.json`, `…#level0`).
        static func level(of uri: String) -> Int? {
            let lower = uri.lowercased()
            for n in [0, 1, 2] where lower.hasSuffix("level\(n)") || lower.hasSuffix("level\(n).json") { return n }
            return nil
        }

        /// Level 0: only the sizes it lists.
        var isLevelZero: Bool { level == 0 }
        /// The level, taken as 2 when the service names none (as before: such a service is asked for `!N,N`).
        private var effective: Int { level ?? 2 }

        /// Whether it cuts `region` (pixels: `regionByPx`, level 1; percent: `regionByPct`, level 2; the square:
        /// `regionSquare`).
        func gives(_ region: IIIFImageSelection.Region) -> Bool {
            switch region {
            case .full: return true
            case .pixels: return effective >= 1 || extra.contains("regionByPx")
            case .percent: return effective >= 2 || extra.contains("regionByPct")
            case .square: return extra.contains("regionSquare")
            }
        }

        /// Whether it turns by quarter turns (`rotationBy90s`, level 2).
        var turnsByQuarters: Bool { effective >= 2 || extra.contains("rotationBy90s") || extra.contains("rotationArbitrary") }
        /// Whether it fits an image into a box (`!w,h`: `sizeByConfinedWh`, level 2).
        var confinesSizes: Bool { effective >= 2 || extra.contains("sizeByConfinedWh") }
    }

    /// The Image API size parameter for a service described by `info` (its `info.json`), for the whole image or
    /// for a `region` of this size.
    package static func sizeParameter(info: [String: Any], version: Int, size: IIIFImageSize, region: (width: Int, height: Int)? = nil) -> String {
        let everything = version >= 3 ? "max" : "full"
        let features = Features(info: info)
        if features.isLevelZero {
            let sizes = info["sizes"] as? [[String: Any]] ?? []
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
        let (width, height) = region ?? (info["width"] as? Int ?? 0, info["height"] as? Int ?? 0)
        switch size {
        case .max: return everything
        case .longSide(let n):
            if width > 0, height > 0, Swift.max(width, height) <= n { return everything }
            if features.confinesSizes || width <= 0 || height <= 0 { return "!\(n),\(n)" }
            return width >= height ? "\(n)," : ",\(n)"
        }
    }
}

/// The batch's fetcher of one canvas's image (`PageFetcher`): its Image API request, downloaded through the
/// shared client into the page's file; a part or turn the service cannot give cut and turned here
/// (`ImageSource.encodedPart`). The address read is kept beside the file (`<file>.source`) until the page's results
/// are written, so that a run that finds the file names it the same without asking the server again.
struct IIIFCanvasFetcher: PageFetcher {
    let canvas: IIIFBook.Canvas
    let size: IIIFImageSize
    let client: HTTPClient
    let limits: HTTPClient.Limits

    func fetch(to file: URL) async throws -> String? {
        let note = Self.note(of: file)
        if FileManager.default.fileExists(atPath: file.path) {
            return (try? String(contentsOf: note, encoding: .utf8)) ?? canvas.image
        }
        let plan = try await IIIFImageRequest.plan(of: canvas, size: size, client: client, limits: limits, scratch: file)
        let folder = file.deletingLastPathComponent()
        // The address first, then the image: a file found whole always has its address beside it.
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try PageCommit.commit([.init(name: note.lastPathComponent, data: Data(plan.name.utf8))], in: folder)
        do {
            guard let local = plan.local else {
                _ = try await client.download(plan.url, to: file, expected: .image, limits: limits)
                return plan.name
            }
            let whole = folder.appendingPathComponent(file.lastPathComponent + ".whole")
            defer { try? FileManager.default.removeItem(at: whole) }
            _ = try await client.download(plan.url, to: whole, expected: .image, limits: limits)
            let image = try ImageSource(file: FileSystemPath(whole.path), name: plan.url)
            let cut = local.cut(fetched: (image.width, image.height), full: (plan.fullWidth, plan.fullHeight))
            let data = try image.encodedPart(cut.map { PixelBox(x1: $0.0, y1: $0.1, x2: $0.2, y2: $0.3) },
                                             clockwiseQuarterTurns: local.quarterTurns)
            try PageCommit.commit([.init(name: file.lastPathComponent, data: data)], in: folder)
            return plan.name
        } catch {
            try? FileManager.default.removeItem(at: note)
            throw error
        }
    }

    func discard(_ file: URL) {
        try? FileManager.default.removeItem(at: file)
        try? FileManager.default.removeItem(at: Self.note(of: file))
    }

    /// The file beside `file` that holds the address of its image.
    static func note(of file: URL) -> URL { file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + ".source") }
}
