import Foundation

/// A model root holding all three modes for the benchmarks: `ppocr/` from the installed models, `ndl/` and
/// `koten/` from the stand-ins (symbolic links in a temporary folder).
enum ModelRoot {
    static func combined(ppocr: URL, standins: URL) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("koten-ocr-bench-models-\(getpid())")
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let ppocrDir = FileManager.default.fileExists(atPath: ppocr.appendingPathComponent("ppocr").path)
            ? ppocr.appendingPathComponent("ppocr") : ppocr
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("ppocr"), withDestinationURL: ppocrDir)
        for mode in ["ndl", "koten"] {
            try FileManager.default.createSymbolicLink(at: root.appendingPathComponent(mode),
                                                       withDestinationURL: standins.appendingPathComponent(mode))
        }
        return root
    }
}
