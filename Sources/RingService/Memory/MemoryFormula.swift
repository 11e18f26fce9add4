import HTTPServer

/// The memory formula of docs/operations.md ("Memory"): the most `ring serve` holds for its
/// flags, and how the flags are fitted under a cgroup's memory limit at start, so the process
/// is never started with a cache or render memory its limit cannot hold (it would be killed
/// by the kernel under load instead).
package enum MemoryFormula {
    /// The binary, its libraries, stacks, read buffers and the cache's tables, under load.
    static let fixedBytes = 20 << 20
    /// The fallback fonts' kept tables (0.6 MiB for the image's two), rounded up.
    static let fontBytes = 1 << 20
    static let connectionBytes = 2 << 10
    static let renderThreadBytes = 5 << 19
    /// The smallest cache and PNG render memory a fit goes down to.
    static let smallestCache = 4 << 20
    static let smallestPNGRender = 8 << 20

    /// The formula's terms for these settings, in bytes, by the flag that sets each.
    package static func terms(server: ServerConfiguration, service: ServiceConfiguration) -> [(String, Int)] {
        var terms = [
            ("fixed", fixedBytes + (service.fonts.hasFallbacks ? fontBytes : 0)),
            ("--cache-mb", service.cacheBytes),
            ("--max-connections", server.maxConnections * connectionBytes),
            ("--png-max-render-mb", service.pngRenders * service.raster.maxRenderBytes),
            ("--render-threads", service.renderThreadCount * renderThreadBytes),
        ]
        if service.sources.isEnabled { terms.append(("--source-cache-mb", service.sources.cacheBytes)) }
        return terms
    }

    package static func total(server: ServerConfiguration, service: ServiceConfiguration) -> Int {
        terms(server: server, service: service).reduce(0) { $0 + $1.1 }
    }

    /// What start-up does under a memory limit.
    package enum Fit: Equatable {
        /// No limit, or the formula is within it.
        case within(total: Int, limit: Int?)
        /// The cache, then each PNG render's memory, lowered (where their flags were not
        /// given) until the formula fits: the new settings and what changed.
        case fitted(ServiceConfiguration, total: Int, limit: Int, changes: [String])
        /// Even so the formula is past the limit: why, naming the flags to lower.
        case refused(String)
    }

    /// Fits `service` under `limit`; `given` holds the flags set on the command line, which
    /// are never changed.
    package static func fit(
        server: ServerConfiguration, service: ServiceConfiguration, limit: Int?, given: Set<String>
    ) -> Fit {
        let total = total(server: server, service: service)
        guard let limit, total > limit else { return .within(total: total, limit: limit) }
        var fitted = service
        var changes: [String] = []
        var over = total - limit
        if !given.contains("--cache-mb"), fitted.cacheBytes > smallestCache {
            let cut = min(over, fitted.cacheBytes - smallestCache)
            fitted.cacheBytes = ((fitted.cacheBytes - cut) >> 20) << 20
            over = self.total(server: server, service: fitted) - limit
            changes.append("--cache-mb \(fitted.cacheBytes >> 20)")
        }
        if over > 0, !given.contains("--png-max-render-mb"), fitted.raster.maxRenderBytes > smallestPNGRender {
            let each = (over + fitted.pngRenders - 1) / fitted.pngRenders
            let lowered = max(smallestPNGRender, fitted.raster.maxRenderBytes - each)
            fitted.raster.maxRenderBytes = (lowered >> 20) << 20
            over = self.total(server: server, service: fitted) - limit
            changes.append("--png-max-render-mb \(fitted.raster.maxRenderBytes >> 20)")
        }
        guard over > 0 else {
            return .fitted(fitted, total: self.total(server: server, service: fitted), limit: limit, changes: changes)
        }
        let parts = terms(server: server, service: fitted).map { "\($0.0) \(mebibytes($0.1))" }
        return .refused(
            "the memory limit of \(mebibytes(limit)) is below what these settings need, "
                + "\(mebibytes(self.total(server: server, service: fitted))) (\(parts.joined(separator: ", "))): "
                + "lower --cache-mb, --png-max-render-mb or --max-connections, or raise the limit")
    }

    /// `12 MiB`, `0.5 MiB`.
    package static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return tenths % 10 == 0 ? "\(tenths / 10) MiB" : "\(tenths / 10).\(tenths % 10) MiB"
    }
}
