import Foundation
import KotenOCRKit

/// The command line's file arguments as the bytes the shell passed: `CommandLine.arguments` turns a name that
/// is not UTF-8 (a Shift_JIS name from an old archive) into replacement characters, which name no file.
enum RawArguments {
    /// `inputs` (strings parsed from `CommandLine.arguments`) as the paths of the bytes they came from, in order.
    static func paths(_ inputs: [String]) -> [FileSystemPath] {
        var raw: [[UInt8]: [[UInt8]]] = [:]
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: argument, count: strlen(argument))).map { UInt8(bitPattern: $0) }
            raw[Array(String(decoding: bytes, as: UTF8.self).utf8), default: []].append(bytes)
        }
        return inputs.map { input in
            let key = Array(input.utf8)
            guard let first = raw[key]?.first else { return FileSystemPath(input) }
            raw[key]?.removeFirst()
            return FileSystemPath(bytes: first)
        }
    }
}
