import Foundation
import KotenOCRKit

/// What the runtime baseline is made of: this process's resident memory by mapping (/proc/self/smaps), grouped by
/// what put it there, each split into clean file pages (code and read-only data identical to their files, which the
/// kernel can drop and Darwin's footprint never counts) and private dirty pages (heap, stacks, relocated data).
enum BaselineBreakdown {
    static let groups = ["ONNX Runtime library", "Swift runtime and Foundation", "libvips and its loaders' libraries",
                         "other shared libraries (libc, libstdc++, …)", "koten-ocr-bench executable", "heap, stacks, anonymous"]

    /// kB by group and kind ("clean", "dirty") of the process now.
    static func now() -> [String: Double] {
        var kb: [String: Double] = [:]
        guard let text = ResidentReader.procText("/proc/self/smaps") else { return kb }
        var group = groups[5]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-"), fields.count >= 5, first.first?.isHexDigit == true, !first.hasSuffix(":") {
                group = classify(fields.count >= 6 ? String(fields[5...].joined(separator: " ")) : "")
            } else if fields.count >= 2, let v = Double(fields[1]) {
                switch first {
                case "Shared_Clean:", "Private_Clean:": kb[group + "|clean", default: 0] += v
                case "Shared_Dirty:", "Private_Dirty:": kb[group + "|dirty", default: 0] += v
                default: break
                }
            }
        }
        return kb
    }

    static func classify(_ path: String) -> String {
        let name = (path as NSString).lastPathComponent
        if !path.hasPrefix("/") { return groups[5] }
        if name.hasPrefix("libonnxruntime") { return groups[0] }
        if name.hasPrefix("libswift") || name.hasPrefix("libFoundation") || name.hasPrefix("lib_Foundation")
            || name.hasPrefix("libdispatch") || name.hasPrefix("libBlocksRuntime") { return groups[1] }
        if name == "koten-ocr-bench" { return groups[4] }
        let vipsDeps = ["libvips", "libpoppler", "librsvg", "libheif", "libx265", "libde265", "libOpenEXR", "libImath", "libgsf",
                        "libtiff", "libjpeg", "libpng", "libwebp", "libgif", "libcfitsio", "libmatio", "libnifti", "libopenjp2",
                        "libspng", "libexif", "liblcms", "libfftw", "libMagick", "libcairo", "libpango", "liborc", "libarchive",
                        "libcgif", "libimagequant", "libjxl", "libhwy", "libOpenSlide", "libopenslide", "libhdf5", "libfontconfig",
                        "libfreetype", "libharfbuzz", "libxml2", "libgnutls", "libcrypto", "libdav1d", "libaom", "librav1e"]
        if vipsDeps.contains(where: { name.hasPrefix($0) }) { return groups[2] }
        return groups[3]
    }

    /// The child case: the breakdown after the process starts, after libvips starts (a page is opened), after ONNX
    /// Runtime's environment starts (the engine is made) as before this change (library pages kept), and as the engine
    /// leaves it (its start-up library pages unmapped, `MappedLibraryPages`).
    static func run(photo: String) throws {
        var report = BenchReport(name: "baseline", peakBytes: 0, baselineBytes: ResidentReader.bytes(), seconds: 0)
        func record(_ stage: String) {
            for (k, v) in now() { report.facts["\(stage)|\(k)"] = v }
            report.facts["\(stage)|total"] = Double(ResidentReader.bytes()) / 1024
        }
        record("start")
        _ = try ImageSource(url: URL(fileURLWithPath: photo))
        record("libvips")
        _ = try InferenceEnvironment.shared()
        record("onnxruntime")
        let released = MappedLibraryPages.release()
        record("released")
        report.facts["releasedBytes"] = Double(released)
        report.peakBytes = ProcessMemory.highWaterMarkBytes()
        try BenchReport.emit(report)
    }

    /// The table the memory benchmark prints from the child's report.
    static func table(_ r: BenchReport) -> [String] {
        let stages = [("start", "process started"), ("libvips", "+ libvips (page opened)"), ("onnxruntime", "+ ONNX Runtime environment"),
                      ("released", "start-up library pages unmapped (engine)")]
        var lines = ["| resident by mapping (MB, clean + dirty) | " + stages.map(\.1).joined(separator: " | ") + " |",
                     "|---|" + stages.map { _ in "---|" }.joined()]
        for g in groups {
            let cells = stages.map { s -> String in
                let c = (r.facts["\(s.0)|\(g)|clean"] ?? 0) / 1000 * 1.024, d = (r.facts["\(s.0)|\(g)|dirty"] ?? 0) / 1000 * 1.024
                return String(format: "%.1f (%.1f + %.1f)", c + d, c, d)
            }
            lines.append("| \(g) | " + cells.joined(separator: " | ") + " |")
        }
        lines.append("| **total resident** | " + stages.map { String(format: "**%.1f**", (r.facts["\($0.0)|total"] ?? 0) * 1.024 / 1000) }.joined(separator: " | ") + " |")
        return lines
    }
}
