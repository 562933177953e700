/// What a page detector found: its regions, and the page decoded at full resolution when that is what it
/// decoded (the pipeline cuts lines from it instead of decoding the page again), else nil.
public struct DetectedPage<Region: Sendable>: Sendable {
    /// The regions found, in pixels of the upright page.
    public var detections: [Region]
    /// The full-resolution page (8-bit RGB, upright), when the detector decoded it so.
    public var page: RGBImage?
    /// The detector's passes over the page (scale, map size, tiles), when its scale depends on the page
    /// (ppocr's `DBDetector`); written in the page's JSON.
    public var summary: PageResult.DetectorSummary?
    /// The page as the detector read it when that is not the page given (ppocr's `DBDetector`: a page cleaned of salt
    /// and pepper, `SaltAndPepper`): the later stages cut their crops from it. Nil: the page given.
    public var source: ImageSource?

    public init(detections: [Region], page: RGBImage? = nil, summary: PageResult.DetectorSummary? = nil) {
        self.detections = detections
        self.page = page
        self.summary = summary
    }
}

/// The detection stage of a pipeline: finds the regions of a page. `Region` is what the mode's later stages
/// read: `Detection` (ppocr: line quadrilaterals), `NDLDetection` (ndl: layout classes and char-count
/// classes), `KotenDetection` (koten: line boxes). The modes' own are `DBDetector` and
/// `PaddedSquareDetector` (DEIM, RTMDet); `OCRConfiguration.stages` supplies another.
/// Reference: docs/reference-pipelines.md §1.2, §2.1, §4.
public protocol PageDetector<Region>: Sendable {
    associatedtype Region: Sendable
    /// The models it runs (registered with the store, listed in the page's result); none for a detector
    /// without models.
    var models: [ModelDescriptor] { get }
    /// Loads its models through `store` and checks their signatures (what `detect` otherwise meets on first
    /// use). Throws `ModelError.invalidFile` naming the file and what is wrong, `ModelStoreError`.
    func prepare(store: ModelStore) async throws
    /// Decodes what it needs of `page` (at reduced size where it can, resized before any padding) and returns
    /// the regions it found. Runs its models through `store`. Throws `ImageError`, `InferenceError`,
    /// `ModelStoreError`, `ModelError.invalidFile`, `DetectorOutputError`.
    func detect(_ page: ImageSource, store: ModelStore) async throws -> DetectedPage<Region>
}

extension PageDetector {
    public var models: [ModelDescriptor] { [] }
    public func prepare(store: ModelStore) async throws {}
}
