import Foundation
import KotenOCRKit

/// The entry points fuzzed (docs/reliability.md, "Fuzzing"): bytes in, no crash, no memory error, whatever the
/// bytes. Each takes one input and throws nothing: a refusal is the expected outcome for most inputs.
enum FuzzTargets {
    /// The target chosen by `KOTEN_FUZZ_TARGET` (`image`, `pdf`, `manifest`; default `image`).
    static let chosen: @Sendable (Data) -> Void = {
        switch ProcessInfo.processInfo.environment["KOTEN_FUZZ_TARGET"] ?? "image" {
        case "pdf": return pdf
        case "manifest": return manifest
        default: return image
        }
    }()

    /// A page from encoded bytes (`ImageSource(data:)`, the path of `koten-ocr -` and of an app's bytes): its
    /// header, then a reduced and a full decode, under a small pixel limit so each input is quick.
    static func image(_ data: Data) {
        guard let source = try? ImageSource(data: data, name: "fuzz", maxPixels: 1 << 20, acceptsDamagedData: false) else { return }
        _ = try? source.decode(fitting: 32, 32)
        _ = try? source.decode()
        if source.pageCount > 1, let last = try? ImageSource(data: data, name: "fuzz", page: source.pageCount - 1, maxPixels: 1 << 20) {
            _ = try? last.decode()
        }
        let lenient = try? ImageSource(data: data, name: "fuzz", maxPixels: 1 << 20, acceptsDamagedData: true)
        _ = try? lenient?.decode()
    }

    /// A PDF page: the bytes behind a PDF header when they have none, so every input reaches the PDF loader
    /// (poppler through libvips), rendered at a low resolution.
    static func pdf(_ data: Data) {
        let header = Data("%PDF-".utf8)
        let bytes = data.starts(with: header) ? data : header + data
        guard let source = try? ImageSource(data: bytes, name: "fuzz.pdf", pdfDPI: 18, maxPixels: 1 << 20) else { return }
        _ = try? source.decode()
        if source.pageCount > 1, let last = try? ImageSource(data: bytes, name: "fuzz.pdf", page: source.pageCount - 1, pdfDPI: 18,
                                                              maxPixels: 1 << 20) {
            _ = try? last.decode()
        }
    }

    /// The batch manifest reader (`BatchManifest.records(in:)`, what `--resume` trusts), and the byte-level name
    /// handling an input list goes through (`InputCollector.paths(inList:)`, `FileSystemPath`).
    static func manifest(_ data: Data) {
        for (key, record) in BatchManifest.records(in: data) {
            _ = key.description
            _ = record.outputs.map { PageTask.fitted($0.file) }
        }
        for path in InputCollector.paths(inList: data) {
            _ = path.display
            _ = path.standardized.lastComponent
        }
    }
}
