#if os(Linux)
import Foundation
import Testing

/// A network namespace with only loopback (util-linux `unshare --net --mount`, `ip link set lo up`) whose processes
/// are started with `nsenter`, under `strace` when their connections are to be read (docs/privacy.md, "How it is
/// checked"). In its own mount namespace an empty tmpfs hides the name service cache's socket folder (`/run/nscd`),
/// so that a host name can only be looked up by DNS from inside, where it is seen, and not by nscd outside.
/// As root it needs nothing more; otherwise it runs in a user namespace (`--user --map-root-user`). When no
/// namespace can be made the test fails, naming why: it never passes without having looked.
final class LoopbackNamespace: @unchecked Sendable {
    static let unshare = URL(fileURLWithPath: "/usr/bin/unshare")
    static let nsenter = URL(fileURLWithPath: "/usr/bin/nsenter")
    static let strace = URL(fileURLWithPath: "/usr/bin/strace")

    /// The process holding the namespaces: a shell that set them up and then waits on its standard input.
    private let anchor = Process()
    private let anchorInput = Pipe()
    private let asRoot = getuid() == 0

    init() throws {
        for tool in [Self.unshare, Self.nsenter, Self.strace] {
            try #require(FileManager.default.isExecutableFile(atPath: tool.path), "\(tool.path) missing: run scripts/setup.sh")
        }
        let setUp = "ip link set lo up && if [ -d /run/nscd ]; then mount -t tmpfs tmpfs /run/nscd; fi && echo ready && exec cat >/dev/null"
        anchor.executableURL = Self.unshare
        anchor.arguments = (asRoot ? [] : ["--user", "--map-root-user"]) + ["--net", "--mount", "--", "/bin/sh", "-c", setUp]
        anchor.standardInput = anchorInput
        let output = Pipe(), errors = Pipe()
        anchor.standardOutput = output
        anchor.standardError = errors
        try anchor.run()
        let first = output.fileHandleForReading.availableData
        guard String(decoding: first, as: UTF8.self).hasPrefix("ready") else {
            anchor.waitUntilExit()
            let why = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw NamespaceError(description: "no network namespace with only loopback could be made (\(why.trimmingCharacters(in: .whitespacesAndNewlines))): "
                                 + "this test needs root, or unprivileged user namespaces, and util-linux and iproute2 (scripts/setup.sh)")
        }
    }

    /// `nsenter`'s arguments that put `command` into the namespaces, under `strace` writing its connection attempts
    /// to `trace` when given: every `connect` and every `sendto`/`sendmsg` (a datagram sent without `connect`), of
    /// every thread and child process.
    func arguments(_ command: [String], trace: URL? = nil) -> [String] {
        let enter = ["--target", "\(anchor.processIdentifier)"] + (asRoot ? [] : ["--user", "--preserve-credentials"]) + ["--net", "--mount", "--"]
        let traced = trace.map { [Self.strace.path, "-f", "--seccomp-bpf", "-qq", "-e", "trace=connect,sendto,sendmsg,sendmmsg", "-o", $0.path, "--"] } ?? []
        return enter + traced + command
    }

    /// Ends the namespace (its anchor reads the end of its input and exits).
    func end() {
        try? anchorInput.fileHandleForWriting.close()
        anchor.waitUntilExit()
    }

    deinit { if anchor.isRunning { end() } }

    struct NamespaceError: Error, CustomStringConvertible { let description: String }
}

/// One connection attempt read from `strace`'s output: the address family and where it went (`127.0.0.1:8080`,
/// `[::1]:53`, a socket's path), with the line it came from.
struct ConnectionAttempt: CustomStringConvertible {
    let family: String
    let destination: String
    let line: String
    var description: String { line }

    /// Every attempt in `trace` that names an address: `connect`s, and datagrams sent to an address.
    static func all(in trace: String) -> [ConnectionAttempt] {
        trace.split(separator: "\n").compactMap { line -> ConnectionAttempt? in
            guard let family = line.firstMatch(of: /sa_family=(AF_[A-Z0-9]+)/)?.output.1 else { return nil }
            let destination: String
            switch family {
            case "AF_INET":
                let address = line.firstMatch(of: /inet_addr\("([^"]*)"\)/)?.output.1 ?? "?"
                destination = "\(address):\(line.firstMatch(of: /sin_port=htons\((\d+)\)/)?.output.1 ?? "?")"
            case "AF_INET6":
                let address = line.firstMatch(of: /inet_pton\(AF_INET6, "([^"]*)"/)?.output.1 ?? "?"
                destination = "[\(address)]:\(line.firstMatch(of: /sin6_port=htons\((\d+)\)/)?.output.1 ?? "?")"
            case "AF_UNIX":
                destination = String(line.firstMatch(of: /sun_path=(@?"[^"]*")/)?.output.1 ?? "?")
            default:
                destination = ""
            }
            return ConnectionAttempt(family: String(family), destination: destination, line: String(line))
        }
    }
}
#endif
