/// The recognition stage of a pipeline: reads the text of one line of a page. The `ndl` and `koten`
/// pipelines hand it the page and each line's crop (the NDL cascade chooses one of its readers per read,
/// by the line's predicted length and the earlier readings); `ppocr` hands it each line already cut and
/// turned upright, the crop covering the whole line image. The modes' own are `PARSeqRecogniser` and
/// `PPOCRLineReader`; `OCRConfiguration.stages` supplies another. The parity tests drive the cascade and
/// the koten reads with answer tables instead (`NDLCascade.read`, `KotenRecognition.read`), so `Reading`
/// may be a bare `String` there.
public protocol LineReader<Reading>: Sendable {
    associatedtype Reading: LineReading
    /// The models it runs (registered with the store, listed in the page's result); none for a reader
    /// without models.
    var models: [ModelDescriptor] { get }
    /// Loads its models through `store` and checks them (what `read` otherwise meets on first use).
    /// Throws `ModelError.invalidFile` naming the file and what is wrong, `ModelStoreError`.
    func prepare(store: ModelStore) async throws
    /// Reads `crop` (xyxy pixels, non-empty, inside `page`) of `page` (8-bit RGB). Runs its models through
    /// `store` (and so through the inference limiter). Throws `InferenceError`, `ModelStoreError`,
    /// `ModelError.invalidFile`.
    func read(_ crop: PixelBox, of page: RGBImage, store: ModelStore) async throws -> Reading
    /// Reads `lines`, one reading per line in their order, at most `limit` model runs in flight. The modes' own
    /// readers run lines of similar input size together in batched runs as large as the store allows
    /// (`ModelStore.batchAllowance`, docs/performance.md "Batched recognition"); the default reads them one by one
    /// with `read(_:of:store:)`, `limit` at a time. Each line read counts for the page's `LineProgress` (a batch's
    /// lines when its run ends). Throws what `read(_:of:store:)` throws.
    func read(_ lines: [LineRegion], store: ModelStore, limit: Int) async throws -> [Reading]
}

extension LineReader {
    public var models: [ModelDescriptor] { [] }
    public func prepare(store: ModelStore) async throws {}

    public func read(_ lines: [LineRegion], store: ModelStore, limit: Int) async throws -> [Reading] {
        try await boundedMap(lines, limit: limit) { line in
            let reading = try await read(line.crop, of: line.page, store: store)
            LineProgress.lineRead()
            return reading
        }
    }
}

/// One line for a `LineReader`: the rectangle `crop` (xyxy pixels, inside `page`) of a page image (8-bit RGB). The
/// `ppocr` pipeline gives each line cut and turned upright, the crop covering it all; the NDL modes give the page
/// with each line's box.
public struct LineRegion: Sendable {
    public var crop: PixelBox
    public var page: RGBImage

    public init(_ crop: PixelBox, of page: RGBImage) {
        self.crop = crop
        self.page = page
    }

    /// All of `image`.
    public init(wholeOf image: RGBImage) {
        self.init(PixelBox(x1: 0, y1: 0, x2: image.width, y2: image.height), of: image)
    }

    /// The pixels of the crop (the page itself when the crop covers it).
    public var image: RGBImage {
        crop == PixelBox(x1: 0, y1: 0, x2: page.width, y2: page.height)
            ? page : page.cropped(x: crop.x1, y: crop.y1, width: crop.width, height: crop.height)
    }
}
