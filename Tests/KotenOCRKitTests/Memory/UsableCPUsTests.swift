import Foundation
import Testing
@testable import KotenOCRKit

/// The CPUs the engine sizes its threads by: affinity mask, cgroup quota, CPUs online.
@Suite("Usable CPUs")
struct UsableCPUsTests {
    @Test("the smallest of CPUs online, the affinity mask and the quota rounded up; never below 1")
    func resolve() {
        #expect(UsableCPUs.resolve(online: 8, affinity: nil, quota: nil) == 8)
        #expect(UsableCPUs.resolve(online: 8, affinity: 2, quota: nil) == 2)
        #expect(UsableCPUs.resolve(online: 8, affinity: 6, quota: 1.5) == 2)
        #expect(UsableCPUs.resolve(online: 2, affinity: 4, quota: 16) == 2)
        #expect(UsableCPUs.resolve(online: 0, affinity: 0, quota: 0.1) == 1)
    }

    @Test("cgroup v2 cpu.max, v1 quota/period, /proc/self/cgroup and Cpus_allowed_list are read as the kernel writes them")
    func parsing() throws {
        #expect(UsableCPUs.parseCPUMax("150000 100000\n") == 1.5)
        #expect(UsableCPUs.parseCPUMax("max 100000") == nil)
        #expect(UsableCPUs.parseCPUList("0-3,6,8-9") == 7)
        #expect(UsableCPUs.parseCPUList(" 0-1") == 2)
        #expect(UsableCPUs.parseCPUList("x") == nil)
        #expect(UsableCPUs.affinityCount(status: "Name:\tx\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n") == 2)
        let paths = UsableCPUs.cgroupPaths("4:memory:/a\n1:cpu,cpuacct:/b\n0::/c\n")
        #expect(paths.unified == "/c" && paths.cpu == "/b")

        let root = try TestPaths.temporaryDirectory("cgroup")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("c"), withIntermediateDirectories: true)
        try "200000 100000\n".write(to: root.appendingPathComponent("c/cpu.max"), atomically: true, encoding: .utf8)
        #expect(UsableCPUs.cgroupQuota(root: root.path, membership: "0::/c\n") == 2)
        let v1 = try TestPaths.temporaryDirectory("cgroup-v1")
        try FileManager.default.createDirectory(at: v1.appendingPathComponent("cpu,cpuacct/b"), withIntermediateDirectories: true)
        try "50000\n".write(to: v1.appendingPathComponent("cpu,cpuacct/b/cpu.cfs_quota_us"), atomically: true, encoding: .utf8)
        try "100000\n".write(to: v1.appendingPathComponent("cpu,cpuacct/b/cpu.cfs_period_us"), atomically: true, encoding: .utf8)
        #expect(UsableCPUs.cgroupQuota(root: v1.path, membership: "2:cpu,cpuacct:/b\n0::/\n") == 0.5)
        try "-1\n".write(to: v1.appendingPathComponent("cpu,cpuacct/b/cpu.cfs_quota_us"), atomically: true, encoding: .utf8)
        #expect(UsableCPUs.cgroupQuota(root: v1.path, membership: "2:cpu,cpuacct:/b\n0::/\n") == nil)
    }

    @Test("this process: at least 1 and at most the CPUs online")
    func here() {
        #expect(UsableCPUs.count >= 1 && UsableCPUs.count <= ProcessInfo.processInfo.activeProcessorCount)
    }
}

/// When freed memory goes back to the system at every boundary.
@Suite("Memory tightness")
struct MemoryTightnessTests {
    @Test("a store with a budget below the machine's memory makes memory tight while it exists; a pressure release too")
    func tight() async throws {
        #expect(MemoryBudget.isTight(explicit: 200_000_000))
        #expect(!MemoryBudget.isTight(explicit: nil))
        #expect(!MemoryBudget.isTight(explicit: ProcessMemory.physicalBytes))
        let scene = try StoreScene()
        let store = scene.store(budget: 200_000_000)
        #expect(store.hasTightBudget)
        #expect(MemoryTightness.isTight)
        let roomy = scene.store(budget: ProcessMemory.physicalBytes * 2)
        #expect(!roomy.hasTightBudget)
        MemoryTightness.notePressure(at: Date().addingTimeInterval(-MemoryTightness.pressureWindow - 1))
        MemoryTightness.notePressure()
        #expect(MemoryTightness.isTight)
    }
}
