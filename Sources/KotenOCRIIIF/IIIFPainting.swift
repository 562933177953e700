import Foundation

/// What paints a canvas, read from its painting annotation's body (3.0) or its image's `resource` (2.1) as
/// libraries and the IIIF cookbook write them (docs/iiif.md, "What is read"): an image, a part or a turn of one, a
/// choice of images, or something that is no image (sound, video, a PDF), which is skipped.
enum IIIFPainting: Equatable {
    /// An image.
    case image(Image)
    /// No image: what it is, in words ("a video (video/mp4)"), for the line that says the canvas is skipped.
    case other(String)

    /// An image that paints a canvas: its id (nil when it has none), its Image API service, the part of it that
    /// paints the canvas, and its full size as declared (zeros when it is not).
    struct Image: Equatable {
        var id: String?
        var service: IIIFBook.ImageService?
        var selection: IIIFImageSelection
        var width = 0
        var height = 0
    }

    /// The painting of `body`: an object, or an array whose first entry is taken.
    ///
    /// - 3.0 `Choice` (`items`) and 2.1 `oa:Choice` (`default`, else the first of `item`): the default image.
    /// - 3.0 `SpecificResource` (`source`, `selector`) and 2.1 `oa:SpecificResource` (`full`, `selector`): the
    ///   source image, with the part or turn its selector gives (`IIIFImageSelection.parse`); a `source` given as a
    ///   bare URI with an `ImageApiSelector` is an Image API service's base.
    /// - An image id with a `#xywh=` fragment: that part of the image.
    /// - A body whose `type`/`@type` or `format` says sound, video, text or a PDF: `other`.
    static func of(_ body: Any?, selection: IIIFImageSelection = .whole, depth: Int = 0) -> IIIFPainting? {
        guard depth < 8 else { return nil }  // a choice of choices of …: give up rather than recurse for ever
        if let array = body as? [Any] { return array.lazy.compactMap { of($0, selection: selection, depth: depth + 1) }.first }
        guard let object = body as? [String: Any] else { return nil }
        let type = (object["type"] as? String) ?? (object["@type"] as? String) ?? ""
        switch type {
        case "Choice", "oa:Choice":
            let options = [object["default"]].compactMap { $0 } + (object["items"] as? [Any] ?? []) + listed(object["item"])
            return options.lazy.compactMap { of($0, selection: selection, depth: depth + 1) }.first
        case "SpecificResource", "oa:SpecificResource":
            let chosen = IIIFImageSelection.parse(object["selector"]) ?? selection
            let source = object["source"] ?? object["full"]
            if let uri = source as? String {
                // A bare URI: an Image API service's base when the selector is the Image API's, else an image's id.
                let service = IIIFImageSelection.namesImageAPI(object["selector"]) ? IIIFBook.ImageService(id: uri, version: 0) : nil
                return .image(Image(id: uri, service: service, selection: chosen))
            }
            return of(source, selection: chosen, depth: depth + 1)
        default:
            if let kind = notAnImage(type: type, format: object["format"] as? String) { return .other(kind) }
            var id = (object["id"] as? String) ?? (object["@id"] as? String)
            var chosen = selection
            if let full = id, let hash = full.firstIndex(of: "#") {
                let fragment = String(full[full.index(after: hash)...])
                if chosen == .whole, let part = IIIFImageSelection.fragment(fragment) { chosen = part }
                id = String(full[..<hash])
            }
            return .image(Image(id: id, service: IIIFBook.service(object["service"]), selection: chosen,
                                width: IIIFBook.int(object["width"]), height: IIIFBook.int(object["height"])))
        }
    }

    /// `value` as a list: an array, or one value.
    private static func listed(_ value: Any?) -> [Any] {
        if let array = value as? [Any] { return array }
        return value.map { [$0] } ?? []
    }

    /// What a body of `type` and `format` is in words when it is no image; nil for an image, or a body that says
    /// neither (it is then fetched, and must be an image by its first bytes).
    static func notAnImage(type: String, format: String?) -> String? {
        let media = format?.lowercased().split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let what = media.isEmpty ? "" : " (\(media))"
        switch type {
        case "Sound", "Audio", "dctypes:Sound": return "sound" + what
        case "Video", "dctypes:MovingImage": return "a video" + what
        default: break
        }
        if media == "application/pdf" { return "a PDF" + what }
        if media.hasPrefix("audio/") { return "sound" + what }
        if media.hasPrefix("video/") { return "a video" + what }
        switch type {
        case "Text", "dctypes:Text", "TextualBody": return "text" + what
        case "Dataset", "dctypes:Dataset", "Model", "PhysicalObject": return "a \(type.replacingOccurrences(of: "dctypes:", with: ""))" + what
        default: break
        }
        if !media.isEmpty, !media.hasPrefix("image/"), !["application/octet-stream", "binary/octet-stream"].contains(media) {
            return "a \(media) document"
        }
        return nil
    }
}

/// The part of an image that paints a canvas, and its turn (a W3C/IIIF selector on a `SpecificResource`): read
/// through the Image API service when it can give it, else cut and turned here after the fetch
/// (`IIIFImageRequest`, docs/iiif.md "Parts and turns of an image").
package struct IIIFImageSelection: Sendable, Equatable {
    /// The part of the image, in its full size's coordinates.
    package enum Region: Sendable, Equatable {
        case full
        /// The centred square of the shorter side.
        case square
        /// x, y, width, height in pixels.
        case pixels(Int, Int, Int, Int)
        /// x, y, width, height in percent of the full image.
        case percent(Double, Double, Double, Double)
    }

    package var region: Region = .full
    /// Clockwise quarter turns after the cut, 0–3.
    package var quarterTurns = 0
    /// Why the selection cannot be read (a mirror, an angle that is not a multiple of 90°, a region that is not
    /// understood); nil when it can.
    package var unsupported: String? = nil

    package static let whole = IIIFImageSelection()
    /// The largest coordinate taken (a larger one, or one that is no finite number, is no region understood).
    static let maxCoordinate = 1e9

    package init(region: Region = .full, quarterTurns: Int = 0, unsupported: String? = nil) {
        self.region = region
        self.quarterTurns = quarterTurns
        self.unsupported = unsupported
    }

    /// The selection of a `selector` (an object or an array of alternatives, the first understood taken):
    /// `ImageApiSelector` (`region`, `rotation`; its `size`, `quality` and `format` are the reader's to choose) or
    /// `FragmentSelector` (`xywh=` of the Media Fragments, pixels or `percent:`). Nil when there is none.
    static func parse(_ selector: Any?) -> IIIFImageSelection? {
        if let array = selector as? [Any] {
            let parsed = array.compactMap { parse($0) }
            return parsed.first { $0.unsupported == nil } ?? parsed.first
        }
        guard let object = selector as? [String: Any] else { return nil }
        let type = (object["type"] as? String) ?? (object["@type"] as? String) ?? ""
        if type.hasSuffix("ImageApiSelector") {
            var selection = IIIFImageSelection()
            if let region = object["region"] as? String {
                if let parsed = imageAPIRegion(region) { selection.region = parsed } else { selection.unsupported = "the region \(region) is not understood" }
            }
            let rotation = (object["rotation"] as? String) ?? (object["rotation"] as? NSNumber)?.stringValue ?? "0"
            if rotation.hasPrefix("!") {
                selection.unsupported = "the image is mirrored (rotation \(rotation))"
            } else if let degrees = Double(rotation), abs(degrees) <= 3600, degrees.truncatingRemainder(dividingBy: 90) == 0 {
                selection.quarterTurns = ((Int(degrees) / 90) % 4 + 4) % 4
            } else {
                selection.unsupported = "the image is turned by \(rotation)°, not a multiple of 90°"
            }
            return selection
        }
        if type.hasSuffix("FragmentSelector"), let value = object["value"] as? String {
            return fragment(value) ?? IIIFImageSelection(unsupported: "the fragment \(value) is not understood")
        }
        return nil
    }

    /// Whether `selector` (or one of its alternatives) is an Image API selector.
    static func namesImageAPI(_ selector: Any?) -> Bool {
        if let array = selector as? [Any] { return array.contains { namesImageAPI($0) } }
        guard let object = selector as? [String: Any] else { return false }
        return ((object["type"] as? String) ?? (object["@type"] as? String) ?? "").hasSuffix("ImageApiSelector")
    }

    /// The selection of a Media Fragment (`xywh=x,y,w,h`, `xywh=pixel:…`, `xywh=percent:…`); nil for another.
    static func fragment(_ text: String) -> IIIFImageSelection? {
        let pairs = text.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
        guard let value = pairs.first(where: { $0.count == 2 && $0[0] == "xywh" })?[1] else { return nil }
        var body = value, percent = false
        if body.hasPrefix("pixel:") { body = String(body.dropFirst(6)) }
        if body.hasPrefix("percent:") { body = String(body.dropFirst(8)); percent = true }
        let numbers = body.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, numbers[2] > 0, numbers[3] > 0, numbers.allSatisfy({ $0 >= 0 && $0 <= maxCoordinate }) else { return nil }
        if percent { return IIIFImageSelection(region: .percent(numbers[0], numbers[1], numbers[2], numbers[3])) }
        let n = numbers.map { Int($0.rounded()) }
        return IIIFImageSelection(region: .pixels(n[0], n[1], n[2], n[3]))
    }

    /// An Image API region parameter (`full`, `square`, `x,y,w,h`, `pct:x,y,w,h`); nil for another.
    static func imageAPIRegion(_ text: String) -> Region? {
        switch text {
        case "full": return .full
        case "square": return .square
        default: break
        }
        let percent = text.hasPrefix("pct:")
        let numbers = (percent ? String(text.dropFirst(4)) : text).split(separator: ",").compactMap { Double($0) }
        guard numbers.count == 4, numbers[2] > 0, numbers[3] > 0, numbers.allSatisfy({ $0 >= 0 && $0 <= maxCoordinate }) else { return nil }
        if percent { return .percent(numbers[0], numbers[1], numbers[2], numbers[3]) }
        guard numbers.allSatisfy({ $0 == $0.rounded() }) else { return nil }
        return .pixels(Int(numbers[0]), Int(numbers[1]), Int(numbers[2]), Int(numbers[3]))
    }

    /// Whether it is the whole image, upright.
    var isWhole: Bool { region == .full && quarterTurns == 0 }

    /// The Image API region parameter.
    var regionParameter: String {
        switch region {
        case .full: return "full"
        case .square: return "square"
        case .pixels(let x, let y, let w, let h): return "\(x),\(y),\(w),\(h)"
        case .percent(let x, let y, let w, let h):
            return "pct:" + [x, y, w, h].map { $0 == $0.rounded() ? String(Int($0)) : String($0) }.joined(separator: ",")
        }
    }

    /// The region's size in pixels of an image of `width` × `height` (its full size; 0 when unknown): nil when
    /// it cannot be known.
    func regionSize(width: Int, height: Int) -> (width: Int, height: Int)? {
        switch region {
        case .full: return width > 0 && height > 0 ? (width, height) : nil
        case .square: return width > 0 && height > 0 ? (min(width, height), min(width, height)) : nil
        case .pixels(let x, let y, let w, let h):
            guard width > 0, height > 0 else { return (w, h) }
            return (max(0, min(x + w, width) - x), max(0, min(y + h, height) - y))
        case .percent(_, _, let w, let h):
            guard width > 0, height > 0 else { return nil }
            return (Int((Double(width) * w / 100).rounded()), Int((Double(height) * h / 100).rounded()))
        }
    }

    /// The region in pixels of an image fetched at `fetched` (width, height) whose full size is `full` (zeros when
    /// unknown: the fetched image is taken as full size): x1, y1, x2, y2, not clamped.
    func cut(fetched: (width: Int, height: Int), full: (width: Int, height: Int)) -> (Int, Int, Int, Int)? {
        let sx = full.width > 0 ? Double(fetched.width) / Double(full.width) : 1
        let sy = full.height > 0 ? Double(fetched.height) / Double(full.height) : 1
        func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> (Int, Int, Int, Int) {
            (Int(x.rounded()), Int(y.rounded()), Int((x + w).rounded()), Int((y + h).rounded()))
        }
        switch region {
        case .full: return nil
        case .square:
            let side = min(fetched.width, fetched.height)
            return ((fetched.width - side) / 2, (fetched.height - side) / 2, (fetched.width - side) / 2 + side, (fetched.height - side) / 2 + side)
        case .pixels(let x, let y, let w, let h): return box(Double(x) * sx, Double(y) * sy, Double(w) * sx, Double(h) * sy)
        case .percent(let x, let y, let w, let h):
            let (fw, fh) = (Double(fetched.width) / 100, Double(fetched.height) / 100)
            return box(x * fw, y * fh, w * fw, h * fh)
        }
    }
}
