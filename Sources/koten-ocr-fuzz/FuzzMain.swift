import Foundation

/// libFuzzer calls this for every input when the target is built with `-sanitize=fuzzer` (`make fuzz`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    FuzzTargets.chosen(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

#if !FUZZING
/// Without libFuzzer (a plain build): `koten-ocr-fuzz FILE...` runs each file through the chosen target once,
/// to replay a crash input or a corpus (exit 0 if none crashed).
@main
enum FuzzReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("koten-ocr-fuzz: \(path): cannot read\n".utf8))
                exit(2)
            }
            FuzzTargets.chosen(data)
        }
    }
}
#endif
