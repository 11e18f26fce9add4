/// Release-only measurements of the core and the cache hot path, on one core.
///
///     swift run -c release ring-bench [--quick]
///     swift run -c release ring-bench MODE [ARGUMENTS]
///
/// Without a mode, the full report (Report.swift). Each mode has its own file; the modes that
/// run one path N times are for callgrind or perf.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Each mode's flag and what it runs with the arguments after the flag.
let modes: [String: @Sendable ([String]) -> Void] = [
    "--profile-hit": { profileService($0, distinct: false) },
    "--profile-miss": { profileService($0, distinct: true) },
    "--profile-reply": profileReply,
    "--profile": profileSVG,
    "--profile-png": profilePNG,
    "--profile-deflate": profileDeflate,
    "--png-work": { _ in pngWork() },
    "--miss-work": { _ in missWork() },
    "--deflate": { _ in print(deflateComparison(batches: 31, size: 500)) },
    "--calibrate": { _ in calibrate() },
    "--curves": { _ in curves() },
]

func usage() {
    print("usage: ring-bench [--quick] | MODE [ARGUMENTS]; the modes are in Sources/ring-bench/main.swift")
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if let index = arguments.firstIndex(where: { modes[$0] != nil }) {
    modes[arguments[index]]!(Array(arguments[(index + 1)...]))
} else {
    report(quick: arguments.contains("--quick"))
}
