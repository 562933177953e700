import Foundation
import KotenOCRKit

let args = Array(CommandLine.arguments.dropFirst())
if args.first == "make-photo", args.count == 3 {
    try TestPhoto.make12MP(from: URL(fileURLWithPath: args[1]), to: URL(fileURLWithPath: args[2]))
    exit(0)
}
FileHandle.standardError.write(Data("usage: koten-ocr-bench make-photo PAGE OUT.jpg\n".utf8))
exit(2)
