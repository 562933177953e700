import Foundation
import KotenOCRKit

/// The mode and formats used when the command line names none.
enum DefaultMode {
    /// `koten` when NDL Koten OCR-Lite's models are installed (in `--models DIR`, else on the model search
    /// path); otherwise the first installed of `ppocr`, `ndl` (`ppocr` when none is). Chosen from the search
    /// path, a mode other than koten is announced with one line on standard error saying how to install NDL's
    /// models (unless `quiet`); with `--models DIR` the folder decides silently.
    static func choose(models path: String?, quiet: Bool,
                       environment: [String: String] = ProcessInfo.processInfo.environment) -> OCRMode {
        func installed(_ mode: OCRMode) -> Bool {
            if let path { return ModelDirectory(root: URL(fileURLWithPath: path)).isInstalled(mode.descriptor) }
            return ModelDirectory.locate(mode.descriptor, environment: environment) != nil
        }
        if installed(.koten) { return .koten }
        let mode = [OCRMode.ppocr, .ndl].first(where: installed) ?? .ppocr
        if path == nil && !quiet {
            stderrLine("koten-ocr: using mode \(mode): NDL Koten OCR-Lite's models are not installed (get NDL's models, "
                       + "then `koten-ocr models install --mode koten|ndl SOURCE`; `koten-ocr models` shows what is where)")
        }
        return mode
    }

    /// Standard output: `txt`. An output folder: the mode's defaults (`ModeDescriptor.defaultFormats`: `txt`,
    /// `json`, and `xml` (NDL XML) for the NDL modes).
    static func formats(for mode: OCRMode, toDirectory: Bool) -> [ResultFormat] {
        guard toDirectory else { return [.txt] }
        return mode.descriptor.defaultFormats
    }

    /// Why `formats` cannot be written in this run, if they cannot: a reference format in a mode without it, a
    /// binary format (`pdf`, `viz`) without --output, or the run's TEI with --resume or --shard (it is one
    /// document of the pages one run reads).
    static func formatProblem(_ formats: [ResultFormat], mode: OCRMode, arguments: Arguments) -> String? {
        if let unsupported = formats.first(where: { !$0.supports(mode) }) {
            return "--format \(unsupported.rawValue) is not available in mode \(mode) (\(unsupported == .tei ? "koten" : "ndl and koten") only)"
        }
        if arguments.output == nil, !arguments.inputs.contains("-"), let binary = formats.first(where: { !$0.isText }) {
            return "--format \(binary.rawValue) writes files: give --output DIR"
        }
        if arguments.output == nil, formats.contains(.iiif) {
            return "--format iiif writes annotation pages and a manifest that reference each other: give --output DIR"
        }
        if formats.contains(.tei) && (arguments.resume || arguments.shard != nil) {
            return "--format tei writes one document of the pages read in one run; it cannot be combined with --resume or --shard"
        }
        return nil
    }
}
