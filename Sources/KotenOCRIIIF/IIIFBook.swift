import Foundation
import KotenOCRKit

/// A IIIF Presentation manifest read as a book: its canvases in the manifest's order, each with the image that
/// paints it (docs/iiif.md, "What is read"). Any front end uses it: `load` reads a manifest by URL or file,
/// `IIIFImageRequest.fetch` puts one canvas's image into a file.
///
/// Presentation 2.1: `sequences[0].canvases`, each canvas's first image annotation's `resource` that is an image,
/// with its optional `service` (`@id`). Presentation 3.0: `items`, each Canvas → its first AnnotationPage → its first `painting` Annotation
/// whose body is an image, with its optional `service` (`id` or `@id`). A body that is a choice, a part or a turn
/// of an image is read as `IIIFPainting` says; a canvas painted by no image (sound, video, a PDF) is `skipped`.
/// The version is read from `@context` (then from `type`/`@type`). Label (and its languages), attribution (2.1) or
/// requiredStatement (3.0), and rights (3.0) or license (2.1) are kept for the results' metadata.
package struct IIIFBook: Sendable {
    /// The manifest as the user named it (URL or path).
    package let source: String
    /// The manifest's `id`/`@id` (the source when it has none).
    package let id: String
    /// 2 or 3.
    package let presentation: Int
    /// The label in one language (`text(_:)`), and in every language it has (`languageMap(_:)`).
    package let label: String?
    package let labels: [String: [String]]?
    package let attribution: String?
    package let rights: String?
    /// The canvases painted by an image, in the manifest's order (each keeps its `index` among all canvases).
    package let canvases: [Canvas]
    /// The canvases painted by no image (sound, video, a PDF), which are not read.
    package let skipped: [Skipped]
    /// The manifest's bytes as read (the run's `manifest.json` is a copy of it).
    package let data: Data

    /// How many canvases the manifest has, read or skipped (what `--pages` counts).
    package var canvasCount: Int { canvases.count + skipped.count }

    /// One canvas: 1-based `index` among all canvases, its id, label and size, and the image that paints it.
    package struct Canvas: Sendable {
        package let index: Int
        package let id: String
        package let label: String?
        package let labels: [String: [String]]?
        package let width: Int
        package let height: Int
        /// The painting image's id (its URL; a part's source image); nil when the canvas has none.
        package let image: String?
        /// The Image API service of that image, if any.
        package let service: ImageService?
        /// The part of the image that paints the canvas, and its turn (`.whole` for the image as it is).
        package var selection: IIIFImageSelection = .whole
        /// The image's full size as the manifest gives it (0 when it does not): a part of a static image is cut
        /// at the scale of the file fetched.
        package var imageWidth = 0
        package var imageHeight = 0
    }

    /// A canvas that is not read: its 1-based index, id, label and what paints it ("a video (video/mp4)").
    package struct Skipped: Sendable {
        package let index: Int
        package let id: String
        package let label: String?
        package let painting: String
    }

    /// An Image API service: its base URI and the API version its `type`, `@context` or `profile` says (1, 2 or 3;
    /// 0 when it says none, as a bare `source` URI of an Image API selector: its `info.json` tells).
    package struct ImageService: Sendable, Equatable {
        package let id: String
        package let version: Int
    }

    /// Why a manifest cannot be read: one line naming it and the reason.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        package let source: String
        package let reason: String
        package var description: String { "\(source): \(reason)" }
    }

    /// The largest manifest read, in bytes.
    package static let maxManifestBytes: Int64 = 32 << 20

    /// Whether `argument` names a manifest rather than an image or folder: an `http(s)://` address, or a file
    /// whose name ends in `.json`.
    package static func isManifest(_ argument: String) -> Bool {
        let lower = argument.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasSuffix(".json")
    }

    /// Reads the manifest at `source` (an `http(s)` URL, fetched with `client` into a temporary file, or a file).
    /// Throws `Failure`.
    package static func load(_ source: String, client: HTTPClient = .shared, limits: HTTPClient.Limits = .init()) async throws -> IIIFBook {
        let data: Data
        let lower = source.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("koten-ocr-manifest-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: file) }
            var manifestLimits = limits
            manifestLimits.maxBytes = min(limits.maxBytes, maxManifestBytes)
            do {
                _ = try await client.download(source, to: file, expected: .json, limits: manifestLimits)
                data = try Data(contentsOf: file)
            } catch let error as HTTPError {
                throw Failure(source: source, reason: error.reason)
            } catch {
                throw Failure(source: source, reason: "cannot read the manifest (\(error.localizedDescription))")
            }
        } else {
            let url = URL(fileURLWithPath: source)
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64) ?? nil
            guard let size else { throw Failure(source: source, reason: "no such file") }
            guard size <= maxManifestBytes else { throw Failure(source: source, reason: "larger than \(maxManifestBytes >> 20) MB: not a manifest") }
            do { data = try Data(contentsOf: url) } catch { throw Failure(source: source, reason: "cannot read the file") }
        }
        return try parse(data, source: source)
    }

    /// The book `data` describes. Throws `Failure` for JSON that is not a 2.1 or 3.0 manifest.
    package static func parse(_ data: Data, source: String) throws -> IIIFBook {
        guard let object = try? JSONSerialization.jsonObject(with: data), let manifest = object as? [String: Any] else {
            throw Failure(source: source, reason: "not JSON of a IIIF manifest")
        }
        let contexts = strings(manifest["@context"])
        let type = (manifest["type"] as? String) ?? (manifest["@type"] as? String) ?? ""
        let presentation: Int
        if contexts.contains(where: { $0.contains("presentation/3") }) || type == "Manifest" {
            presentation = 3
        } else if contexts.contains(where: { $0.contains("presentation/2") }) || type == "sc:Manifest" {
            presentation = 2
        } else {
            throw Failure(source: source, reason: "not a IIIF Presentation 2.1 or 3.0 manifest (no presentation @context, type \(type.isEmpty ? "none" : type))")
        }
        guard type == "Manifest" || type == "sc:Manifest" else {
            throw Failure(source: source, reason: "a IIIF \(type.isEmpty ? "document" : type), not a Manifest")
        }
        let read: [Entry]
        if presentation == 3 {
            let items = manifest["items"] as? [[String: Any]] ?? []
            read = items.filter { ($0["type"] as? String) == "Canvas" }.enumerated().map { canvas3($0.element, index: $0.offset + 1) }
        } else {
            let sequences = manifest["sequences"] as? [[String: Any]] ?? []
            let items = sequences.first?["canvases"] as? [[String: Any]] ?? []
            read = items.enumerated().map { canvas2($0.element, index: $0.offset + 1) }
        }
        guard !read.isEmpty else { throw Failure(source: source, reason: "the manifest has no canvas") }
        let canvases = read.compactMap { if case .read(let c) = $0 { return c } else { return nil } }
        let skipped = read.compactMap { if case .skipped(let s) = $0 { return s } else { return nil } }
        let id = (manifest["id"] as? String) ?? (manifest["@id"] as? String) ?? source
        let attribution: String?
        if presentation == 3, let statement = manifest["requiredStatement"] as? [String: Any] {
            attribution = [text(statement["label"]), text(statement["value"])].compactMap { $0 }.joined(separator: ": ")
        } else {
            attribution = text(manifest["attribution"])
        }
        let rights = (manifest["rights"] as? String) ?? strings(manifest["license"]).first
        return IIIFBook(source: source, id: id, presentation: presentation, label: text(manifest["label"]),
                        labels: languageMap(manifest["label"]), attribution: attribution, rights: rights,
                        canvases: canvases, skipped: skipped, data: data)
    }

    /// A canvas of the manifest: read, or skipped.
    private enum Entry {
        case read(Canvas)
        case skipped(Skipped)
    }

    /// A 3.0 canvas: the first painting annotation of its first page whose body is an image; skipped when none
    /// is and one paints something else.
    private static func canvas3(_ canvas: [String: Any], index: Int) -> Entry {
        let pages = canvas["items"] as? [[String: Any]] ?? []
        let annotations = pages.first?["items"] as? [[String: Any]] ?? []
        let paintings = annotations.filter { ($0["motivation"] as? String) == "painting" || strings($0["motivation"]).contains("painting") }
        let bodies = paintings.map { $0["body"] }
        return made(canvas, id: (canvas["id"] as? String) ?? "", index: index, bodies: bodies)
    }

    /// A 2.1 canvas: the `resource` of its first image annotation whose resource is an image (`oa:Choice`,
    /// `oa:SpecificResource` as `IIIFPainting` reads them).
    private static func canvas2(_ canvas: [String: Any], index: Int) -> Entry {
        let images = canvas["images"] as? [[String: Any]] ?? []
        return made(canvas, id: (canvas["@id"] as? String) ?? "", index: index, bodies: images.map { $0["resource"] })
    }

    /// Canvas `index` painted by the first of `bodies` that is an image; skipped when none is and the first says
    /// what it is instead; without an image (fetching it fails, naming the canvas) when none says anything.
    private static func made(_ canvas: [String: Any], id: String, index: Int, bodies: [Any?]) -> Entry {
        let paintings = bodies.compactMap { IIIFPainting.of($0) }
        let label = text(canvas["label"])
        for painting in paintings {
            guard case .image(let image) = painting else { continue }
            var made = Canvas(index: index, id: id, label: label, labels: languageMap(canvas["label"]),
                              width: int(canvas["width"]), height: int(canvas["height"]), image: image.id, service: image.service)
            made.selection = image.selection
            (made.imageWidth, made.imageHeight) = (image.width, image.height)
            return .read(made)
        }
        if case .other(let what) = paintings.first {
            return .skipped(Skipped(index: index, id: id, label: label, painting: what))
        }
        return .read(Canvas(index: index, id: id, label: label, labels: languageMap(canvas["label"]),
                               width: int(canvas["width"]), height: int(canvas["height"]), image: nil, service: nil))
    }

    /// The first Image API service of `value` (an object or an array of them): version 3 for `ImageService3` or an
    /// `image/3` context or profile; 2 for `ImageService2`, `image/2`; 1 for an `image/1` context or profile, or
    /// the Image API 1.x compliance URIs (`library.stanford.edu/iiif/image-api/…`), as Gallica publishes.
    static func service(_ value: Any?) -> ImageService? {
        let candidates = (value as? [[String: Any]]) ?? ((value as? [String: Any]).map { [$0] } ?? [])
        for candidate in candidates {
            guard let id = (candidate["id"] as? String) ?? (candidate["@id"] as? String) else { continue }
            let type = (candidate["type"] as? String) ?? (candidate["@type"] as? String) ?? ""
            let marks = strings(candidate["@context"]) + strings(candidate["profile"])
            guard let version = type == "ImageService3" ? 3 : (type == "ImageService2" ? 2 : IIIFImageRequest.version(marks))
                    ?? (type.hasPrefix("ImageService") ? 2 : nil) else { continue }
            return ImageService(id: id, version: version)
        }
        return nil
    }

    /// The strings of a value that is a string or an array holding strings.
    static func strings(_ value: Any?) -> [String] {
        if let s = value as? String { return [s] }
        return (value as? [Any])?.compactMap { $0 as? String } ?? []
    }

    /// A size in a manifest: a whole number, or a number in 0…10⁹ taken whole; 0 for anything else.
    static func int(_ value: Any?) -> Int {
        if let n = value as? Int { return n }
        if let d = value as? Double, d.isFinite, abs(d) <= 1e9 { return Int(d) }
        return 0
    }

    /// The text of a label-like value: a string; 2.1's `{"@value"}` or an array of them (Japanese first); 3.0's
    /// language map (`ja`, then `none`, then the first language in order), values joined with a space.
    static func text(_ value: Any?) -> String? {
        if let s = value as? String { return s }
        if let array = value as? [Any] {
            let values = array.compactMap { item -> (String, String?)? in
                if let s = item as? String { return (s, nil) }
                guard let object = item as? [String: Any], let v = object["@value"] as? String else { return nil }
                return (v, object["@language"] as? String)
            }
            return (values.first { $0.1 == "ja" } ?? values.first)?.0
        }
        guard let map = value as? [String: Any] else { return nil }
        if let v = map["@value"] as? String { return v }
        let key = ["ja", "none"].first { map[$0] != nil } ?? map.keys.sorted().first
        guard let key else { return nil }
        let values = strings(map[key])
        return values.isEmpty ? nil : values.joined(separator: " ")
    }

    /// A label-like value as a IIIF language map (language → values): 3.0's map as it is; a 2.1 string (or a
    /// string of 3.0's `none`) under `none`; 2.1's `{"@value", "@language"}` or an array of them and of strings
    /// gathered by language (`none` without one). Nil when it holds no text.
    static func languageMap(_ value: Any?) -> [String: [String]]? {
        var map: [String: [String]] = [:]
        func add(_ item: Any) {
            if let s = item as? String {
                map["none", default: []].append(s)
            } else if let object = item as? [String: Any] {
                if let v = object["@value"] as? String {
                    map[(object["@language"] as? String) ?? "none", default: []].append(v)
                } else {
                    for (language, values) in object where !language.hasPrefix("@") {
                        let texts = strings(values)
                        if !texts.isEmpty { map[language, default: []] += texts }
                    }
                }
            }
        }
        if let array = value as? [Any] { array.forEach(add) } else if let value { add(value) }
        return map.isEmpty ? nil : map
    }

    /// The folder the book's results go into, below the output folder: the manifest's name without `.json`, or,
    /// when that is `manifest`, the name of the folder above it (`…/pid/1287221/manifest.json` → `1287221`);
    /// made safe (`IIIFNames.safe`).
    package var folderName: String { Self.folderName(of: source) }

    /// `folderName` of the manifest at `source` (a URL or a path), before it is read.
    package static func folderName(of source: String) -> String {
        let path: String = source.lowercased().hasPrefix("http") ? (URL(string: source)?.path ?? source) : source
        var parts = path.split(separator: "/").map(String.init)
        while let last = parts.last, ["manifest", "manifest.json", "iiif", ""].contains(last.lowercased()) { parts.removeLast() }
        let name = parts.last.map { $0.lowercased().hasSuffix(".json") ? String($0.dropLast(5)) : $0 } ?? "manifest"
        return IIIFNames.safe(name, limit: 80).isEmpty ? "manifest" : IIIFNames.safe(name, limit: 80)
    }
}

/// Names of canvases' results (docs/iiif.md, "Names").
package enum IIIFNames {
    /// `text` made safe as a file name: letters, digits and marks of any script, `-` and `_` kept; every other run
    /// of characters (spaces, `/`, `.`, punctuation, controls) becomes one `_`; no `_` at either end; at most
    /// `limit` characters.
    package static func safe(_ text: String, limit: Int) -> String {
        var out = ""
        var pendingGap = false
        for character in text {
            let keep = character == "-" || character == "_"
                || character.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || CharacterSet.nonBaseCharacters.contains($0) }
            if keep {
                if pendingGap && !out.isEmpty { out.append("_") }
                pendingGap = false
                out.append(character)
                if out.count >= limit { break }
            } else {
                pendingGap = true
            }
        }
        while out.hasSuffix("_") { out.removeLast() }
        while out.hasPrefix("_") { out.removeFirst() }
        return out
    }

    /// The stem of canvas `index` (1-based, 4 digits or more) labelled `label`: `0003_表紙` (`0003` without a label).
    package static func canvasStem(index: Int, label: String?) -> String {
        let number = String(index)
        let padded = String(repeating: "0", count: max(0, 4 - number.count)) + number
        let safeLabel = label.map { safe($0, limit: 40) } ?? ""
        return safeLabel.isEmpty ? padded : padded + "_" + safeLabel
    }
}
