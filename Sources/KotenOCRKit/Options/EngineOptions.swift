import Foundation

/// The engine's options, which `koten-ocr` and `koten-ocr serve` both take and read with the same vocabulary
/// (`OptionVocabulary`), and the one place they become an `OCRConfiguration` (`configuration(mode:models:)`).
package struct EngineOptions: Sendable {
    package var mode: OCRMode?
    package var models: String?
    package var memoryBudget: Int?
    package var jobs = OCRConfiguration.defaultConcurrentInferences
    package var maxPixels = ImageSource.defaultMaxPixels
    package var detectorMaxSide: Int?
    package var orientationClassifier = true
    package var minLineConfidence: Float = 0.5
    package var secondLook = true
    package var verticalPunctuation = true
    package var readingOrder = OCRConfiguration.ReadingOrderStyle.page
    /// nil: `auto`.
    package var pageRotation: PageRotation?
    package var acceptDamagedImages = false
    package var pdfDPI = 300
    /// `--no-model-cache`: optimise every model at every load and keep nothing (`OCRConfiguration.optimisedModelCache`).
    package var modelCache = true

    package init() {}

    /// Reads the option `reader` is at, with its value, when it is one of the engine's; false when it is not.
    package mutating func take(_ reader: inout ArgumentReader) throws(OptionError) -> Bool {
        let vocabulary = OptionVocabulary.self
        switch reader.flag {
        case "-m", "--mode": mode = try reader.value(vocabulary.mode)
        case "--models": models = try reader.value()
        case "--memory-budget": memoryBudget = try reader.value(vocabulary.size("memory-budget"))
        case "-j", "--jobs": jobs = try reader.value(vocabulary.wholeNumber("jobs"))
        case "--max-pixels": maxPixels = try reader.value(vocabulary.wholeNumber("max-pixels"))
        // A map larger than one run can take is read in tiles, but time still grows with its area.
        case "--det-max-side": detectorMaxSide = try reader.value(vocabulary.wholeNumber("det-max-side", min: 32, max: 4096))
        case "--no-orientation-classifier": orientationClassifier = false
        case "--no-second-look": secondLook = false
        case "--no-vertical-punctuation": verticalPunctuation = false
        case "--min-line-confidence": minLineConfidence = try reader.value(vocabulary.minLineConfidence)
        case "--reading-order": readingOrder = try reader.value(vocabulary.readingOrder)
        case "--page-rotation": pageRotation = try reader.value(vocabulary.pageRotation)
        case "--accept-damaged-images": acceptDamagedImages = true
        case "--pdf-dpi": pdfDPI = try reader.value(vocabulary.wholeNumber("pdf-dpi", min: 10))
        case "--no-model-cache": modelCache = false
        default: return false
        }
        return true
    }

    /// The configuration these options ask for, in `mode` with the models of `models`: the only place a command
    /// line's options become an `OCRConfiguration`. The allocator policy is opted in (the process is the command's),
    /// memory pressure is watched, and the optimised models are kept in the user's cache unless `--no-model-cache`.
    package func configuration(mode: OCRMode, models: ModelDirectory) -> OCRConfiguration {
        var config = OCRConfiguration(mode: mode, models: models, memoryBudgetBytes: memoryBudget,
                                      maxConcurrentInferences: jobs, maxPixels: maxPixels,
                                      ppocrDetectorMaxSide: detectorMaxSide, ppocrOrientationClassifier: orientationClassifier,
                                      pdfDPI: Double(pdfDPI), tuneAllocator: true, watchMemoryPressure: true)
        config.acceptDamagedImages = acceptDamagedImages
        config.ppocrMinLineConfidence = minLineConfidence
        config.ppocrSecondLook = secondLook
        config.ppocrVerticalPunctuation = verticalPunctuation
        config.readingOrder = readingOrder
        config.pageRotation = pageRotation
        config.optimisedModelCache = modelCache ? OptimisedModelCache.defaultDirectory() : nil
        return config
    }
}
