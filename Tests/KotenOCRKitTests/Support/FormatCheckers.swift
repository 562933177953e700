import Foundation
import Testing

/// The tools that check the output formats, installed by `scripts/setup.sh` (docs/formats.md, "How the formats
/// are checked"): Debian's xmllint, qpdf, poppler's pdftotext/pdfimages/pdftoppm and chromium; hocr-spec in
/// `.deps/validators`; the ALTO and PAGE schemas in `.deps/schemas`. A missing one fails the test with the fix.
enum FormatCheckers {
    static let schemas = TestPaths.packageRoot.appendingPathComponent(".deps/schemas")
    static let hocrSpec = TestPaths.packageRoot.appendingPathComponent(".deps/validators/bin/hocr-spec")

    /// The executable `name` on the PATH (or /usr/bin); records a failure naming the fix when it is missing.
    static func tool(_ name: String) throws -> URL {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for folder in path + ["/usr/bin", "/usr/sbin"] {
            let url = URL(fileURLWithPath: folder).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        try #require(Bool(false), "\(name) is not installed: run scripts/setup.sh")
        return URL(fileURLWithPath: "/nonexistent")
    }

    /// Runs `tool` with `arguments`; the result (status, output).
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        return try runProcess(try self.tool(tool), arguments, environment: env)
    }

    /// xmllint's verdict on `file` against the schema `xsd` (a file in `.deps/schemas`), without network.
    static func validate(_ file: URL, schema xsd: String) throws -> ProcessResult {
        let schema = schemas.appendingPathComponent(xsd)
        try #require(FileManager.default.fileExists(atPath: schema.path), "\(schema.path) missing: run scripts/setup.sh")
        return try run("xmllint", ["--noout", "--nonet", "--schema", schema.path, file.path],
                       environment: ["XML_CATALOG_FILES": schemas.appendingPathComponent("catalog.xml").path])
    }

    /// hocr-spec's verdict on `file` (parsed as HTML, as browsers and most hOCR tools do).
    static func checkHOCR(_ file: URL) throws -> ProcessResult {
        try #require(FileManager.default.isExecutableFile(atPath: hocrSpec.path), "\(hocrSpec.path) missing: run scripts/setup.sh")
        return try runProcess(hocrSpec, [file.path])
    }

    /// Where the tests keep what a person may want to look at (screenshots): `.build/test-artifacts/formats`.
    static var artifacts: URL {
        let url = TestPaths.packageRoot.appendingPathComponent(".build/test-artifacts/formats")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The text of `pdf` as pdftotext gives it in content order (`-raw`: the order the lines were written in, which
/// is reading order; its default layout mode re-orders by its own page analysis). `page`: one page only.
func pdfText(_ pdf: URL, page: Int? = nil) throws -> String {
    let range = page.map { ["-f", String($0), "-l", String($0)] } ?? []
    let result = try FormatCheckers.run("pdftotext", ["-raw", "-enc", "UTF-8"] + range + [pdf.path, "-"])
    try #require(result.status == 0, "pdftotext \(pdf.path): \(result.stderr)")
    return result.stdout
}

/// The word boxes pdftotext finds on each page of `pdf`, in points from the page's top-left.
func pdfWordBoxes(_ pdf: URL) throws -> [[(text: String, x0: Double, y0: Double, x1: Double, y1: Double)]] {
    let result = try FormatCheckers.run("pdftotext", ["-bbox", "-enc", "UTF-8", pdf.path, "-"])
    try #require(result.status == 0, "pdftotext -bbox \(pdf.path): \(result.stderr)")
    var pages: [[(text: String, x0: Double, y0: Double, x1: Double, y1: Double)]] = []
    for line in result.stdout.split(separator: "\n") {
        if line.contains("<page ") { pages.append([]) }
        guard line.contains("<word "), !pages.isEmpty else { continue }
        func number(_ name: String) -> Double {
            guard let r = line.range(of: name + "=\"") else { return .nan }
            return Double(line[r.upperBound...].prefix { $0 != "\"" }) ?? .nan
        }
        let text = line.split(separator: ">", maxSplits: 1).last.map { $0.replacingOccurrences(of: "</word>", with: "") } ?? ""
        pages[pages.count - 1].append((text, number("xMin"), number("yMin"), number("xMax"), number("yMax")))
    }
    return pages
}

/// Width, height and encoding of each image `pdfimages -list` finds in `pdf`.
func pdfImages(_ pdf: URL) throws -> [(width: Int, height: Int, encoding: String)] {
    let result = try FormatCheckers.run("pdfimages", ["-list", pdf.path])
    try #require(result.status == 0, "pdfimages \(pdf.path): \(result.stderr)")
    return result.stdout.split(separator: "\n").dropFirst(2).compactMap { row in
        let columns = row.split(separator: " ", omittingEmptySubsequences: true)
        guard columns.count > 8, let width = Int(columns[3]), let height = Int(columns[4]) else { return nil }
        return (width, height, String(columns[8]))
    }
}
