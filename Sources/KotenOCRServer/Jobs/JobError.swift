/// Why the jobs wing refuses a request or cannot give what was asked (the API answers each with its status,
/// `APIError.init(_:)`); every message is one line.
enum JobError: Error {
    /// An upload (or a zip's entry) that is none of the types the server reads.
    case unsupportedType(String)
    /// A zip refused by its checks, or that cannot be read.
    case badZip(String)
    /// An upload the engine cannot open (`name`): refused as a page read by `POST /v1/ocr` would be.
    case unreadable(name: String, Error)
    /// More pages than `--max-pages`.
    case tooManyPages(String)
    /// An upload or a manifest holding no page.
    case noPages(String)
    /// A manifest that cannot be read.
    case badManifest(String)
    /// A request that asks for two things that do not go together, or a value that is not one.
    case badOption(String)
    /// The queue is full (its capacity).
    case queueFull(Int)
    /// The server cannot store or read its own files.
    case storage(String)
    /// No such job, page or file.
    case notFound(String)
    /// The page failed (its reason).
    case pageFailed(String)
    /// The job is not over yet.
    case notDone(String)
}
