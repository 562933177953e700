import Foundation
import KotenOCRKit
import KotenOCRTestSupport

/// `koten-ocr-bench batch`: what a batch costs besides reading pages — planning (each input's header),
/// the manifest's fsync'd lines, the SHA-256 check of `--resume`, and refusing decompression bombs.
struct BatchBenchmark {
    var files = 2000
    var pages = 200

    init(arguments: [String]) throws {
        var i = 0
        while i < arguments.count {
            let flag = arguments[i]
            guard i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0 else {
                throw BenchError.usage("\(flag) needs a whole number")
            }
            switch flag {
            case "--files": files = n
            case "--pages": pages = n
            default: throw BenchError.usage("unknown option \(flag)")
            }
            i += 2
        }
    }

    func run() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("koten-ocr-bench-batch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let corpus = root.appendingPathComponent("corpus")
        try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: true)
        let page = RGBImage(width: 64, height: 32)
        for i in 1...files { try ImageWriter.save(page, to: corpus.appendingPathComponent("\(i).png")) }
        try ImageWriter.saveMultiPageTIFF([RGBImage](repeating: page, count: pages), to: root.appendingPathComponent("book.tif"))

        print("# Batch benchmark\n")
        print("\(ProcessInfo.processInfo.activeProcessorCount) cores; temporary folder \(FileManager.default.temporaryDirectory.path).\n")
        print("| step | items | total | per item |")
        print("|---|---|---|---|")
        let output = root.appendingPathComponent("out")
        time("plan a folder of single-page PNGs (file type from the first bytes)", files) {
            _ = try BatchPlan.prepare([corpus.path], options: BatchOptions(formats: [.txt]))
        }
        time("plan it into an output folder (manifest read, results looked for)", files) {
            _ = try BatchPlan.prepare([corpus.path], options: BatchOptions(outputDirectory: output, formats: [.txt, .json]))
        }
        time("plan shard 1/4 of it", files) {
            _ = try BatchPlan.prepare([corpus.path], options: try { var o = BatchOptions(formats: [.txt]); o.shard = try Shard(index: 1, count: 4); return o }())
        }
        time("count the pages of a \(pages)-page TIFF (one header walk)", 1) {
            _ = try ImageSource.pageCount(of: root.appendingPathComponent("book.tif"))
        }
        let writer = try BatchManifest.Writer(url: output.appendingPathComponent(BatchManifest.fileName(shard: nil)))
        time("manifest: `started` + `done` lines, each fsync'd", pages) {
            for n in 1...pages {
                let files = [BatchManifest.Record.Output(file: "\(n).txt", sha256: nil)]
                try writer.append(.init(state: .started, input: "\(n).png", key: "\(n).png#1", page: 1, outputs: files))
                try writer.append(.init(state: .done, input: "\(n).png", key: "\(n).png#1", page: 1, outputs: files))
            }
        }
        let result = Data(repeating: 0x41, count: 20_000)
        let results = try (1...files).map { n -> URL in
            let url = output.appendingPathComponent("\(n).json")
            try AtomicFile.write(result, to: url)
            return url
        }
        time("--resume check: SHA-256 of 20 kB result files", files) {
            for url in results { _ = try SHA256.hex(fileAt: url) }
        }

        print("\n## Decompression bombs (100000×100000 declared; 65535×65535 for GIF)\n")
        print("| format | file | refused in | resident growth while refusing |")
        print("|---|---|---|---|")
        let side = 100_000
        let bombs: [(String, Data)] = [("png", OversizedImage.png(width: side, height: side)),
                                      ("bmp", OversizedImage.bmp(width: side, height: side)),
                                      ("tif", OversizedImage.tiff(width: side, height: side)),
                                      ("gif", OversizedImage.gif(width: 65535, height: 65535))]
        for (suffix, data) in bombs {
            let url = root.appendingPathComponent("bomb.\(suffix)")
            try data.write(to: url)
            ProcessMemory.resetHighWaterMark()
            let before = ProcessMemory.residentBytes()
            let start = Date()
            var refused = false
            do { _ = try ImageSource(url: url) } catch ImageError.tooLarge { refused = true }
            let seconds = Date().timeIntervalSince(start)
            let growth = ProcessMemory.highWaterMarkBytes() - before
            print("| \(suffix) | \(data.count) B | \(refused ? String(format: "%.2f ms", seconds * 1000) : "NOT REFUSED") "
                  + "| \(String(format: "%.1f MB", Double(max(0, growth)) / 1e6)) |")
        }
    }

    private func time(_ step: String, _ items: Int, _ body: () throws -> Void) {
        let start = Date()
        do { try body() } catch { print("| \(step) | \(items) | failed: \(error) | |"); return }
        let seconds = Date().timeIntervalSince(start)
        let per = seconds / Double(items)
        let perText = per < 1e-3 ? String(format: "%.0f µs", per * 1e6) : String(format: "%.2f ms", per * 1e3)
        print("| \(step) | \(items) | \(String(format: "%.2f s", seconds)) | \(perText) |")
    }
}
