import Foundation

/// The addresses a `--host` names: an IPv4 or IPv6 address as it is, a host name (`localhost`) resolved to every
/// address it has (`getaddrinfo`), each listened on.
package enum ListenAddresses {
    package struct ResolveError: Error, CustomStringConvertible {
        package let description: String
    }

    /// The numeric addresses of `host`, IPv4 first, without repeats. Throws when the name has none.
    package static func resolve(_ host: String) throws -> [String] {
        if isNumeric(host) { return [host] }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            throw ResolveError(description: "cannot resolve --host \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        var v4: [String] = [], v6: [String] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let entry = node {
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if let address = entry.pointee.ai_addr,
               getnameinfo(address, entry.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 {
                let numeric = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if entry.pointee.ai_family == AF_INET6 {
                    if !v6.contains(numeric) { v6.append(numeric) }
                } else if !v4.contains(numeric) {
                    v4.append(numeric)
                }
            }
            node = entry.pointee.ai_next
        }
        guard !(v4 + v6).isEmpty else { throw ResolveError(description: "cannot resolve --host \(host): no address") }
        return v4 + v6
    }

    /// Whether `host` is an IPv4 or IPv6 address written out (not a name).
    package static func isNumeric(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// Whether the numeric `address` is a loopback one (127.0.0.0/8, ::1, or 127.x mapped into IPv6).
    package static func isLoopback(_ address: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
        return bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] && bytes[12] == 127
    }
}
