import Foundation
import Testing
@testable import KotenOCRKit

/// `--reading-order`, `--page-rotation` and `--ruby` through the real CLI.
@Suite("CLI order options", .serialized)
struct OrderOptionsCLITests {
    static let rubyPage = TestPaths.fixtures.appendingPathComponent("field/vertical_with_ruby.png").path

    static func run(_ args: [String]) throws -> ProcessResult {
        try runProcess(TestPaths.cli, ["--mode", "ppocr", "--models", try TestPaths.ppocrModels().root.path, "-q"] + args)
    }

    @Test("bad values are usage errors: exit 2, one line naming the option",
          arguments: [["--reading-order", "xy"], ["--page-rotation", "45"], ["--page-rotation", "left"], ["--ruby", "kanji"]])
    func badValues(_ args: [String]) throws {
        let r = try runProcess(TestPaths.cli, args + ["x.png"])
        #expect(r.status == 2)
        #expect(r.stderr == "koten-ocr: \(args[0]) must be \(Self.choices[args[0]] ?? ""), not '\(args[1])'\n")
        #expect(r.stdout.isEmpty)
    }

    static let choices = ["--reading-order": "page or ndl", "--page-rotation": "auto, 0, 90, 180 or 270",
                          "--ruby": "drop, separate or inline"]

    @Test("--ruby: the body alone by default, readings listed after it, or written in as Aozora Bunko ruby")
    func rubyStyles() throws {
        let drop = try Self.run([Self.rubyPage])
        #expect(drop.status == 0)
        #expect(drop.stdout == "図書館で古い本を借りた\n駅まで歩いて十五分かかる\n")
        let inline = try Self.run(["--ruby", "inline", Self.rubyPage])
        #expect(inline.stdout.hasPrefix("図書館《としょかん》で古《ふる》い本《ほん》を借《か》りた\n駅《えき》まで歩《ある》いて"))
        let separate = try Self.run(["--ruby=separate", Self.rubyPage])
        #expect(separate.stdout.hasPrefix("図書館で古い本を借りた\n駅まで歩いて十五分かかる\n\n図書館\tとしょかん\n古\tふる\n"))
    }

    @Test("the JSON says how the page was turned, its skew and order, and marks ruby with what it annotates")
    func json() throws {
        let r = try Self.run(["--format", "json", "--page-rotation", "0", "--reading-order", "page", Self.rubyPage])
        let page = try JSONAccess.dict(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)))
        #expect(page["rotation"] as? Int == 0 && page["skew"] as? Double == 0 && page["readingOrderStyle"] as? String == "page")
        let lines = try JSONAccess.array(page["lines"]).map { try JSONAccess.dict($0) }
        let ruby = try #require(lines.first { $0["kind"] as? String == "ruby" })
        let target = try JSONAccess.dict(ruby["annotates"])
        #expect(target["line"] as? Int == 0 && target["start"] as? Int == 0 && target["end"] as? Int == 3)
        #expect(lines.filter { $0["annotates"] == nil }.count == 2)
    }
}
