import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// Inputs a hostile or unlucky user gives (issue 17): things that are not files, names that are not what
/// `String` makes of them, names too long for their results, animations. Every run is the real CLI.
@Suite("Hostile inputs: file kinds and names", .serialized)
struct HostileInputTests {
    static func cli(_ rest: [String]) throws -> [String] { try BatchFixtures.cliArguments(["--quiet", "--mode", "ppocr"] + rest) }

    /// `name` as bytes below `folder`.
    static func path(_ folder: URL, _ name: [UInt8]) -> FileSystemPath {
        FileSystemPath(folder.path).appending(FileSystemPath(bytes: name))
    }

    /// The names in `folder` as bytes (a `Set<String>` would make the NFC and NFD spellings one).
    static func names(_ folder: URL) -> [[UInt8]] {
        var names: [[UInt8]] = []
        guard let directory = opendir(folder.path) else { return [] }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    @Test("a folder holding a /dev/zero link, a FIFO, a socket, a link loop and a dangling link: planned at once, one line naming each kind, the page read")
    func fileKinds() throws {
        let root = try TestPaths.temporaryDirectory("hostile-kinds")
        let folder = root.appendingPathComponent("in")
        _ = try BatchFixtures.writePages(0..<1, to: folder) { _ in "good.png" }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("zero.png").path, withDestinationPath: "/dev/zero")
        #expect(mkfifo(folder.appendingPathComponent("fifo.jpg").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop.png").path, withDestinationPath: "loop.png")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("dangling.png").path, withDestinationPath: "gone.png")
        let socketPath = folder.appendingPathComponent("socket.png").path
        let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in socketPath.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        let fifoNamed = folder.appendingPathComponent("fifo.jpg").path
        let out = root.appendingPathComponent("out")
        let run = try runCLI(try Self.cli(["--output", out.path, folder.path, "/dev/zero", fifoNamed]))
        #expect(run.status == 1)
        let expected = [
            "\(folder.path)/dangling.png: a dangling symbolic link (its target does not exist)",
            "\(folder.path)/fifo.jpg: a FIFO (named pipe), not an image file",
            "\(folder.path)/loop.png: a symbolic link loop",
            "\(folder.path)/socket.png: a socket, not an image file",
            "\(folder.path)/zero.png: a character device, not an image file",
            "/dev/zero: a character device, not an image file",
            "\(fifoNamed): a FIFO (named pipe), not an image file",
        ].map { "koten-ocr: " + $0 }
        #expect(run.stderrLines == expected, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("good.txt").path))
        // The library says the same when a page is opened directly.
        for (path, reason) in [("/dev/zero", "a character device, not an image file"), (fifoNamed, "a FIFO (named pipe), not an image file")] {
            #expect(throws: ImageError.unreadable(path: path, reason: reason)) { try ImageSource(url: URL(fileURLWithPath: path)) }
        }
    }

    @Test("the NFC and NFD spellings of one name in one folder are two pages, each read and written under its own bytes")
    func normalisationPair() throws {
        let root = try TestPaths.temporaryDirectory("hostile-nfc-nfd")
        let folder = root.appendingPathComponent("in")
        let nfc = Array("が.png".precomposedStringWithCanonicalMapping.utf8), nfd = Array("が.png".decomposedStringWithCanonicalMapping.utf8)
        try #require(nfc != nfd)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try ImageWriter.save(try BatchFixtures.crop(0), to: URL(fileURLWithPath: Self.path(folder, nfc).display))
        try ImageWriter.save(try BatchFixtures.crop(9), to: URL(fileURLWithPath: Self.path(folder, nfd).display))
        #expect(Self.names(folder) == [nfc, nfd].sorted { $0.lexicographicallyPrecedes($1) })
        let out = root.appendingPathComponent("out")
        let run = try runCLI(try Self.cli(["--output", out.path, "--format", "txt", folder.path]))
        #expect(run.status == 0, "\(run.stderr)")
        let txt = [Array("が.txt".precomposedStringWithCanonicalMapping.utf8), Array("が.txt".decomposedStringWithCanonicalMapping.utf8)]
        #expect(Self.names(out).filter { $0.first != 0x2E } == txt.sorted { $0.lexicographicallyPrecedes($1) })
        // Each file holds its own page's text (two different crops).
        let texts = try txt.map { try Data(contentsOf: URL(fileURLWithPath: Self.path(out, $0).display)) }
        #expect(texts[0] != texts[1] && !texts[0].isEmpty && !texts[1].isEmpty)
        let records = BatchManifest.load(from: out)
        #expect(records.count == 2 && records.values.allSatisfy { $0.state == .done })
    }

    @Test("a name that is not UTF-8 is read in a folder and when named, and shown escaped")
    func notUTF8() throws {
        let root = try TestPaths.temporaryDirectory("hostile-sjis")
        let folder = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let sjis: [UInt8] = [0x83, 0x79, 0x81, 0x5B, 0x83, 0x57] + Array(".png".utf8)  // ページ in Shift_JIS
        let file = Self.path(folder, sjis)
        let png = root.appendingPathComponent("page.png")
        try ImageWriter.save(try BatchFixtures.crop(0), to: png)
        let copied = file.withCString { target in png.path.withCString { source in link(source, target) } }
        try #require(copied == 0)
        #expect(!file.isValidUTF8)
        #expect(file.lastComponent.display == "\\x83y\\x81[\\x83W.png")

        let viaFolder = root.appendingPathComponent("out-folder")
        let run = try runCLI(try Self.cli(["--output", viaFolder.path, "--format", "txt", folder.path]))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.names(viaFolder).filter { $0.first != 0x2E } == [Array("\\x83y\\x81[\\x83W.txt".utf8)])
        #expect(BatchManifest.load(from: viaFolder)["\\x83y\\x81[\\x83W.png#1"]?.state == .done)

        let named = try runCLI(bytes: try Self.cli(["--format", "txt"]).map { Array($0.utf8) } + [file.bytes])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout == (try String(contentsOf: viaFolder.appendingPathComponent("\\x83y\\x81[\\x83W.txt"), encoding: .utf8)))

        let missing = Self.path(folder, [0x8C, 0x8E] + Array(".png".utf8))
        let refused = try runCLI(bytes: try Self.cli(["--format", "txt"]).map { Array($0.utf8) } + [missing.bytes])
        #expect(refused.status == 1)
        #expect(refused.stderrLines == ["koten-ocr: \(folder.path)/\\x8C\\x8E.png: no such file or directory"])
    }

    @Test("a 255-byte input name: every result under one shortened stem with a hash, in the manifest, and --resume finds them")
    func longName() throws {
        let root = try TestPaths.temporaryDirectory("hostile-long-name")
        let folder = root.appendingPathComponent("in")
        let name = String(repeating: "あ", count: 83) + "xx.png"
        try #require(name.utf8.count == 255)
        _ = try BatchFixtures.writePages(0..<1, to: folder) { _ in name }
        let out = root.appendingPathComponent("out")
        let run = try runCLI(try Self.cli(["--output", out.path, "--format", "txt,json", folder.path]))
        #expect(run.status == 0, "\(run.stderr)")
        let stem = PageTask(input: BatchInput(path: folder.appendingPathComponent(name).path, relativePath: name), page: 0, pageCount: 1).outputStem
        #expect(stem.hasPrefix(String(repeating: "あ", count: 20)) && stem.contains("~"))
        let results = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(results == [stem + ".json", stem + ".txt"].sorted(), "\(results)")
        #expect(results.allSatisfy { $0.utf8.count <= 255 })
        #expect(stem.utf8.count + PageTask.longestEnding <= 255)
        let record = try #require(BatchManifest.load(from: out)[BatchManifest.Key(name + "#1")])
        #expect(record.state == .done && Set(record.outputs.map(\.file)) == Set(results))
        let resumed = try runCLI(try Self.cli(["--output", out.path, "--format", "txt,json", "--resume", folder.path]))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(BatchManifest.load(from: out)[BatchManifest.Key(name + "#1")] == record)  // nothing read again
        // The same stem always gives the same name; a stem that fits is kept.
        #expect(PageTask.fitted(String(repeating: "あ", count: 90)) == PageTask.fitted(String(repeating: "あ", count: 90)))
        #expect(PageTask.fitted("short") == "short")
    }

    @Test("an animated GIF or WebP is one page, its first frame", arguments: ["three-frames.gif", "three-frames.webp"])
    func animated(_ name: String) throws {
        let url = TestPaths.image("animated/" + name)
        #expect(try ImageSource.pageCount(of: url) == 1)
        let source = try ImageSource(url: url)
        #expect(source.pageCount == 1 && source.width == 64 && source.height == 48)
        let image = try source.decode()
        // Frame 1 is red; frames 2 and 3 (green, blue) are never read.
        #expect(stride(from: 0, to: image.pixels.count, by: 3).allSatisfy {
            image.pixels[$0] > 200 && image.pixels[$0 + 1] < 50 && image.pixels[$0 + 2] < 50
        })
        let plan = try BatchPlan.prepare([url.path], options: BatchOptions(formats: [.txt]))
        #expect(plan.tasks.count == 1 && plan.failures.isEmpty)
    }

    @Test("a PNG whose CRC is wrong is called damaged, with libpng's cause, in one line")
    func pngCRC() throws {
        var png = try Data(contentsOf: TestPaths.image("ndlocr-lite-rs/scaned0.png"))
        let idat = try #require(png.firstRange(of: Data("IDAT".utf8)))
        let length = png[idat.lowerBound - 4..<idat.lowerBound].reduce(0) { $0 << 8 | Int($1) }
        png[idat.upperBound + length] ^= 0xFF  // the chunk's stored CRC, its data intact
        let file = try TestPaths.temporaryDirectory("hostile-crc").appendingPathComponent("crc.png")
        try png.write(to: file)
        let run = try runCLI(try Self.cli(["--format", "txt", file.path]))
        #expect(run.status == 1)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.hasPrefix("koten-ocr: \(file.path): damaged image data (IDAT: CRC error"), "\(run.stderr)")
    }

    @Test("a file its reader may not open: one short line saying permission denied")
    func permission() throws {
        let folder = try TestPaths.temporaryDirectory("hostile-mode-000")
        chmod(folder.path, 0o755)
        let file = try BatchFixtures.writePages(0..<1, to: folder) { _ in "locked.png" }[0]
        chmod(file.path, 0)
        // As root every file is readable: run the CLI as nobody. The package may sit below a folder nobody cannot
        // enter (a clone in `mktemp -d`), so the CLI and the ppocr models run from a world-readable copy.
        var prefix: [String] = [], arguments = try Self.cli(["--format", "txt", file.path])
        if getuid() == 0 {
            let stage = try TestPaths.temporaryDirectory("hostile-mode-000-cli")
            chmod(stage.path, 0o755)
            let binary = stage.appendingPathComponent("koten-ocr"), models = stage.appendingPathComponent("models")
            try FileManager.default.copyItem(at: TestPaths.cli, to: binary)
            try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: try TestPaths.ppocrModels().root.appendingPathComponent("ppocr"),
                                             to: models.appendingPathComponent("ppocr"))
            chmod(models.path, 0o755)
            prefix = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                      // sh gets the copy, then the CLI's own path (dropped), then the arguments.
                      "/bin/sh", "-c", "b=$1; shift 2; exec \"$b\" \"$@\"", "sh", binary.path]
            arguments = ["--models", models.path] + arguments.drop { $0 != "--jobs" }
        }
        let run = try runCLI(bytes: arguments.map { Array($0.utf8) }, prefix: prefix)
        #expect(run.status == 1)
        let lines = run.stderrLines.filter { $0.contains(file.path) }
        #expect(lines == ["koten-ocr: \(file.path): permission denied"], "\(run.stderr)")
    }
}
