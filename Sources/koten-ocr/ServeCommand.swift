import Foundation
import KotenOCRKit
import KotenOCRServer

/// `koten-ocr serve`: the HTTP server (docs/serve.md) over one engine. Prints the address it listens on (one
/// line, `koten-ocr: serving on http://HOST:PORT/`, on standard output) and serves until killed.
enum ServeCommand {
    static func run(_ args: [String]) async -> Int32 {
        let options: ServeOptions
        do { options = try ServeOptions.parse(args) } catch {
            stderrLine("koten-ocr: \(error)")
            return 2
        }
        if options.showHelp {
            print(ServeOptions.help)
            return 0
        }
        var token: String?
        if let file = options.tokenFile {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8),
                  let line = text.split(whereSeparator: \.isNewline).first.map(String.init)?.trimmingCharacters(in: .whitespaces),
                  line.utf8.count >= 16 else {
                stderrLine("koten-ocr: --token-file \(file): cannot read a token of at least 16 characters from its first line")
                return 2
            }
            token = line
        }
        let addresses: [String]
        do { addresses = try ListenAddresses.resolve(options.host) } catch {
            stderrLine("koten-ocr: \(error)")
            return 2
        }
        if token == nil, let open = addresses.first(where: { !ListenAddresses.isLoopback($0) }) {
            stderrLine("koten-ocr: --host \(options.host) is not a loopback address (\(open)): listening there needs --token-file FILE (a Bearer token)")
            return 2
        }
        let mode = options.engine.mode ?? DefaultMode.choose(models: options.engine.models, quiet: true)
        guard let models = CLI.modelDirectory(options.engine.models, for: mode) else { return 2 }
        let config = options.engine.configuration(mode: mode, models: models)
        let engine: KotenOCR
        do {
            engine = try KotenOCR(configuration: config)
            try await engine.prepare(mode)
        } catch {
            stderrLine("koten-ocr: \(error)")
            return 2
        }
        let work = URL(fileURLWithPath: options.workDir
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/koten-ocr/serve").path, isDirectory: true)
        let service: OCRService
        let server: MicroHTTPDServer
        do {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            service = try OCRService(engine: engine, options: options, token: token, workDirectory: work,
                                     pdfGuard: ChildProcessPDFGuard())
            let uploads = work.appendingPathComponent("uploads")
            try? FileManager.default.removeItem(at: uploads)  // a killed server's partial uploads
            server = MicroHTTPDServer(settings: HTTPServerSettings(addresses: addresses, port: options.port, maxBody: options.maxUpload,
                                                                   uploadDirectory: uploads), handler: service)
            let port = try server.start()
            service.start()
            // The address as given (a name as it is), so the line can be opened as it is printed.
            let shown = options.host.contains(":") ? "[\(options.host)]" : options.host
            FileHandle.standardOutput.write(Data("koten-ocr: serving on http://\(shown):\(port)/ (mode \(mode.rawValue), work directory \(work.path))\n".utf8))
        } catch {
            stderrLine("koten-ocr: \(error)")
            return 2
        }
        signal(SIGPIPE, SIG_IGN)
        if ProcessInfo.processInfo.environment["KOTEN_OCR_TEST_SERVE_EXIT_ON_EOF"] == "1" {
            // Test hook (docs/serve.md, "Test hooks"): a server started by a test ends when the test's pipe closes.
            Thread.detachNewThread {
                while !FileHandle.standardInput.availableData.isEmpty {}
                exit(0)
            }
        }
        while true { try? await Task.sleep(nanoseconds: 3_600_000_000_000) }
    }
}
