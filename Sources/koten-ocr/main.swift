import Foundation
import KotenOCRKit

InferenceEnvironment.keepTelemetryOff()  // before any thread starts (docs/privacy.md)
let status = await CLI.run(Array(CommandLine.arguments.dropFirst()))
// The benchmark's attribution (docs/performance.md, "Speed"): the time inside each model's runs, to standard error.
if ProcessInfo.processInfo.environment["KOTEN_OCR_REPORT_MODEL_RUNS"] == "1" {
    FileHandle.standardError.write(Data(ModelRunTimes.report().utf8))
}
exit(status)
