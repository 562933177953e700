import Foundation

extension RunDiagnostics.Payload.Platform {
    /// This machine: OS, kernel release (Linux) or OS version, architecture, memory, cgroup limit, CPUs.
    public static func current() -> RunDiagnostics.Payload.Platform {
        var names = utsname()
        _ = uname(&names)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        #if os(Linux)
        let os = "Linux", version = field(names.release)
        #else
        let version = ProcessInfo.processInfo.operatingSystemVersionString
        #if os(macOS)
        let os = "macOS"
        #elseif os(iOS)
        let os = "iOS"
        #else
        let os = field(names.sysname)
        #endif
        #endif
        let physical = ProcessMemory.physicalBytes
        let limit = MemoryBudget.automatic()
        return .init(os: os, osVersion: version, architecture: field(names.machine), device: nil,
                     physicalMemoryBytes: physical, memoryLimitBytes: limit < physical ? limit : nil,
                     processorCount: ProcessInfo.processInfo.processorCount)
    }
}
