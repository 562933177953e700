import Foundation

/// The engine: reads pages with one of the three model families, within a memory budget.
///
/// ```swift
/// let ocr = try KotenOCR(configuration: OCRConfiguration(mode: .ppocr, models: ModelDirectory(root: modelsURL)))
/// let page = try await ocr.read(URL(fileURLWithPath: "page.jpg"))
/// print(page.text)
/// ```
/// Models load lazily on first use through `store`, the one owner of every inference session.
public final class KotenOCR: @unchecked Sendable {
    /// The engine's version (`EngineVersion`).
    public static let version = EngineVersion.current

    public let configuration: OCRConfiguration
    /// The model store (budget, lazy loading, eviction, pressure release, events).
    public let store: ModelStore
    /// Releases inactive modes' models when memory runs short (started when
    /// `configuration.watchMemoryPressure` is set); observe it for what each release freed.
    package let pressure: MemoryPressureMonitor
    /// The run's diagnostics, if any: every page read records its stages, outcome and the store's events.
    public let diagnostics: RunDiagnostics?
    private let lock = NSLock()
    private var pipelines: [OCRMode: any ModePipeline] = [:]

    /// Throws `InferenceError` if ONNX Runtime cannot start. Changes no process-wide state unless the
    /// configuration asks for it (`OCRConfiguration.tuneAllocator`).
    public init(configuration: OCRConfiguration, diagnostics: RunDiagnostics? = nil) throws {
        if configuration.tuneAllocator { AllocatorPolicy.apply() }
        self.configuration = configuration
        self.diagnostics = diagnostics
        store = try ModelStore(budgetBytes: configuration.memoryBudgetBytes, sessionOptions: configuration.sessionOptions,
                               limiter: InferenceLimiter(limit: configuration.maxConcurrentInferences),
                               optimisedModels: configuration.optimisedModelCache.map(OptimisedModelCache.init(directory:)))
        pressure = MemoryPressureMonitor(store: store)
        if configuration.watchMemoryPressure {
            pressure.start(MemoryPressureMonitor.defaultSources(budgetBytes: store.budgetBytes))
        }
    }

    deinit { pressure.stop() }

    /// Opens page `page` (0-based) of `url` (header only) with the configured pixel limit, PDF resolution and
    /// damaged-data rule. Throws `ImageError` (recorded as a failed page in `diagnostics`).
    public func open(_ url: URL, page: Int = 0) throws -> ImageSource {
        try recordingFailure(name: url.path, page: page) {
            try ImageSource(url: url, page: page, pdfDPI: configuration.pdfDPI, maxPixels: configuration.maxPixels,
                            acceptsDamagedData: configuration.acceptDamagedImages)
        }
    }

    /// Opens page `page` (0-based) of the file at `file`, a path as the file system holds it, named `name` in
    /// results and errors (`file.display` when nil: `ImageSource.init(file:name:page:)`), as `open(_:page:)` does.
    package func open(file: FileSystemPath, name: String? = nil, page: Int = 0) throws -> ImageSource {
        try recordingFailure(name: name ?? file.display, page: page) {
            try ImageSource(file: file, name: name, page: page, pdfDPI: configuration.pdfDPI, maxPixels: configuration.maxPixels,
                            acceptsDamagedData: configuration.acceptDamagedImages)
        }
    }

    /// Opens page `page` (0-based) of an encoded image in memory (the bytes of a JPEG, PNG, TIFF, PDF, ...
    /// file; copied once), named `name` in results and errors, with the configured pixel limit, PDF resolution
    /// and damaged-data rule. Throws `ImageError` (recorded as a failed page in `diagnostics`).
    public func open(_ data: Data, name: String = ImageSource.memoryName, page: Int = 0) throws -> ImageSource {
        try recordingFailure(name: name, page: page) {
            try ImageSource(data: data, name: name, page: page, pdfDPI: configuration.pdfDPI, maxPixels: configuration.maxPixels,
                            acceptsDamagedData: configuration.acceptDamagedImages)
        }
    }

    /// Reads one page. Throws `ImageError` (the file), `ModelError` (the models), `InferenceError`,
    /// `ModelStoreError` (the budget), `CancellationError` (the task was cancelled).
    public func read(_ url: URL, page: Int = 0, mode: OCRMode? = nil) async throws -> PageResult {
        try await read(open(url, page: page), mode: mode)
    }

    /// Reads page `page` of an encoded image in memory (see `open(_:name:page:)`). Throws as `read(_:page:mode:)`.
    public func read(_ data: Data, name: String = ImageSource.memoryName, page: Int = 0, mode: OCRMode? = nil)
        async throws -> PageResult {
        try await read(open(data, name: name, page: page), mode: mode)
    }

    private func recordingFailure(name: String, page: Int, _ open: () throws -> ImageSource) throws -> ImageSource {
        do {
            return try open()
        } catch {
            diagnostics?.recordFailure(path: name, page: page + 1, stage: PipelineStage.decode.rawValue,
                                       reason: String(describing: error))
            throw error
        }
    }

    /// Reads an opened page — from a file, encoded bytes or pixels in memory — with `mode` (default: the configured
    /// one). With `diagnostics`, the page's stages and outcome are recorded. Cancelling the task stops the page
    /// within about one model run: every model run first checks for cancellation, so the runs in flight finish
    /// and no other starts; throws `CancellationError`. While a `LineProgress` observer is bound
    /// (`LineProgress.observing`), it hears how many lines the page has and each line read.
    public func read(_ source: ImageSource, mode: OCRMode? = nil) async throws -> PageResult {
        try Task.checkCancellation()
        guard let diagnostics else { return try await readPage(source, mode: mode ?? configuration.mode) }
        let page = try await diagnostics.page(path: source.name, page: source.page + 1) {
            try await readPage(source, mode: mode ?? configuration.mode)
        }
        if let summary = page.detector, summary.tiled {
            diagnostics.recordTiledPage(path: source.name, page: source.page + 1, summary: summary)
        }
        return page
    }

    /// Reads a page with `mode`'s pipeline. Each of the page's stages returns what it freed to the system when
    /// it ends (`StageBoundary`), so the next stage, and the next page's detector, start from what is live.
    private func readPage(_ source: ImageSource, mode: OCRMode) async throws -> PageResult {
        let pipeline = try await activate(mode)
        return try await LineProgress.page {
            try await pipeline.read(source, store: store, limit: configuration.maxConcurrentInferences)
        }
    }

    /// The pipeline of `mode`, its models registered with the store, the mode active, diagnostics attached.
    func activate(_ mode: OCRMode) async throws -> any ModePipeline {
        let pipeline = try self.pipeline(for: mode)
        await store.register(mode, models: pipeline.models)
        await store.activate(mode)
        if let diagnostics {
            await diagnostics.attach(store)
            diagnostics.noteMode(mode, models: pipeline.models, budgetBytes: store.budgetBytes)
        }
        return pipeline
    }

    /// Checks `mode`'s models (default: the configured one) now: ONNX Runtime loads each file, its inputs and
    /// outputs are what the mode needs, its charset and classes fit. `read` does the same on first use; call
    /// this to fail early (the CLI does, before reading any page). What was loaded for the check is kept for the
    /// pages, so no model loads twice (`keepLoaded` nil, the default): all of it when the budget has room beside it
    /// for the mode's largest run, else the models used last are released first until it has
    /// (`ModelStore.keepWhatFits`); `true` keeps every model, `false` releases every one (pages then load them
    /// lazily, stage by stage). Throws `ModelError` (`.missingFiles`, `.invalidFile` naming the file and what is
    /// wrong), `ModelStoreError`.
    public func prepare(_ mode: OCRMode? = nil, keepLoaded: Bool? = nil) async throws {
        let mode = mode ?? configuration.mode
        let pipeline = try await activate(mode)
        // A first run after an install writes the optimised models' cache first, each model alone (ModelStore).
        _ = await store.writeMissingOptimisedForms(of: mode)
        try await pipeline.prepare(store: store)
        switch keepLoaded {
        case true?: break
        case false?: await store.releaseAll(reason: "checked before the first page; loaded again on first use")
        case nil: await store.keepWhatFits(pipeline.models)
        }
        MappedLibraryPages.release()  // the session-creation code the check touched is not needed by the pages
    }

    /// The pipeline of `mode`, built on first use by its wing (the registry's `OCRMode.descriptor`) from the
    /// files the model folder holds (checked once: `ModelDirectory.files(for:)`; configuration files read and
    /// checked; models load later). Throws `ModelError.missingFiles` naming what is missing,
    /// `ModelError.invalidFile`.
    package func pipeline(for mode: OCRMode) throws -> any ModePipeline {
        lock.lock()
        defer { lock.unlock() }
        if let p = pipelines[mode] { return p }
        let descriptor = mode.descriptor
        let p = try descriptor.pipeline(files: configuration.models.files(for: descriptor), configuration: configuration)
        pipelines[mode] = p
        return p
    }
}
