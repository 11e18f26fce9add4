import Foundation
import Testing

@testable import HTTPServer

/// The CPU budget: affinity capped by the cgroup quota (v2 `cpu.max`, v1 CFS files), tightest
/// of the cgroup and its ancestors, rounded up, at least 1.
@Suite struct CPUBudgetTests {
    @Test func quotaFilesParse() {
        #expect(CPUBudget.quota(cpuMax: "max 100000\n") == nil)
        #expect(CPUBudget.quota(cpuMax: "150000 100000\n") == 1.5)
        #expect(CPUBudget.quota(cpuMax: "garbage") == nil)
        #expect(CPUBudget.quota(cfsQuota: "-1\n", cfsPeriod: "100000\n") == nil)
        #expect(CPUBudget.quota(cfsQuota: "50000\n", cfsPeriod: "100000\n") == 0.5)
    }

    @Test func theCountRoundsUpAndNeverPassesTheCPUs() {
        #expect(CPUBudget.count(cpus: 32, quota: 2) == 2)
        #expect(CPUBudget.count(cpus: 32, quota: 1.5) == 2)
        #expect(CPUBudget.count(cpus: 32, quota: 0.1) == 1)
        #expect(CPUBudget.count(cpus: 4, quota: 16) == 4)
        #expect(CPUBudget.count(cpus: 4, quota: nil) == 4)
        #expect(CPUBudget.count(cpus: 0, quota: nil) == 1)
    }

    @Test func ancestorsRunUpToTheRoot() {
        #expect(CPUBudget.ancestors(of: "/a/b", under: "/r") == ["/r/a/b", "/r/a", "/r"])
        #expect(CPUBudget.ancestors(of: "/", under: "/r") == ["/r"])
    }

    /// A cgroup file system laid out in a temporary directory, as v2 and as v1 mount it.
    @Test func theTightestQuotaOnThePathApplies() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cpu-budget-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        // v2: the pod allows 2.5 CPUs, the container inside it 3: 2.5 applies.
        try write("pod/cpu.max", "250000 100000\n")
        try write("pod/box/cpu.max", "300000 100000\n")
        #expect(CPUBudget.quota(cgroup: "0::/pod/box\n", root: root.path) == 2.5)
        // v1: the quota sits on the cpu controller's hierarchy.
        try write("cpu/job/cpu.cfs_quota_us", "100000\n")
        try write("cpu/job/cpu.cfs_period_us", "100000\n")
        #expect(CPUBudget.quota(cgroup: "4:memory:/elsewhere\n2:cpu,cpuacct:/job\n", root: root.path) == 1)
        // No quota set anywhere.
        try write("free/cpu.max", "max 100000\n")
        #expect(CPUBudget.quota(cgroup: "0::/free\n", root: root.path) == nil)
    }

    /// The memory limit is read as the CPU quota is, from either cgroup version.
    @Test func theTightestMemoryLimitOnThePathApplies() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("memory-budget-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try write("pod/memory.max", "268435456\n")
        try write("pod/box/memory.max", "max\n")
        #expect(MemoryBudget.limit(cgroup: "0::/pod/box\n", root: root.path) == 268_435_456)
        try write("memory/job/memory.limit_in_bytes", "134217728\n")
        try write("memory/memory.limit_in_bytes", "9223372036854771712\n")
        #expect(MemoryBudget.limit(cgroup: "3:cpu:/x\n4:memory:/job\n", root: root.path) == 134_217_728)
        try write("free/memory.max", "max\n")
        #expect(MemoryBudget.limit(cgroup: "0::/free\n", root: root.path) == nil)
        #expect(MemoryBudget.limit("garbage") == nil)
    }

    @Test func thisProcessHasAtLeastOneCPU() {
        #expect(CPUBudget.available >= 1)
        #expect(ServerConfiguration().eventLoopCount == CPUBudget.available)
    }
}
