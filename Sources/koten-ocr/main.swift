import Foundation
import KotenOCRKit

let status = await CLI.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
