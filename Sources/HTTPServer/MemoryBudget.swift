/// The memory this process may use: its cgroup's limit (v2 `memory.max`, or v1
/// `memory.limit_in_bytes`, the tightest of the cgroup and its ancestors), or nil when none is
/// set. `/metrics` exports it beside the resident size, so an alert can compare the two
/// without knowing how the process was deployed.
package enum MemoryBudget {
    /// The limit of this process, read once.
    package static let limitBytes: Int? = limit(
        cgroup: CPUBudget.readFile("/proc/self/cgroup") ?? "", root: "/sys/fs/cgroup")

    /// The tightest memory limit on the cgroup named in `cgroup` (the text of
    /// `/proc/self/cgroup`), reading the cgroup file systems under `root`, as
    /// ``CPUBudget`` reads the CPU quota.
    static func limit(cgroup: String, root: String) -> Int? {
        var limits: [Int] = []
        for line in cgroup.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let path = String(fields[2])
            if fields[0] == "0", fields[1].isEmpty {  // v2
                for directory in CPUBudget.ancestors(of: path, under: root) {
                    if let text = CPUBudget.readFile(directory + "/memory.max"), let limit = limit(text) {
                        limits.append(limit)
                    }
                }
            } else if fields[1].split(separator: ",").contains("memory") {  // v1
                for directory in CPUBudget.ancestors(of: path, under: root + "/memory") {
                    if let text = CPUBudget.readFile(directory + "/memory.limit_in_bytes"), let limit = limit(text) {
                        limits.append(limit)
                    }
                }
            }
        }
        return limits.min()
    }

    /// A limit file's bytes: nil for `max` (v2) or v1's "no limit", a page-rounded number
    /// near `Int64.max`.
    static func limit(_ text: String) -> Int? {
        guard let bytes = Int(text.filter { $0 != "\n" && $0 != " " }), bytes > 0, bytes < 1 << 62 else { return nil }
        return bytes
    }
}
