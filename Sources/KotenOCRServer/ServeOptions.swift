import Foundation
import KotenOCRKit

/// `koten-ocr serve`'s options (docs/serve.md, "Options"), parsed from the command line with the vocabulary the
/// command line and the API share (`OptionVocabulary`); the engine's are `EngineOptions`, as for `koten-ocr`.
package struct ServeOptions: Sendable {
    package var host = "127.0.0.1"
    package var port = 8080
    package var engine = EngineOptions()
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
    /// `--public-url URL`: where the server is reached behind a proxy (its host is one of the server's names, its
    /// origin the server's own, its path the prefix of the links the API gives).
    package var publicURL: URL?
    /// `--allow-host NAME` (repeatable): more names the server answers for.
    package var allowHosts: [String] = []
    package var workDir: String?
    package var showHelp = false

    package struct UsageError: Error, CustomStringConvertible {
        package let description: String
    }

    /// Parses the arguments after `serve`. Throws `UsageError` with a one-line reason.
    package static func parse(_ args: [String]) throws -> ServeOptions {
        var o = ServeOptions()
        var reader = ArgumentReader(args)
        let vocabulary = OptionVocabulary.self
        do {
            while let arg = reader.next() {
                if try o.engine.take(&reader) { continue }
                switch arg {
                case "-h", "--help": o.showHelp = true
                case "--host": o.host = try reader.value()
                case "--port": o.port = try reader.value(vocabulary.wholeNumber("port", min: 0, max: 65535))
                case "--max-upload": o.maxUpload = try reader.value(vocabulary.size("max-upload"))
                case "--max-pages": o.maxPages = try reader.value(vocabulary.wholeNumber("max-pages"))
                case "--queue": o.queue = try reader.value(vocabulary.wholeNumber("queue"))
                case "--client-rate": o.clientRate = try reader.value(vocabulary.wholeNumber("client-rate"))
                case "--page-timeout": o.pageTimeout = Double(try reader.value(vocabulary.wholeNumber("page-timeout")))
                case "--token-file": o.tokenFile = try reader.value()
                case "--cors-origin":
                    let v = try reader.value()
                    guard let url = URL(string: v), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
                        throw UsageError(description: "--cors-origin needs an origin such as https://example.org, not '\(v.prefix(80))'")
                    }
                    o.corsOrigin = v
                case "--public-url":
                    let v = try reader.value()
                    guard let url = URL(string: v), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                          url.host?.isEmpty == false else {
                        throw UsageError(description: "--public-url needs an http(s) URL such as https://example.org/ocr/, not '\(v.prefix(80))'")
                    }
                    o.publicURL = url
                case "--allow-host": o.allowHosts.append(try reader.value())
                case "--work-dir": o.workDir = try reader.value()
                default: throw UsageError(description: "serve: unknown option \(arg) (see koten-ocr serve --help)")
                }
            }
        } catch let error as OptionError {
            throw UsageError(description: error.description)
        }
        return o
    }

    package static let help = """
    Usage: koten-ocr serve [options]

    Serves the web app at / and the HTTP API (/openapi.json) over one engine, one model store and one memory
    budget for every request (docs/serve.md). Prints the address it listens on, then serves until stopped.

    Options:
          --host NAME          address or name to listen on (default 127.0.0.1; a name such as localhost is
                               listened on at each of its addresses; any but loopback needs --token-file)
          --port N             port (default 8080; 0: any free port, printed)
          --max-upload SIZE    largest request body (default 64MB): past it 413, refused before it is read
          --max-pages N        most pages in one job (default 1000)
          --queue N            most requests waiting for the engine (one-page requests and unfinished jobs;
                               default 64): past it 503 with Retry-After
          --client-rate N      most OCR requests per client address per minute (default 600): past it 429
          --page-timeout S     longest a page may take, seconds (default 120): past it the page is stopped
                               and fails (a job goes on with its next page)
          --token-file FILE    require `Authorization: Bearer <token>` (the file's first line) on every request
                               but the web app's files, /healthz, /readyz and /openapi.json
          --public-url URL     where browsers reach the server behind a proxy, e.g. https://example.org/ocr/
                               (its name and origin are the server's own; the API's links start with its path)
          --allow-host NAME    also answer requests for this host name (repeatable; addresses, localhost and
                               --host are always answered, any other name is refused with 421)
          --cors-origin ORIGIN allow this browser origin (CORS, and its requests that change the server; another
                               origin's are refused with 403; default: no CORS headers)
          --work-dir DIR       where jobs and their results live (default: ~/.local/share/koten-ocr/serve);
                               unfinished jobs there resume when the server starts
      -h, --help               this help

    The engine's options are those of koten-ocr (see koten-ocr --help): -m/--mode, --models, --memory-budget
    (of the whole server), -j/--jobs, --max-pixels, --det-max-side, --no-orientation-classifier, --no-second-look,
    --no-vertical-punctuation, --min-line-confidence, --reading-order, --page-rotation, --accept-damaged-images,
    --pdf-dpi, --no-model-cache. A request may name mode, reading-order, page-rotation and min-line-confidence
    only with the server's values.
    """
}
