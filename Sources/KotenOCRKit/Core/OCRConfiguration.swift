import Foundation

/// How an engine is set up. Every field has a memory-first default.
public struct OCRConfiguration: Sendable {
    /// The mode `read` uses when none is given.
    public var mode: OCRMode
    /// Where the models are (see `ModelDirectory`).
    public var models: ModelDirectory
    /// Memory budget in bytes for the whole process; nil = the cgroup limit or physical memory.
    public var memoryBudgetBytes: Int?
    /// Most model runs in flight at once, across all stages (≥ 1; default: the usable CPUs, at most 4 —
    /// `UsableCPUs`). A run takes one slot per intra-op thread (a detector run takes them all).
    public var maxConcurrentInferences: Int
    /// ONNX Runtime session options for every model (threads, arena, graph optimisation; the CLI and the
    /// benchmarks set them, an app keeps the defaults).
    package var sessionOptions = SessionOptions()
    /// Images with more pixels are refused before decoding.
    public var maxPixels: Int
    /// PP-OCR: the longer side of the detector's map for one pass at a fixed scale; nil (default): the scale
    /// fits the page (a first pass at 960, a finer one where the text is too thin; `DetectorScale`).
    public var ppocrDetectorMaxSide: Int?
    /// PP-OCR: run the 0°/180° line classifier.
    public var ppocrOrientationClassifier: Bool
    /// PP-OCR: lines whose recognition confidence (the mean of their characters' probabilities) is under this
    /// are flagged `lowConfidence`: kept in the JSON, left out of the text outputs (0 keeps every line; default
    /// 0.5, RapidOCR's `text_score`). Lines with no text are dropped whatever this is.
    public var ppocrMinLineConfidence: Float = 0.5
    /// PP-OCR: lines read with a confidence under 0.95 (and at or above `ppocrMinLineConfidence`) are cut again
    /// with a margin and read again, the more confident reading kept (`SecondLook`; docs/reference-pipelines.md
    /// §4, "Step 4, second look"). Off: each line is read once, in its detector box, as PaddleOCR reads it.
    public var ppocrSecondLook = true
    /// PP-OCR: the 、, 。 and ー of vertical lines, which the recogniser passes over, are looked for in the lines' pixels
    /// and inserted where they stand (`VerticalPunctuation`; docs/reference-pipelines.md §4, "Step 4, vertical
    /// punctuation"). Off: vertical lines read as PaddleOCR reads them.
    public var ppocrVerticalPunctuation = true
    /// PDF pages are rendered at this resolution.
    public var pdfDPI: Double
    /// The reading order lines are put in, every mode: `page` (default: in the page's own frame, deskewed, lines
    /// by writing direction) or `ndl` (NDL's code exactly; the parity goldens' order). `ReadingOrderStyle`.
    public var readingOrder: ReadingOrderStyle = .page
    /// How every page is turned from upright: nil (default) tells it from each page (ppocr: the lines' shapes and
    /// the orientation classifier's votes; ndl and koten: upright); a value turns every page back by it before
    /// it is read. Coordinates are reported in the upright page (`PageResult.rotation`).
    public var pageRotation: PageRotation? = nil
    /// Read images whose decoder reports damaged data (default false: such a page fails with
    /// `ImageError.truncated`/`.corrupt` instead of yielding wrong text). Applies to the images this engine
    /// opens (`KotenOCR.open`), not process-wide.
    public var acceptDamagedImages: Bool = false
    /// Apply `AllocatorPolicy` (glibc: a fixed 128 KiB mmap threshold, at most 2 arenas, a 1 MiB trim threshold)
    /// when the engine starts. Off by default, because it changes the whole process's allocator: a host
    /// application opts in (`koten-ocr` does; docs/memory-design.md says what it saves). Stage boundaries
    /// return freed heap pages to the system (`malloc_trim`) either way.
    public var tuneAllocator: Bool
    /// A folder where ONNX Runtime's optimised form of each model is kept between processes, so that a model loads
    /// without its graph being optimised again: about half of every session's load (the PP-OCRv5 models 0.24 →
    /// 0.14 s; docs/performance.md, "Start-up: the optimised models kept"). The first load of a model writes its
    /// entry; a replaced model file, another ONNX Runtime or another CPU gets its own. Nil (default): every load
    /// optimises the graph and nothing is written. The command line uses `OptimisedModelCache.defaultDirectory()`
    /// (`~/.cache/koten-ocr/optimised-models`) unless `--no-model-cache`; an app may give its caches folder.
    public var optimisedModelCache: URL? = nil
    /// Stages supplied in place of a mode's own, by mode (tests, apps), e.g.
    /// `[.ppocr: StageOverrides(detector: myDetector)]`; a mode without an entry uses its own stages.
    /// Checked when the mode's pipeline is built (`StageError.mismatch`).
    public var stages: [OCRMode: StageOverrides] = [:]
    /// Watch for memory pressure (Linux: PSI and a resident watchdog against the budget; Apple: the system's
    /// memory-pressure source and UIKit's warning) and release inactive modes' models when it comes.
    public var watchMemoryPressure: Bool

    /// The usable CPUs (affinity mask, cgroup quota), at most 4: as many runs as there are CPUs for them.
    public static var defaultConcurrentInferences: Int { min(4, UsableCPUs.count) }

    public init(mode: OCRMode = .ppocr, models: ModelDirectory, memoryBudgetBytes: Int? = nil,
                maxConcurrentInferences: Int = OCRConfiguration.defaultConcurrentInferences,
                maxPixels: Int = ImageSource.defaultMaxPixels, ppocrDetectorMaxSide: Int? = nil,
                ppocrOrientationClassifier: Bool = true, pdfDPI: Double = 300, tuneAllocator: Bool = false,
                watchMemoryPressure: Bool = true) {
        self.mode = mode
        self.models = models
        self.memoryBudgetBytes = memoryBudgetBytes
        self.maxConcurrentInferences = max(1, maxConcurrentInferences)
        self.maxPixels = maxPixels
        self.ppocrDetectorMaxSide = ppocrDetectorMaxSide
        self.ppocrOrientationClassifier = ppocrOrientationClassifier
        self.pdfDPI = pdfDPI
        self.tuneAllocator = tuneAllocator
        self.watchMemoryPressure = watchMemoryPressure
    }
}
