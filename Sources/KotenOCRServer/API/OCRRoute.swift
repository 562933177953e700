import Foundation
import KotenOCRKit

/// `POST /v1/ocr`: one page read at once, its result in the answer.
extension OCRService {
    func ocr(_ request: APIRequest) async throws -> HTTPResponse {
        try admit(request)
        let chosen = try requestOptions(request.parameters, allowFormat: true)
        guard let upload = try uploads(request).first else { throw APIError(.emptyBody, "no file") }
        guard let kind = FileSignature.of(fileAt: upload.file), kind != .zip else {
            throw APIError(.unsupportedType, "the body is not an image or PDF this server reads (POST a zip to /v1/jobs)")
        }
        guard queue.reserve() else { throw APIError.queueFull(queue.capacity) }
        defer { queue.release() }
        let name = upload.fileName.map { String($0.prefix(200)) } ?? "upload.\(kind.fileExtension)"
        if kind == .pdf, let pdfGuard {
            do { try pdfGuard.check(FileSystemPath(upload.file.path)) } catch {
                throw APIError(.undecodable, "\(name): \(error)")
            }
        }
        await lane.acquire()
        defer { Task { await lane.release() } }
        if Task.isCancelled { throw APIError(.clientClosed, "the client went away") }
        let started = Date()
        do {
            let data = try Data(contentsOf: upload.file)
            let source = try engine.open(data, name: name)
            if source.pageCount > 1 {
                throw APIError(.manyPages, "\(name) has \(source.pageCount) pages: POST it to /v1/jobs")
            }
            let page = try await withPageTimeout { try await self.engine.read(source) }
            metrics.pageRead(seconds: Date().timeIntervalSince(started))
            let format = chosen.format
            let body = format.isText ? try format.renderForStream(page, image: source, ruby: chosen.ruby)
                                     : try format.render(page, image: source, ruby: chosen.ruby)
            return HTTPResponse(status: 200, headers: [("Content-Type", Self.contentType(format))], body: .data(body))
        } catch let error as APIError {
            throw error
        } catch {
            metrics.pageFailed()
            throw APIError(reading: error, name: name, timeout: options.pageTimeout)
        }
    }

    /// Runs `read` under the page time limit: past it the read is cancelled and `PageTimeout` thrown.
    func withPageTimeout<T: Sendable>(_ read: @escaping @Sendable () async throws -> T) async throws -> T {
        let limit = options.pageTimeout
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await read() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(limit * 1e9))
                throw PageTimeout()
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw PageTimeout() }
            return value
        }
    }
}
