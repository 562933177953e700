import Foundation
import KotenOCRKit

let arguments = Array(CommandLine.arguments.dropFirst())
let status = arguments.first == "models" ? await ModelsCommand.run(Array(arguments.dropFirst())) : await CLI.run(arguments)
exit(status)
