import Foundation

/// Each client address's rate of OCR requests (`POST /v1/ocr`, `POST /v1/jobs`): at most `perMinute` of them in
/// any minute (`--client-rate`); past it, refused (429 with `Retry-After: 60`).
final class ClientRate: @unchecked Sendable {
    let perMinute: Int
    private let lock = NSLock()
    private var recent: [String: [Date]] = [:]

    init(perMinute: Int) { self.perMinute = perMinute }

    /// Counts one OCR request of `client`; false when it made `perMinute` of them in the last minute.
    func admit(client: String, now: Date = Date()) -> Bool {
        lock.withLock {
            let since = now.addingTimeInterval(-60)
            var times = (recent[client] ?? []).filter { $0 > since }
            guard times.count < perMinute else { recent[client] = times; return false }
            times.append(now)
            recent[client] = times
            if recent.count > 10_000 { recent = recent.filter { $0.value.contains { $0 > since } } }
            return true
        }
    }
}
