import Foundation

/// One input, as libFuzzer hands it.
func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    FuzzTargets.chosen(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

/// Built with `-sanitize=fuzzer -DFUZZING` (`make fuzz`), `koten-ocr-fuzz [libFuzzer options] CORPUS` hands its
/// arguments to libFuzzer's driver (`LLVMFuzzerRunDriver`, linked in by the sanitizer; SwiftPM gives an executable
/// target its own `main`, so libFuzzer's is not used). A plain build replays: `koten-ocr-fuzz FILE...` runs each
/// file through the chosen target once (exit 0 if none crashed), to check a crash input or a corpus.
@main
enum FuzzMain {
    typealias Callback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    typealias Driver = @convention(c) (UnsafeMutablePointer<Int32>,
                                       UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>, Callback) -> Int32

    static func main() {
        #if FUZZING
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "LLVMFuzzerRunDriver") else {
            FileHandle.standardError.write(Data("koten-ocr-fuzz: libFuzzer's driver is not linked in (build with -sanitize=fuzzer)\n".utf8))
            exit(2)
        }
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(unsafeBitCast(symbol, to: Driver.self)(&argc, &argv, { fuzzOneInput($0, $1) }))
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
