/// Reads `--name [value]` options in order: `body` gets each option's name and a function that takes its value
/// (a missing value is `BenchError.usage`). An unknown name is the body's to refuse.
func readOptions(_ args: [String], _ body: (String, () throws -> String) throws -> Void) throws {
    var i = 0
    while i < args.count {
        let name = args[i]
        try body(name) {
            i += 1
            guard i < args.count else { throw BenchError.usage("\(name) needs a value") }
            return args[i]
        }
        i += 1
    }
}
