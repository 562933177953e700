import CMicroHTTPDShim
import Foundation

/// The HTTP layer over libmicrohttpd (Debian's libmicrohttpd 0.9.75-6; docs/serve.md, "Why libmicrohttpd"): the
/// only file that names it. MHD's own polling thread and pool parse HTTP; its post processor streams
/// `multipart/form-data` parts into files; a raw body is streamed to a file too. A request's head is shown to the
/// handler (`HTTPHandler.screen`) before one byte of its body is read: a refusal is sent at once, with no
/// `100 Continue`. When a request's body has been read, the connection is suspended and the `HTTPHandler` answers
/// on a Swift task, so OCR never runs on MHD's threads; the answer resumes the connection. A suspended connection's
/// socket is watched: when the client goes away the handler's task is cancelled. A streamed body (Server-Sent
/// Events) suspends the connection between chunks. Each address of `settings.addresses` has a daemon of its own,
/// all on one port.
package final class MicroHTTPDServer: @unchecked Sendable {
    package let settings: HTTPServerSettings
    let handler: any HTTPHandler
    private var daemons: [OpaquePointer] = []
    /// The port listened on (the ephemeral one for port 0), after `start`.
    package private(set) var port = 0

    package struct StartError: Error, CustomStringConvertible {
        package let description: String
    }

    package init(settings: HTTPServerSettings, handler: any HTTPHandler) {
        self.settings = settings
        self.handler = handler
    }

    /// Starts listening on every address, on one port; returns it. Throws `StartError` (address in use, bad address).
    /// An IPv6 address the machine cannot listen on (no IPv6) is passed over when another address is listened on.
    package func start() throws -> Int {
        try FileManager.default.createDirectory(at: settings.uploadDirectory, withIntermediateDirectories: true)
        var failure = StartError(description: "no address to listen on")
        // With port 0 the first address picks the port; another may have it taken: then all start again.
        for _ in 0..<8 {
            var started: [OpaquePointer] = [], chosen = settings.port, inUse = false
            for address in settings.addresses {
                if let daemon = startDaemon(address, port: chosen) {
                    started.append(daemon)
                    if chosen == 0 { chosen = Int(koten_mhd_bound_port(daemon)) }
                    continue
                }
                let code = errno
                failure = StartError(description: "cannot listen on \(address) port \(chosen): \(String(cString: strerror(code)))")
                if address.contains(":"), code == EADDRNOTAVAIL || code == EAFNOSUPPORT { continue }
                inUse = code == EADDRINUSE
                started.forEach { MHD_stop_daemon($0) }
                started = []
                break
            }
            if !started.isEmpty {
                daemons = started
                port = chosen
                return chosen
            }
            guard inUse, settings.port == 0 else { break }
        }
        throw failure
    }

    private func startDaemon(_ address: String, port: Int) -> OpaquePointer? {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let threads = max(1, (settings.threads + settings.addresses.count - 1) / settings.addresses.count)
        return address.withCString { host in
            koten_mhd_start(host, UInt16(clamping: port), UInt32(threads), UInt32(settings.connectionLimit),
                            UInt32(settings.perClientConnections), UInt32(settings.idleTimeoutSeconds), 256 * 1024,
                            accessHandler, context, completedHandler, context, uriLogger, context)
        }
    }

    // MARK: one request

    /// A request's state from its request line to its completion (made by the URI logger, held in MHD's `con_cls`,
    /// retained).
    final class Exchange: @unchecked Sendable {
        enum Phase { case head, reading, answering, ready(HTTPResponse), sent }
        let server: MicroHTTPDServer
        let connection: OpaquePointer
        /// The request-target as sent.
        let target: String
        var method = ""
        let started = Date()
        var headers: [String: String] = [:]
        var form: [String: String] = [:]
        var client = ""
        var folder: URL?
        var uploads: [HTTPUpload] = []
        var part: (field: String, fileName: String?, contentType: String?, file: URL, handle: FileHandle, size: Int)?
        var received = 0
        var refused: HTTPRefusal?
        var postProcessor: OpaquePointer?
        var phase = Phase.head
        var status = 0
        var task: Task<Void, Never>?
        let lock = NSLock()
        // A streamed body, and the task that takes its chunks.
        var streamed: StreamedBody?
        var pump: Task<Void, Never>?

        init(server: MicroHTTPDServer, connection: OpaquePointer, target: String) {
            self.server = server
            self.connection = connection
            self.target = target
        }

        /// The request without its body.
        var head: HTTPRequest { HTTPRequest(method: method, target: target, headers: headers, client: client) }

        var isMultipart: Bool { headers["content-type"]?.lowercased().hasPrefix("multipart/form-data") ?? false }
        /// A form's body (`multipart/form-data` or `application/x-www-form-urlencoded`): read by the post processor,
        /// its fields into `form`, its files into `uploads`.
        var isForm: Bool {
            isMultipart || headers["content-type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
        }

        func privateFolder(under root: URL) throws -> URL {
            if let folder { return folder }
            let made = root.appendingPathComponent("request-" + RandomID.make())
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            folder = made
            return made
        }

        func closePart() {
            guard let part else { return }
            try? part.handle.close()
            uploads.append(HTTPUpload(field: part.field, fileName: part.fileName, contentType: part.contentType, file: part.file, size: part.size))
            self.part = nil
        }

        func removeFiles() {
            if let part { try? part.handle.close() }
            part = nil
            if let folder { try? FileManager.default.removeItem(at: folder) }
            folder = nil
        }
    }

    fileprivate func exchange(_ pointer: UnsafeMutableRawPointer) -> Exchange {
        Unmanaged<Exchange>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// The request's head has been read: its method, headers and client. The handler screens it (a refusal is
    /// answered before one byte of the body is read); a body declared past the limit is refused as well.
    fileprivate func begin(_ ex: Exchange, method: String) -> MHD_Result {
        ex.method = method
        MHD_get_connection_values(ex.connection, MHD_ValueKind.HEADER_KIND, headerIterator, Unmanaged.passUnretained(ex).toOpaque())
        var address = [CChar](repeating: 0, count: 64)
        koten_mhd_client_address(ex.connection, &address, address.count)
        ex.client = String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        ex.phase = .reading
        if let answer = handler.screen(ex.head) { return send(ex, answer) }
        if let declared = ex.headers["content-length"], let length = Int(declared.trimmingCharacters(in: .whitespaces)),
           length > settings.maxBody {
            // Declared past the limit: answered before one byte of the body is read.
            return send(ex, handler.refuse(.tooLarge(limit: settings.maxBody), head: ex.head))
        }
        if ex.isForm, ex.headers["content-length"] != nil || ex.headers["transfer-encoding"] != nil {
            ex.postProcessor = MHD_create_post_processor(ex.connection, 64 * 1024, postIterator, Unmanaged.passUnretained(ex).toOpaque())
            if ex.postProcessor == nil { ex.refused = .badBody("a multipart/form-data body needs a boundary") }
        }
        return MHD_Result.YES
    }

    /// A chunk of the body: counted, then written (a part or the raw body to its file). Past the limit the body
    /// is refused and the rest only counted (MHD answers once the body has ended).
    fileprivate func receive(_ ex: Exchange, _ bytes: UnsafeRawBufferPointer) {
        ex.received += bytes.count
        guard ex.refused == nil else { return }
        if ex.received > settings.maxBody {
            ex.refused = .tooLarge(limit: settings.maxBody)
            ex.removeFiles()
            return
        }
        if let processor = ex.postProcessor {
            let ok = MHD_post_process(processor, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
            if ok != MHD_Result.YES, ex.refused == nil { ex.refused = .badBody("the form's body cannot be parsed") }
            return
        }
        do {
            if ex.part == nil {
                let folder = try ex.privateFolder(under: settings.uploadDirectory)
                let file = folder.appendingPathComponent("body")
                guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                    throw CocoaError(.fileWriteUnknown)
                }
                let type = ex.headers["content-type"].map(Self.mediaType)
                ex.part = ("", nil, type, file, try FileHandle(forWritingTo: file), 0)
            }
            try ex.part?.handle.write(contentsOf: Data(bytes))
            ex.part?.size += bytes.count
        } catch {
            ex.refused = .badBody("the body cannot be stored: \(error.localizedDescription)")
            ex.removeFiles()
        }
    }

    /// One piece of a multipart part (from MHD's post processor).
    fileprivate func formPiece(_ ex: Exchange, key: String, fileName: String?, contentType: String?, offset: UInt64,
                               bytes: UnsafeRawBufferPointer) -> Bool {
        guard ex.refused == nil else { return false }
        guard let fileName else {
            let text = String(decoding: bytes, as: UTF8.self)
            let value = offset == 0 ? text : (ex.form[key] ?? "") + text
            guard value.utf8.count <= 64 * 1024 else { ex.refused = .badBody("form field \(key.prefix(40)) is too long"); return false }
            ex.form[key] = value
            return true
        }
        do {
            if offset == 0 || ex.part == nil || ex.part?.field != key {
                ex.closePart()
                guard ex.uploads.count < 10_000 else { ex.refused = .badBody("too many files in one request"); return false }
                let folder = try ex.privateFolder(under: settings.uploadDirectory)
                let file = folder.appendingPathComponent("part-\(ex.uploads.count)")
                guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                    throw CocoaError(.fileWriteUnknown)
                }
                ex.part = (key, fileName, contentType.map(Self.mediaType), file, try FileHandle(forWritingTo: file), 0)
            }
            if bytes.count > 0 {
                try ex.part?.handle.write(contentsOf: Data(bytes))
                ex.part?.size += bytes.count
            }
            return true
        } catch {
            ex.refused = .badBody("an uploaded file cannot be stored: \(error.localizedDescription)")
            return false
        }
    }

    /// The body is read: refuse, or suspend and answer on a task.
    fileprivate func bodyEnded(_ ex: Exchange) -> MHD_Result {
        if let processor = ex.postProcessor {
            MHD_destroy_post_processor(processor)
            ex.postProcessor = nil
        }
        ex.closePart()
        if let refusal = ex.refused {
            ex.removeFiles()
            return send(ex, handler.refuse(refusal, head: ex.head))
        }
        var request = ex.head
        request.form = ex.form
        request.uploads = ex.uploads
        ex.phase = .answering
        MHD_suspend_connection(ex.connection)
        let handler = self.handler
        let work = Task {
            let response = await handler.handle(request)
            ex.lock.withLock { ex.phase = .ready(response) }
            MHD_resume_connection(ex.connection)
        }
        ex.task = work
        let fd = koten_mhd_connection_fd(ex.connection)
        // The client's socket, watched while the answer is worked on: a client that leaves cancels its work.
        Task.detached {
            while true {
                try? await Task.sleep(nanoseconds: 200_000_000)
                let answering = ex.lock.withLock { if case .answering = ex.phase { true } else { false } }
                guard answering else { return }
                if koten_mhd_peer_closed(fd) != 0 {
                    work.cancel()
                    return
                }
            }
        }
        return MHD_Result.YES
    }

    /// Queues `response` on the connection (from the access handler only, as MHD requires).
    fileprivate func send(_ ex: Exchange, _ response: HTTPResponse) -> MHD_Result {
        ex.phase = .sent
        ex.status = response.status
        let made: OpaquePointer?
        switch response.body {
        case .data(let data):
            made = data.withUnsafeBytes { raw in
                MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
            }
        case .file(let url, let offset, let length):
            let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            var info = stat()
            guard fd >= 0, fstat(fd, &info) == 0, offset >= 0, offset <= Int64(info.st_size) else {
                if fd >= 0 { close(fd) }
                // The file went between the answer and its sending: the connection is closed without an answer.
                return MHD_Result.NO
            }
            let count = min(length ?? Int64(info.st_size) - offset, Int64(info.st_size) - offset)
            made = MHD_create_response_from_fd_at_offset64(UInt64(count), fd, UInt64(offset))
        case .stream(let stream):
            let context = Unmanaged.passRetained(ex).toOpaque()
            made = MHD_create_response_from_callback(UInt64.max, 4096, streamReader, context, streamFree)
            let body = StreamedBody()
            ex.streamed = body
            ex.pump = Task { await body.pump(stream) { MHD_resume_connection(ex.connection) } }
        }
        guard let made else { return MHD_Result.NO }
        for (name, value) in response.headers { MHD_add_response_header(made, name, value) }
        let result = MHD_queue_response(ex.connection, UInt32(response.status), made)
        MHD_destroy_response(made)
        return result
    }

    /// Content reader of a streamed body (`StreamedBody`): the waiting chunk, the end, or suspend until the pump has more.
    fileprivate func readStream(_ ex: Exchange, into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        guard let body = ex.streamed else { return -1 }
        switch body.read(into: UnsafeMutableRawPointer(buffer), max: max, suspend: { MHD_suspend_connection(ex.connection) }) {
        case .bytes(let n): return n
        case .end: return -1  // MHD_CONTENT_READER_END_OF_STREAM
        case .suspended: return 0
        }
    }

    fileprivate func finished(_ ex: Exchange) {
        ex.task?.cancel()
        ex.pump?.cancel()
        ex.streamed?.close()
        if let processor = ex.postProcessor {
            MHD_destroy_post_processor(processor)
            ex.postProcessor = nil
        }
        ex.removeFiles()
        // A request MHD refused itself before its head was read (a request line or headers past its memory) has
        // no method: nothing of the API saw it.
        if !ex.method.isEmpty { handler.completed(ex.head, status: ex.status, seconds: Date().timeIntervalSince(ex.started)) }
    }

    static func mediaType(_ header: String) -> String {
        String(header.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    }
}

// MARK: C callbacks (no captures: the server or the exchange comes through the context pointer)

private let headerIterator: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return MHD_Result.YES }
    let ex = Unmanaged<MicroHTTPDServer.Exchange>.fromOpaque(cls).takeUnretainedValue()
    ex.headers[String(cString: key).lowercased()] = value.map { String(cString: $0) } ?? ""
    return MHD_Result.YES
}

/// The request line has been read: its exchange is made with the target as sent (MHD decodes its own copy).
private let uriLogger: koten_mhd_uri_logger = { cls, uri, connection in
    guard let cls, let connection else { return nil }
    let server = Unmanaged<MicroHTTPDServer>.fromOpaque(cls).takeUnretainedValue()
    let target = uri.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) } ?? "/"
    let ex = MicroHTTPDServer.Exchange(server: server, connection: connection, target: target)
    return Unmanaged.passRetained(ex).toOpaque()
}

private let accessHandler: MHD_AccessHandlerCallback = { cls, _, _, method, _, uploadData, uploadSize, state in
    guard let cls, let state, let uploadSize, let current = state.pointee else { return MHD_Result.NO }
    let server = Unmanaged<MicroHTTPDServer>.fromOpaque(cls).takeUnretainedValue()
    let ex = server.exchange(current)
    switch ex.phase {
    case .head:
        return server.begin(ex, method: method.map { String(cString: $0) } ?? "GET")
    case .reading:
        if uploadSize.pointee > 0 {
            let bytes = UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee)
            server.receive(ex, bytes)
            uploadSize.pointee = 0
            // MHD answers only once the body has ended: a refused body is read on and dropped, up to twice the
            // limit; a client that sends more than that loses the connection without an answer.
            if ex.refused != nil, ex.received > 2 * server.settings.maxBody + 1_000_000 { return MHD_Result.NO }
            return MHD_Result.YES
        }
        return server.bodyEnded(ex)
    case .answering:
        uploadSize.pointee = 0
        return MHD_Result.YES
    case .ready(let response):
        return server.send(ex, response)
    case .sent:
        uploadSize.pointee = 0  // a refusal queued before the body ended: the rest is dropped
        return MHD_Result.YES
    }
}

private let postIterator: MHD_PostDataIterator = { cls, _, key, fileName, contentType, _, data, offset, size in
    guard let cls else { return MHD_Result.NO }
    let ex = Unmanaged<MicroHTTPDServer.Exchange>.fromOpaque(cls).takeUnretainedValue()
    let server: MicroHTTPDServer? = ex.server
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let accepted = server?.formPiece(ex, key: key.map { String(cString: $0) } ?? "", fileName: fileName.map { String(cString: $0) },
                                     contentType: contentType.map { String(cString: $0) }, offset: offset, bytes: bytes) ?? false
    return accepted ? MHD_Result.YES : MHD_Result.NO
}

private let completedHandler: MHD_RequestCompletedCallback = { cls, _, state, _ in
    guard let cls, let state, let pointer = state.pointee else { return }
    let server = Unmanaged<MicroHTTPDServer>.fromOpaque(cls).takeUnretainedValue()
    let ex = Unmanaged<MicroHTTPDServer.Exchange>.fromOpaque(pointer)
    server.finished(ex.takeUnretainedValue())
    ex.release()
    state.pointee = nil
}

private let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return -2 }
    let ex = Unmanaged<MicroHTTPDServer.Exchange>.fromOpaque(cls).takeUnretainedValue()
    return ex.server.readStream(ex, into: buffer, max: max)
}

private let streamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<MicroHTTPDServer.Exchange>.fromOpaque(cls).release()
}
