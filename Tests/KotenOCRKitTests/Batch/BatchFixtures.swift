import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// Small page images for the batch tests: windows of scaned0.png (1932×500, horizontal print) that each
/// hold parts of two or three lines, so a page is read in a fraction of a second.
enum BatchFixtures {
    static let scan: Result<RGBImage, Error> = Result {
        try ImageSource(url: TestPaths.image("ndlocr-lite-rs/scaned0.png")).decode()
    }

    /// Window `index` (0..<40) of the text area: 320×120 pixels, 8 across and 5 down.
    static func crop(_ index: Int) throws -> RGBImage {
        let x = 120 + (index % 8) * 190, y = 170 + (index / 8 % 5) * 55
        return try scan.get().cropped(x: x, y: y, width: 320, height: 120)
    }

    /// Window `index` (0..<40) of one line: 240×56 pixels, same grid as `crop`.
    static func line(_ index: Int) throws -> RGBImage {
        let x = 120 + (index % 8) * 190, y = 178 + (index / 8 % 5) * 55
        return try scan.get().cropped(x: x, y: y, width: 240, height: 56)
    }

    /// Writes crops (or with `lines`, one-line windows) `indices` as PNG files named `name(i)` into `folder`.
    static func writePages(_ indices: Range<Int>, to folder: URL, lines: Bool = false, name: (Int) -> String) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try indices.map { i in
            let url = folder.appendingPathComponent(name(i))
            try ImageWriter.save(lines ? line(i) : crop(i), to: url)
            return url
        }
    }

    /// A PDF with one page per JPEG, each page sized so that rendering at `dpi` gives the JPEG's pixel size.
    /// Written by hand: an image XObject with the JPEG bytes as a DCTDecode stream, drawn over the whole page.
    static func pdf(jpegs: [(data: Data, width: Int, height: Int)], dpi: Double = 300) -> Data {
        var objects: [Data] = []   // object n is objects[n - 1]
        func add(_ d: Data) -> Int { objects.append(d); return objects.count }
        func text(_ s: String) -> Data { Data(s.utf8) }
        _ = add(Data())   // 1: catalog, filled in below
        _ = add(Data())   // 2: page tree, filled in below
        var kids: [Int] = []
        for (i, jpeg) in jpegs.enumerated() {
            let w = Double(jpeg.width) * 72 / dpi, h = Double(jpeg.height) * 72 / dpi
            var image = text("<< /Type /XObject /Subtype /Image /Width \(jpeg.width) /Height \(jpeg.height) "
                             + "/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length \(jpeg.data.count) >>\nstream\n")
            image.append(jpeg.data)
            image.append(text("\nendstream"))
            let imageID = add(image)
            let content = "q \(w) 0 0 \(h) 0 0 cm /Im\(i) Do Q"
            let contentID = add(text("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream"))
            kids.append(add(text("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(w) \(h)] /Contents \(contentID) 0 R "
                                 + "/Resources << /XObject << /Im\(i) \(imageID) 0 R >> >> >>")))
        }
        objects[0] = text("<< /Type /Catalog /Pages 2 0 R >>")
        objects[1] = text("<< /Type /Pages /Kids [\(kids.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(kids.count) >>")
        var pdf = text("%PDF-1.4\n")
        var offsets: [Int] = []
        for (i, object) in objects.enumerated() {
            offsets.append(pdf.count)
            pdf.append(text("\(i + 1) 0 obj\n"))
            pdf.append(object)
            pdf.append(text("\nendobj\n"))
        }
        let xref = pdf.count
        pdf.append(text("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"))
        for offset in offsets {
            let digits = String(offset)
            pdf.append(text(String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n"))
        }
        pdf.append(text("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"))
        return pdf
    }

    /// A PDF of crops `indices`, through JPEG.
    static func pdf(ofCrops indices: [Int], scratch: URL) throws -> Data {
        let jpegs = try indices.map { i -> (data: Data, width: Int, height: Int) in
            let image = try crop(i)
            let url = scratch.appendingPathComponent("pdf-page-\(i).jpg")
            try ImageWriter.save(image, to: url, quality: 95)
            return (try Data(contentsOf: url), image.width, image.height)
        }
        return pdf(jpegs: jpegs)
    }

    /// The CLI with the PP-OCRv5 models, one model run at a time (results do not depend on scheduling).
    static func cliArguments(_ rest: [String]) throws -> [String] {
        ["--models", try TestPaths.ppocrModels().root.path, "--jobs", "1"] + rest
    }

    /// Offset of a JPEG's frame header (the FF C0–C2 marker; height, width and component count follow at
    /// +5, +7, +9), found by walking its marker segments; nil if there is none.
    static func jpegFrameHeader(_ bytes: [UInt8]) -> Int? {
        var at = 2
        while at + 9 < bytes.count, bytes[at] == 0xFF, !(0xC0...0xC2).contains(bytes[at + 1]) {
            at += 2 + Int(bytes[at + 2]) << 8 + Int(bytes[at + 3])
        }
        return at + 9 < bytes.count && bytes[at] == 0xFF ? at : nil
    }

    /// Starts the CLI with `arguments` in the background (output discarded; standard input from `stdin`).
    static func startCLI(_ arguments: [String], in directory: URL? = nil, stdin: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = TestPaths.cli
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        if environment["KOTEN_OCR_STATE_DIR"] == nil { environment["KOTEN_OCR_STATE_DIR"] = testStateDirectory.path }
        if environment["KOTEN_OCR_CACHE_DIR"] == nil { environment["KOTEN_OCR_CACHE_DIR"] = testCacheDirectory.path }
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        if let stdin { process.standardInput = stdin }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Every regular file below `folder` (relative path → bytes), hidden ones included when `hidden`.
    static func snapshot(_ folder: URL, hidden: Bool = false) throws -> [String: Data] {
        var files: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return files }
        while let relative = walker.nextObject() as? String {
            let url = folder.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            if !hidden && relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            files[relative] = try Data(contentsOf: url)
        }
        return files
    }
}

/// A finished child process: status, output, and its peak resident memory (high-water mark).
struct ChildResult {
    let status: Int32
    let stdout: String
    let stderr: String
    /// The child's peak resident set size in bytes, from GNU time (`/usr/bin/time -f %M`); nil without it.
    /// (The kernel's own figure for a child spawned from the test process, wait4's ru_maxrss, is useless
    /// here: exec records the spawning process's high-water mark in it.)
    let peakResidentBytes: Int?
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// Runs the CLI with `arguments`, `stdin` fed to it (empty when nil), output collected through files (no
/// pipe can fill up), under GNU time when it is installed to measure its peak RSS.
func runCLI(_ arguments: [String], stdin: Data? = nil) throws -> ChildResult {
    try runCLI(bytes: arguments.map { Array($0.utf8) }, stdin: stdin)
}

/// `runCLI` with each argument given as the bytes the child receives (a file name that is not UTF-8), the CLI
/// started through `prefix` (an absolute path and its arguments, e.g. `setpriv` to run as another user) if given.
func runCLI(bytes arguments: [[UInt8]], stdin: Data? = nil, prefix: [String] = []) throws -> ChildResult {
    let scratch = try TestPaths.temporaryDirectory("cli-io")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let input = scratch.appendingPathComponent("stdin"), output = scratch.appendingPathComponent("stdout"),
        errors = scratch.appendingPathComponent("stderr"), peak = scratch.appendingPathComponent("peak")
    try (stdin ?? Data()).write(to: input)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input.path, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let time = "/usr/bin/time"
    let timed = prefix.isEmpty && FileManager.default.isExecutableFile(atPath: time)
    let command = prefix + (timed ? [time, "-f", "%M", "-o", peak.path] : []) + [TestPaths.cli.path]
    let argv = command.map { strdup($0) } + arguments.map { bytes in strdup(bytes.map { CChar(bitPattern: $0) } + [0]) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
    try #require(spawned == 0, "cannot start \(command[0]): \(String(cString: strerror(spawned)))")
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    // GNU time writes "Command exited with non-zero status N" before the figure: the figure is the last line.
    let kilobytes = timed ? (try? String(contentsOf: peak, encoding: .utf8))?.split(separator: "\n").last.flatMap { Int($0) } : nil
    return ChildResult(status: exitStatus, stdout: String(decoding: try Data(contentsOf: output), as: UTF8.self),
                       stderr: String(decoding: try Data(contentsOf: errors), as: UTF8.self),
                       peakResidentBytes: kilobytes.map { $0 * 1024 })
}
