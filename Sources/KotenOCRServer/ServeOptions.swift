import Foundation
import KotenOCRKit

/// `koten-ocr serve`'s options (docs/serve.md, "Options"), parsed from the command line.
package struct ServeOptions: Sendable {
    package var host = "127.0.0.1"
    package var port = 8080
    package var mode: OCRMode?
    package var models: String?
    package var memoryBudget: Int?
    /// Largest request body, bytes (`--max-upload`, default 64 MB).
    package var maxUpload = 64_000_000
    /// Most pages in one job (`--max-pages`).
    package var maxPages = 1000
    /// Most requests waiting for the engine: one-page requests plus unfinished jobs (`--queue`).
    package var queue = 64
    /// Most OCR requests (POST /v1/ocr, POST /v1/jobs) one client address may make per minute (`--client-rate`).
    package var clientRate = 600
    /// Longest a page may take, seconds (`--page-timeout`).
    package var pageTimeout = 120.0
    package var tokenFile: String?
    package var corsOrigin: String?
    package var workDir: String?
    package var maxPixels = ImageSource.defaultMaxPixels
    package var showHelp = false
    /// `--no-model-cache`: optimise every model at every load (`OCRConfiguration.optimisedModelCache`).
    package var modelCache = true

    package struct UsageError: Error, CustomStringConvertible {
        package let description: String
    }

    /// Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost).
    package var isLoopback: Bool {
        host == "::1" || host == "localhost" || host.hasPrefix("127.")
    }

    /// Parses the arguments after `serve`. Throws `UsageError` with a one-line reason.
    package static func parse(_ args: [String]) throws -> ServeOptions {
        var o = ServeOptions()
        var i = 0
        while i < args.count {
            var arg = args[i]
            var inline: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                inline = String(arg[arg.index(after: eq)...])
                arg = String(arg[..<eq])
            }
            func next() throws -> String {
                if let inline { return inline }
                i += 1
                guard i < args.count else { throw UsageError(description: "\(arg) needs a value") }
                return args[i]
            }
            func int(min: Int = 1) throws -> Int {
                let text = try next()
                guard let v = Int(text), v >= min else { throw UsageError(description: "\(arg) needs a whole number ≥ \(min), not '\(text)'") }
                return v
            }
            func size() throws -> Int {
                let text = try next()
                guard let v = MemoryBudget.parse(text) else { throw UsageError(description: "\(arg) takes a size such as 64MB, not '\(text)'") }
                return v
            }
            switch arg {
            case "-h", "--help": o.showHelp = true
            case "--host": o.host = try next()
            case "--port": o.port = try int(min: 0)
            case "-m", "--mode":
                let v = try next()
                guard let m = OCRMode(rawValue: v) else {
                    throw UsageError(description: "--mode must be one of \(OCRMode.allCases.map(\.rawValue).joined(separator: ", ")), not '\(v)'")
                }
                o.mode = m
            case "--models": o.models = try next()
            case "--memory-budget": o.memoryBudget = try size()
            case "--max-upload": o.maxUpload = try size()
            case "--max-pages": o.maxPages = try int()
            case "--queue": o.queue = try int()
            case "--client-rate": o.clientRate = try int()
            case "--page-timeout": o.pageTimeout = Double(try int())
            case "--max-pixels": o.maxPixels = try int()
            case "--token-file": o.tokenFile = try next()
            case "--cors-origin": o.corsOrigin = try next()
            case "--work-dir": o.workDir = try next()
            case "--no-model-cache": o.modelCache = false
            default: throw UsageError(description: "serve: unknown option \(arg) (see koten-ocr serve --help)")
            }
            i += 1
        }
        guard o.port <= 65535 else { throw UsageError(description: "--port must be at most 65535") }
        if !o.isLoopback && o.tokenFile == nil && !o.showHelp {
            throw UsageError(description: "--host \(o.host) is not a loopback address: listening there needs --token-file FILE (a Bearer token)")
        }
        return o
    }

    package static let help = """
    Usage: koten-ocr serve [options]

    Serves the web app at / and the HTTP API (/openapi.json) over one engine, one model store and one memory
    budget for every request (docs/serve.md). Prints the address it listens on, then serves until stopped.

    Options:
          --host ADDR          address to listen on (default 127.0.0.1; any other needs --token-file)
          --port N             port (default 8080; 0: any free port, printed)
      -m, --mode MODE          koten, ndl or ppocr (default as for koten-ocr)
          --models DIR         model folder (default as for koten-ocr)
          --memory-budget SIZE memory budget of the whole server, e.g. 300MB (default: cgroup limit or RAM)
          --max-upload SIZE    largest request body (default 64MB): past it 413, refused before it is read
          --max-pages N        most pages in one job (default 1000)
          --queue N            most requests waiting for the engine (one-page requests and unfinished jobs;
                               default 64): past it 503 with Retry-After
          --client-rate N      most OCR requests per client address per minute (default 600): past it 429
          --page-timeout S     longest a page may take, seconds (default 120): past it the page is stopped
                               and fails (a job goes on with its next page)
          --max-pixels N       refuse images with more pixels (default 200000000)
          --token-file FILE    require `Authorization: Bearer <token>` (the file's first line) on every request
          --cors-origin ORIGIN allow this browser origin (default: no CORS headers)
          --work-dir DIR       where jobs and their results live (default: ~/.local/share/koten-ocr/serve);
                               unfinished jobs there resume when the server starts
          --no-model-cache     keep no optimised copy of the models (as for koten-ocr)
      -h, --help               this help
    """
}
