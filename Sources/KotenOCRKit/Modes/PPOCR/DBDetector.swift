import Foundation

/// PP-OCRv5 mobile's DB text detector (docs/reference-pipelines.md §4, "Step 1").
///
/// Input `x` float32 [1,3,H,W]: the page resized (never padded) to a map whose sides are multiples of 32,
/// decoded at reduced size by libvips (no full-resolution or padded buffer), BGR, ImageNet-normalised on
/// [0,1]. Output [1,1,H,W] text probability. The scale fits the page (`DetectorScale`: a first pass with the
/// longer side at 960, a finer pass where the text is too thin in that map) unless `maxSide` fixes it; a map
/// too large for one run within the memory budget is read in overlapping tiles stitched into one map.
/// Returns quads in page pixels and the passes made (`DetectedPage.summary`); never the full-resolution page.
package struct DBDetector: PageDetector {
    public let model: ModelDescriptor
    /// The map's longer side for one pass at a fixed scale (`--det-max-side`); nil: fitted to the page
    /// (`DetectorScale`).
    public var maxSide: Int?
    public var postprocess = DBPostprocess()
    /// Most input values one run may take (tests); nil: `DetectorScale`'s bound, within the memory budget.
    var runElementsBound: Int?

    static let normalisation = PixelNormalisation.meanStd(mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225])

    public init(model: ModelDescriptor, maxSide: Int? = nil) {
        self.model = model
        self.maxSide = maxSide
    }

    /// The detector input size for a page: scaled so the longer side is at most `maxSide` (never enlarged),
    /// each side rounded to a multiple of 32 (at least 32).
    public static func inputSize(width: Int, height: Int, maxSide: Int) -> (width: Int, height: Int) {
        DetectorScale.mapSize(width: width, height: height, scale: DetectorScale.fitted(width: width, height: height, maxSide: maxSide))
    }

    public var models: [ModelDescriptor] { [model] }

    /// The text lines of `page`. Throws `ImageError`, `InferenceError`, `ModelStoreError`.
    public func detect(_ page: ImageSource, store: ModelStore) async throws -> DetectedPage<Detection> {
        let first = DetectorScale.fitted(width: page.width, height: page.height, maxSide: maxSide ?? DetectorScale.firstPassSide)
        // One run holds at most what the page's default first pass or a typical page holds, and what the budget affords.
        let usual = Self.inputSize(width: page.width, height: page.height, maxSide: DetectorScale.firstPassSide)
        let bound = runElementsBound ?? max(model.typicalInputElements, 3 * usual.width * usual.height)
        let minimum = 3 * DetectorScale.minTileSide * DetectorScale.minTileSide
        let maxElements = max(minimum, min(bound, await store.affordableInputElements(model)))
        var pass = try await self.pass(page, scale: first, reason: "page", maxElements: maxElements, store: store)
        var passes = [pass.report]
        // A page the first input shows salt and pepper on is cleaned at full resolution and read from the first pass
        // again (`SaltAndPepper`); the later stages cut their crops from the cleaned page (`DetectedPage.source`).
        var read = page, cleaned: RGBImage?
        if pass.noise?.isNoisy == true {
            let image = try PipelineStage.decode.measure { SaltAndPepper.despeckled(try page.decode()) }
            read = try Self.source(image, name: page.name)
            cleaned = image
            AllocatorPolicy.trim()
            pass = try await self.pass(read, scale: first, reason: SaltAndPepper.passReason, maxElements: maxElements, store: store)
            passes.append(pass.report)
        }
        if maxSide == nil, let finer = DetectorScale.refinement(first: first, map: (pass.report.width, pass.report.height),
                                                               lineSides: pass.lineSides) {
            AllocatorPolicy.trim()  // the first pass's activations go back before the second's
            pass = try await self.pass(read, scale: finer.scale, reason: finer.reason, maxElements: maxElements, store: store)
            passes.append(pass.report)
        }
        var detected = DetectedPage(detections: pass.detections, page: cleaned, summary: PageResult.DetectorSummary(passes: passes))
        if cleaned != nil { detected.source = read }
        return detected
    }

    /// `image` (a page cleaned in memory) as a page the later stages decode and cut from, named `name`.
    private static func source(_ image: RGBImage, name: String) throws -> ImageSource {
        try image.pixels.withUnsafeBytes { bytes in
            try ImageSource(pixels: bytes, width: image.width, height: image.height, bytesPerRow: image.width * 3,
                            format: .rgb8, name: name, maxPixels: max(ImageSource.defaultMaxPixels, image.width * image.height))
        }
    }

    private struct Pass {
        var detections: [Detection]
        var lineSides: [Double]
        var report: DetectorPass
        /// The salt and pepper the pass's input shows (`SaltAndPepper.evidence`): the first pass, read in one run.
        var noise: SaltAndPepper.Evidence?
    }

    /// One pass over the page at `scale`: one run, or tiles of at most `maxElements` input values stitched
    /// into one map (8 bits per pixel) before its boxes are taken. A narrow map is read with the page's background
    /// around it (`DetectorScale.paddedSides`) and its boxes taken in the page's part of the map.
    private func pass(_ page: ImageSource, scale: Double, reason: String, maxElements: Int, store: ModelStore) async throws -> Pass {
        let size = DetectorScale.mapSize(width: page.width, height: page.height, scale: scale)
        let pad = DetectorScale.paddedSides(width: size.width, height: size.height)
        let canvas = (width: size.width + 2 * pad.x, height: size.height + 2 * pad.y)
        let tiles = DetectorScale.tiles(width: canvas.width, height: canvas.height, maxElements: maxElements)
        let analysis: DBPostprocess.Analysis
        var noise: SaltAndPepper.Evidence?
        if tiles.count == 1 {
            let looksForNoise = reason == "page"
            let (map, evidence) = try await run(model, store: store) { run in
                // The input tensor lives only inside this run: activations and input are gone before crops.
                let input = try PipelineStage.decode.measure { try page.decode(fitting: size.width, size.height, kernel: .linear) }
                let evidence = looksForNoise ? SaltAndPepper.evidence(input) : nil
                return (try await run(input.padded(x: pad.x, y: pad.y, colour: input.edgeColour)), evidence)
            }
            noise = evidence
            analysis = postprocess.analyse(map, within: pad, size: size)
        } else {
            // The background a narrow map is padded with, from a small decode of the page (never the page whole).
            let colour = pad == (0, 0) ? (0, 0, 0) : try PipelineStage.decode.measure {
                try page.decode(fitting: max(1, size.width / 4), max(1, size.height / 4), kernel: .linear).edgeColour
            }
            let map = try await run(model, store: store) { run in
                var stitched = TiledProbabilityMap(width: canvas.width, height: canvas.height)
                for band in Dictionary(grouping: tiles, by: \.y).sorted(by: { $0.key < $1.key }) {
                    let rows = band.key..<(band.key + (band.value.first?.height ?? 0))
                    // One band of the map's rows at a time: the page at this scale is never held whole.
                    let strip = try PipelineStage.decode.measure {
                        try Self.band(of: page, size: size, rows: rows, pad: pad, colour: colour)
                    }
                    for tile in band.value {
                        let tileMap = try await run(strip.cropped(x: tile.x, y: 0, width: tile.width, height: tile.height))
                        stitched.write(tileMap, of: tile)
                    }
                }
                return stitched
            }
            analysis = postprocess.analyse(map, within: pad, size: size)
        }
        let report = DetectorPass(reason: reason, scale: scale, width: size.width, height: size.height, tiles: tiles.count,
                                  padding: max(pad.x, pad.y))
        return Pass(detections: detections(analysis.boxes, page: page, map: size), lineSides: analysis.lineSides, report: report,
                    noise: noise)
    }

    /// Rows `rows` of the map padded by `pad` (its `size` part the page at that size, the rest `colour`).
    private static func band(of page: ImageSource, size: (width: Int, height: Int), rows: Range<Int>, pad: (x: Int, y: Int),
                             colour: (UInt8, UInt8, UInt8)) throws -> RGBImage {
        guard pad != (0, 0) else { return try page.decode(fitting: size.width, size.height, rows: rows, kernel: .linear) }
        var strip = RGBImage(width: size.width + 2 * pad.x, height: rows.count)
        strip.fill(colour)
        let pageRows = ((rows.lowerBound - pad.y)..<(rows.upperBound - pad.y)).clamped(to: 0..<size.height)
        if !pageRows.isEmpty {
            let part = try page.decode(fitting: size.width, size.height, rows: pageRows, kernel: .linear)
            strip.paste(part, x: pad.x, y: pageRows.lowerBound + pad.y - rows.lowerBound)
        }
        return strip
    }

    /// Runs `body` with the model loaded; `body` gets a function running the model on one input image
    /// (its map's size) and returning its probability map. Throws `InferenceError.signatureMismatch`.
    private func run<R: Sendable>(_ model: ModelDescriptor, store: ModelStore,
                                  _ body: @escaping @Sendable (_ run: (RGBImage) async throws -> FloatProbabilityMap) async throws -> R) async throws -> R {
        try await store.withModel(model) { handle in
            guard let name = handle.inputs.first?.name else {
                throw InferenceError.signatureMismatch(model: model.url.lastPathComponent, reason: "no input")
            }
            return try await body { input in
                let tensor = packImageTensor(input, order: .bgr, normalisation: Self.normalisation)
                let outputs = try await handle.run([name: tensor])
                guard let out = handle.outputs.first.flatMap({ outputs[$0.name] }), let values = out.floats,
                      out.shape.count == 4, values.count == out.shape[2] * out.shape[3] else {
                    throw InferenceError.signatureMismatch(model: model.url.lastPathComponent, reason: "expected a [1,1,H,W] map")
                }
                return FloatProbabilityMap(values: values, width: out.shape[3], height: out.shape[2])
            }
        }
    }

    /// The boxes of a map of `map`'s size, in page pixels (clamped to the page); boxes 3 pixels or less on a
    /// side once scaled are dropped.
    private func detections(_ boxes: [(rect: RotatedRect, score: Float)], page: ImageSource, map: (width: Int, height: Int)) -> [Detection] {
        let sx = Double(page.width) / Double(map.width), sy = Double(page.height) / Double(map.height)
        return boxes.compactMap { rect, score in
            let q = rect.quad.points.map { p in
                Point(x: min(max((p.x * sx).rounded(), 0), Double(page.width)),
                      y: min(max((p.y * sy).rounded(), 0), Double(page.height)))
            }
            let quad = Quad(q[0], q[1], q[2], q[3])
            guard quad.edgeWidth > 3, quad.edgeHeight > 3 else { return nil }
            return Detection(quad: quad, score: score)
        }
    }
}

extension DBPostprocess {
    /// The analysis of the `size` part of `map` that starts `pad` map pixels in from its top-left (the page's part
    /// of a padded map); of `map` itself when there is no padding.
    func analyse<Map: ProbabilityMap>(_ map: Map, within pad: (x: Int, y: Int), size: (width: Int, height: Int)) -> Analysis {
        pad == (0, 0) ? analyse(map) : analyse(MapWindow(base: map, x: pad.x, y: pad.y, width: size.width, height: size.height))
    }
}

/// The `width` × `height` part of a larger map whose top-left is at (`x`, `y`) in it.
struct MapWindow<Base: ProbabilityMap>: ProbabilityMap {
    let base: Base
    let x: Int
    let y: Int
    let width: Int
    let height: Int

    func probability(at index: Int) -> Float {
        base.probability(at: (index / width + y) * base.width + index % width + x)
    }
}

extension RGBImage {
    /// The image with `x` columns of `colour` on its left and right and `y` rows above and below (itself when both
    /// are 0).
    func padded(x: Int, y: Int, colour: (UInt8, UInt8, UInt8)) -> RGBImage {
        guard x > 0 || y > 0 else { return self }
        var out = RGBImage(width: width + 2 * x, height: height + 2 * y)
        out.fill(colour)
        out.paste(self, x: x, y: y)
        return out
    }

    /// The median colour, channel by channel, of the image's outermost rows and columns: its background where
    /// the page has a margin (white for an empty image).
    var edgeColour: (UInt8, UInt8, UInt8) {
        guard width > 0, height > 0 else { return (255, 255, 255) }
        var counts = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 3)
        var n = 0
        func add(_ x: Int, _ y: Int) {
            let i = (y * width + x) * 3
            for c in 0..<3 { counts[c][Int(pixels[i + c])] += 1 }
            n += 1
        }
        for x in 0..<width { add(x, 0); if height > 1 { add(x, height - 1) } }
        for y in 1..<max(1, height - 1) { add(0, y); if width > 1 { add(width - 1, y) } }
        func median(_ histogram: [Int]) -> UInt8 {
            var seen = 0
            for (level, count) in histogram.enumerated() {
                seen += count
                if 2 * seen > n { return UInt8(level) }
            }
            return 255
        }
        return (median(counts[0]), median(counts[1]), median(counts[2]))
    }
}

/// A page's probability map stitched from tiles, 8 bits per pixel (probability × 255, rounded): a quarter of
/// the float map's memory for a map that may be the page's size.
struct TiledProbabilityMap: ProbabilityMap {
    let width: Int
    let height: Int
    private var bytes: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        bytes = [UInt8](repeating: 0, count: width * height)
    }

    func probability(at index: Int) -> Float { Float(bytes[index]) / 255 }

    /// Copies the core of `tile` from its own map (`tileMap`, the tile's size).
    mutating func write(_ tileMap: FloatProbabilityMap, of tile: MapTile) {
        let c = tile.core
        let y1 = min(c.y1, height, tile.y + tileMap.height), x1 = min(c.x1, width, tile.x + tileMap.width)
        guard c.y0 >= tile.y, c.x0 >= tile.x, c.y0 < y1, c.x0 < x1 else { return }
        for y in c.y0..<y1 {
            let source = (y - tile.y) * tileMap.width - tile.x
            for x in c.x0..<x1 {
                bytes[y * width + x] = UInt8(min(255, max(0, (tileMap.values[source + x] * 255).rounded())))
            }
        }
    }
}
