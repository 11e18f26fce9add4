#if canImport(Glibc)
    import CSystem
    import Glibc
#elseif canImport(Darwin)
    import CSystem
    import Darwin
#endif

/// How many CPUs this process may use: the CPUs it may run on (`sched_getaffinity`), capped by
/// its cgroup's CPU quota (v2 `cpu.max`, or v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`, the
/// tightest of the cgroup and its ancestors), rounded up, at least 1.
///
/// `sysconf(_SC_NPROCESSORS_ONLN)` counts the machine's CPUs: a pod limited to 2 CPUs on a
/// 32-core node would start 32 event loops and 32 render threads, and let them share two
/// CPUs' worth of time.
package enum CPUBudget {
    /// The budget of this process, read once.
    package static let available: Int = {
        let affinity = Int(csystem_affinity_cpu_count())
        let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let cgroup = readFile("/proc/self/cgroup") ?? ""
        return count(cpus: affinity > 0 ? affinity : online, quota: quota(cgroup: cgroup, root: "/sys/fs/cgroup"))
    }()

    /// `cpus` capped by `quota` (CPUs, fractional), rounded up, at least 1.
    static func count(cpus: Int, quota: Double?) -> Int {
        guard let quota, quota.isFinite, quota > 0 else { return max(1, cpus) }
        return max(1, min(cpus, Int(quota.rounded(.up))))
    }

    /// The tightest CPU quota that applies to the cgroup named in `cgroup` (the text of
    /// `/proc/self/cgroup`), reading the cgroup file systems under `root`; nil when none is set.
    ///
    /// A cgroup namespace (a container) shows its own cgroup as `/`, and the files of a host
    /// path may not be mounted where the path says: each path is tried, then its ancestors, and
    /// the root itself.
    static func quota(cgroup: String, root: String) -> Double? {
        var quotas: [Double] = []
        for line in cgroup.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let controllers = fields[1].split(separator: ",")
            let path = String(fields[2])
            if fields[0] == "0", fields[1].isEmpty {  // v2, the unified hierarchy
                for directory in ancestors(of: path, under: root) {
                    if let text = readFile(directory + "/cpu.max"), let quota = quota(cpuMax: text) {
                        quotas.append(quota)
                    }
                }
            } else if controllers.contains("cpu") {  // v1
                for mount in [root + "/cpu", root + "/cpu,cpuacct", root + "/cpuacct,cpu"] {
                    for directory in ancestors(of: path, under: mount) {
                        if let quotaText = readFile(directory + "/cpu.cfs_quota_us"),
                            let periodText = readFile(directory + "/cpu.cfs_period_us"),
                            let quota = quota(cfsQuota: quotaText, cfsPeriod: periodText)
                        {
                            quotas.append(quota)
                        }
                    }
                }
            }
        }
        return quotas.min()
    }

    /// `path` under `root`, then each of its ancestors up to `root` itself.
    static func ancestors(of path: String, under root: String) -> [String] {
        var parts = path.split(separator: "/").map(String.init)
        var result: [String] = []
        while true {
            result.append(parts.isEmpty ? root : root + "/" + parts.joined(separator: "/"))
            guard !parts.isEmpty else { return result }
            parts.removeLast()
        }
    }

    /// CPUs from cgroup v2's `cpu.max` ("QUOTA PERIOD" in microseconds, or "max PERIOD").
    static func quota(cpuMax text: String) -> Double? {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count == 2, fields[0] != "max", let quota = Double(fields[0]), let period = Double(fields[1]),
            quota > 0, period > 0
        else { return nil }
        return quota / period
    }

    /// CPUs from cgroup v1's `cpu.cfs_quota_us` (-1: none) and `cpu.cfs_period_us`.
    static func quota(cfsQuota: String, cfsPeriod: String) -> Double? {
        func number(_ text: String) -> Double? { Double(text.filter { $0 != "\n" && $0 != " " }) }
        guard let quota = number(cfsQuota), let period = number(cfsPeriod), quota > 0, period > 0 else { return nil }
        return quota / period
    }

    /// A small file's text (at most 4 KiB, as /proc and cgroup files are), or nil.
    static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return String(decoding: bytes[0..<filled], as: UTF8.self)
    }
}

extension ServerConfiguration {
    /// ``eventLoops`` resolved: 0 stands for the CPU budget.
    package var eventLoopCount: Int { eventLoops > 0 ? eventLoops : CPUBudget.available }
}
