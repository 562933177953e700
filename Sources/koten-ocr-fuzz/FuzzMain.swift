import Foundation
#if FUZZING
import CFuzzerDriver
#endif

/// One input, as libFuzzer hands it. Also exported under libFuzzer's conventional name: `-sanitize=fuzzer` links
/// libFuzzer's whole runtime, whose own `main` refers to `LLVMFuzzerTestOneInput` (without a definition the link
/// fails). SwiftPM's `--defsym main=koten_ocr_fuzz_main` makes `FuzzMain.main` the program's entry either way.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    FuzzTargets.chosen(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

/// Built with `-sanitize=fuzzer -DFUZZING` (`make fuzz`), `koten-ocr-fuzz [libFuzzer options] CORPUS` hands its
/// arguments to libFuzzer's driver (`LLVMFuzzerRunDriver`, CFuzzerDriver). A plain build replays:
/// `koten-ocr-fuzz FILE...` runs each file through the chosen target once (exit 0 if none crashed), to check a
/// crash input or a corpus.
@main
enum FuzzMain {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzOneInput($0, $1) })
        #else
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("koten-ocr-fuzz: \(path): cannot read\n".utf8))
                exit(2)
            }
            FuzzTargets.chosen(data)
        }
        #endif
    }
}
