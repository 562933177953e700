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
}

extension LineReader {
    public var models: [ModelDescriptor] { [] }
    public func prepare(store: ModelStore) async throws {}
}
