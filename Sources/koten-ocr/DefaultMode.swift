import Foundation
import KotenOCRKit

/// The mode and formats used when the command line names none.
enum DefaultMode {
    /// `koten` when NDL Koten OCR-Lite's models are installed (in `--models DIR`, else on the model search
    /// path); otherwise the first installed of `ppocr`, `ndl` (`ppocr` when none is), with one line on
    /// standard error saying so and how to install NDL's models (unless `quiet`).
    static func choose(models path: String?, quiet: Bool,
                       environment: [String: String] = ProcessInfo.processInfo.environment) -> OCRMode {
        func installed(_ mode: OCRMode) -> Bool {
            if let path { return ModelDirectory(root: URL(fileURLWithPath: path)).isInstalled(mode) }
            return ModelDirectory.locate(mode, environment: environment) != nil
        }
        if installed(.koten) { return .koten }
        let mode = [OCRMode.ppocr, .ndl].first(where: installed) ?? .ppocr
        if !quiet {
            stderrLine("koten-ocr: using mode \(mode): NDL Koten OCR-Lite's models are not installed (get NDL's models, "
                       + "then `koten-ocr models install --mode koten|ndl SOURCE`; `koten-ocr models` shows what is where)")
        }
        return mode
    }

    /// Standard output: `txt`. An output folder: `txt`, `json`, and `xml` (NDL XML) for the NDL modes.
    static func formats(for mode: OCRMode, toDirectory: Bool) -> [ResultFormat] {
        guard toDirectory else { return [.txt] }
        return mode == .ppocr ? [.txt, .json] : [.txt, .json, .xml]
    }
}
