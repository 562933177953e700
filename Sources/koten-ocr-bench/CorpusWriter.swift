import Foundation
import KotenOCRCorpus

/// `koten-ocr-bench corpus-writer DB --job J [--page N] [--edits N] [--tag T] [--memory-every K]`: the corpus
/// tests' child process (docs/corpus.md, "Durability"), a test hook, not a benchmark. It edits page N of job J
/// in `DB` (the parent made it) N times, the lines in turn, each edit's text `T e<i>`, and says on standard
/// output, unbuffered, `begin <i>` before each edit and `committed <i> <revision>` once the store has returned
/// (the edit is on disk). With `--memory-every K` it also says `rss <i> <bytes> <log bytes>` (VmRSS, the size of
/// the write-ahead log) every K edits. The
/// parent kills it with SIGKILL between or during edits and checks that every committed edit is in the file.
enum CorpusWriter {
    static func run(_ args: [String]) throws {
        guard let path = args.first else { throw BenchError.usage("corpus-writer DB --job J [--edits N]") }
        var job = "job", page = 1, edits = 1_000_000, tag = "w", memoryEvery = 0
        try readOptions(Array(args.dropFirst())) { name, value in
            switch name {
            case "--job": job = try value()
            case "--page": page = Int(try value()) ?? 1
            case "--edits": edits = Int(try value()) ?? edits
            case "--tag": tag = try value()
            case "--memory-every": memoryEvery = Int(try value()) ?? 0
            default: throw BenchError.usage("unknown option \(name)")
            }
        }
        let store = try CorpusStore(url: URL(fileURLWithPath: path))
        let ids = try store.page(job: job, page: page).lines.filter { !$0.added }.map(\.id)
        guard !ids.isEmpty else { throw BenchError.usage("page \(page) of \(job) has no line") }
        for n in 0..<edits {
            say("begin \(n)")
            let revision = try store.page(job: job, page: page).revision
            let after = try store.update(job: job, page: page, ifRevision: revision,
                                         edits: [.text(id: ids[n % ids.count], "\(tag) e\(n)")], by: "child")
            say("committed \(n) \(after.revision)")
            if memoryEvery > 0, (n + 1) % memoryEvery == 0 {
                let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
                say("rss \(n + 1) \(residentBytes()) \(wal ?? 0)")
            }
        }
        store.close()
    }

    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// VmRSS of this process in bytes (0 where /proc is absent).
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
}
