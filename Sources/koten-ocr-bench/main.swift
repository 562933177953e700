import Foundation
import KotenOCRKit
import KotenOCRTestSupport
import KotenOCRCorpus

// koten-ocr-bench: benchmarks that print markdown tables (docs/performance.md says how to run them).
// Each measured configuration runs in a child process of this binary, so every peak (VmHWM) is its own.
let args = Array(CommandLine.arguments.dropFirst())
do {
    switch args.first {
    case "make-photo" where args.count == 3:
        try TestPhoto.make12MP(from: URL(fileURLWithPath: args[1]), to: URL(fileURLWithPath: args[2]))
    case "memory":
        try await MemoryBenchmark(arguments: Array(args.dropFirst())).run()
    case "batch":
        try BatchBenchmark(arguments: Array(args.dropFirst())).run()
    case "speed":
        try SpeedBenchmark(arguments: Array(args.dropFirst())).run()
    case "corpus":
        try CorpusBenchmark(arguments: Array(args.dropFirst())).run()
    case "corpus-writer":
        try CorpusWriter.run(Array(args.dropFirst()))
    case "case" where args.count >= 2:
        try await BenchCase.run(args[1], Array(args.dropFirst(2)))
    default:
        FileHandle.standardError.write(Data("""
        usage: koten-ocr-bench memory [--photo PHOTO.jpg] [--models DIR] [--standins DIR]
               koten-ocr-bench make-photo PAGE OUT.jpg
               koten-ocr-bench batch [--files N] [--pages N]
               koten-ocr-bench speed [--rounds N] [--batch-rounds N] [--only scaned0,photo,batch] [--koten NAME=PATH]...
               koten-ocr-bench corpus [--pages N] [--queries N] [--edits N] [--dir DIR] [--variants FILE]

        """.utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("koten-ocr-bench: \(error)\n".utf8))
    exit(1)
}
