import HTTPServer
import RingService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The flags of `ring serve`, each with its default and range; docs/operations.md lists them
/// (a test keeps the two equal).
extension ServeCommand {
    /// Every flag, under the headings `--help` prints, each group in the order people need it.
    static let groups: [(heading: String, flags: [Flag])] = [
        (
            "LISTENING",
            [
                Flag(
                    name: "--host", value: "ADDRESS",
                    help: "address to listen on; :: for IPv4 and IPv6 (env HOST; 0.0.0.0)"
                ) {
                    text, server, _, _ in
                    server.host = text
                    return !text.isEmpty
                },
                Flag(name: "--port", value: "N", help: "TCP port, 0 for any (env PORT; 8080)") { text, server, _, _ in
                    guard let port = integer(text, 0...65535) else { return false }
                    server.port = port
                    return true
                },
                .server(
                    "--threads", "N", "event loops, one thread each; 0: the CPUs this process may use", \.eventLoops,
                    in: 0...256),
                Flag(
                    name: "--io", value: IOBackend.allCases.map(\.rawValue).joined(separator: "|"),
                    help: "how the loops wait for sockets (\(IOBackend.platformDefault.rawValue))"
                ) { text, server, _, _ in
                    guard let backend = IOBackend(rawValue: text) else { return false }
                    server.io = backend
                    return true
                },
                .server(
                    "--requests-per-turn", "N", "pipelined requests a connection answers before others get a turn",
                    \.maxRequestsPerTurn, in: 1...1024),
                .server(
                    "--write-delay-us", "MICROSECONDS", "how long an answer may wait for its batch's others, 0 never",
                    \.writeDelayMicroseconds, in: 0...100_000),
                .server(
                    "--yield-after", "EVENTS", "yield the core after a batch this large, 0 never", \.yieldAfterEvents,
                    in: 0...65536),
                .server(
                    "--read-buffer", "BYTES", "bytes read from a socket at a time", \.readBufferBytes,
                    in: 1024...16_777_216),
                .seconds("--accept-backoff", "pause in accepting when out of descriptors", \.acceptBackoff),
            ]
        ),
        (
            "LIMITS",
            [
                .server("--max-connections", "N", "connections held at once", \.maxConnections, in: 1...1_000_000),
                Flag(
                    name: "--max-connections-per-client", value: "N",
                    help: "connections one client address may hold at once, 0 no limit (a quarter of --max-connections)"
                ) { text, server, _, _ in
                    guard let limit = Int(text), (0...1_000_000).contains(limit) else { return false }
                    server.maxConnectionsPerClient = limit
                    return true
                },
                Flag(
                    name: "--trusted-proxy", value: "CIDR",
                    help:
                        "a proxy in front (10.0.0.0/8, 2001:db8::1): the log's client is read from Forwarded or "
                        + "X-Forwarded-For, and its connections are not limited per client; repeatable"
                ) { text, server, service, _ in
                    guard let range = ClientAddressRange(text) else { return false }
                    service.trustedProxies.append(range)
                    server.unlimitedClients.append(range)
                    return true
                },
                .seconds("--header-timeout", "deadline for a whole request head", \.headerTimeout),
                .seconds("--idle-timeout", "keep-alive idle timeout", \.idleTimeout),
                .seconds("--write-timeout", "deadline for a client to read a response", \.writeTimeout),
                .seconds("--deadline-check", "how often the deadlines above are checked", \.deadlineCheckInterval),
                .server(
                    "--max-request-line", "BYTES", "longest request line, else 414", \.maxRequestLineBytes,
                    in: 64...1_048_576),
                .server(
                    "--max-header-bytes", "BYTES", "largest header block, else 431", \.maxHeaderBytes,
                    in: 256...1_048_576),
                .server("--max-headers", "N", "most header fields, else 431", \.maxHeaderCount, in: 1...10_000),
                .server(
                    "--max-body", "BYTES", "largest request body read and discarded, else 413", \.maxBodyBytes,
                    in: 0...16_777_216),
                .service(
                    "--max-query", "BYTES", "longest query rendered, else an error image", \.maxQueryBytes,
                    in: 1...1_048_576),
            ]
        ),
        (
            "CACHE",
            [
                .service("--cache-mb", "N", "response cache size in MiB", \.cacheBytes, in: 1...65536, scale: 1 << 20),
                .service("--max-age", "SECONDS", "Cache-Control max-age of rings", \.maxAge, in: 0...31_536_000),
                .service(
                    "--stale-while-revalidate", "SECONDS", "how long caches may serve a ring while refetching it",
                    \.staleWhileRevalidate, in: 0...31_536_000),
                .service(
                    "--stale-if-error", "SECONDS", "how long caches may serve a ring while this service fails",
                    \.staleIfError, in: 0...31_536_000),
                .service(
                    "--error-max-age", "SECONDS", "max-age of error images, 404 and 405, at most 60", \.errorMaxAge,
                    in: 0...60),
                Flag(
                    name: "--cache-admission",
                    value: ResponseCache.Admission.allCases.map(\.rawValue).joined(separator: "|"),
                    help: "store a new SVG when first or second asked for (\(defaults.service.cacheAdmission.rawValue))"
                ) { text, _, service, _ in
                    guard let admission = ResponseCache.Admission(rawValue: text) else { return false }
                    service.cacheAdmission = admission
                    return true
                },
                .service("--cache-shards", "N", "locks the response cache is split into", \.cacheShards, in: 1...1024),
            ]
        ),
        (
            "RENDERING",
            [
                .service(
                    "--render-threads", "N", "render threads; 0: the CPUs this process may use", \.renderThreads,
                    in: 0...256),
                .service(
                    "--render-queue", "N", "renders that may wait for a thread, else 503", \.renderQueue, in: 1...65536),
                .service(
                    "--max-render-ms", "MILLISECONDS", "rings estimated to take longer get an error image",
                    \.maxRenderMilliseconds, in: 1...600_000),
                .service(
                    "--inline-render-us", "MICROSECONDS", "rings estimated to render within this run on the event loop",
                    \.inlineRenderMicroseconds, in: 0...1_000_000),
                .service(
                    "--spare-render-us", "MICROSECONDS",
                    "small rings, estimated within this, render on an event loop within its write delay; 0: never",
                    \.spareRenderMicroseconds, in: 0...1_000_000),
            ]
        ),
        (
            "PNG AND FONTS",
            [
                .service(
                    "--png-max-side", "PIXELS", "largest PNG width or height, else an error image", \.raster.maxSide,
                    in: 16...16384),
                .service(
                    "--png-max-render-mb", "N", "most memory one PNG render may take, in MiB", \.raster.maxRenderBytes,
                    in: 1...4096, scale: 1 << 20),
                .service(
                    "--png-renders", "N", "large PNG renders queued or running at once, else 503", \.pngRenders,
                    in: 1...256),
                .service(
                    "--png-gate-pixels", "N", "PNGs larger than this many pixels need a render place", \.pngGatePixels,
                    in: 0...67_108_864),
                .fontPaths,
                .service(
                    "--font-max-mb", "N", "largest font file read, in MiB", \.fontLimits.maximumFileBytes, in: 1...1024,
                    scale: 1 << 20),
                .service(
                    "--font-cache", "GLYPHS", "decoded glyphs kept per font", \.fontLimits.cachedGlyphs,
                    in: 16...1_000_000),
            ]
        ),
        (
            "LIVE VALUES",
            [
                Flag(
                    name: "--source-allow", value: "HOSTS",
                    help:
                        "hosts live values (src=) may be read from: names or *.example.com, comma-separated; repeatable (none: off)"
                ) { text, _, service, _ in
                    let patterns = text.split(separator: ",", omittingEmptySubsequences: false).map {
                        SourcePolicy.hostPattern(String($0))
                    }
                    guard !patterns.isEmpty, patterns.allSatisfy({ $0 != nil }) else { return false }
                    service.sources.allowedHosts += patterns.compactMap { $0 }
                    return true
                },
                .switch(
                    "--source-allow-http", "read live values over plain http too, for development", \.sources.allowHTTP),
                .switch(
                    "--source-allow-private", "read live values from private, loopback and this server's addresses too",
                    \.sources.allowPrivate),
                .decimal(
                    "--source-timeout", "SECONDS", "the most one fetch of a source may take, redirects included",
                    \.sources.timeout, in: .leastNonzeroMagnitude...60),
                .service(
                    "--source-ttl", "SECONDS", "how long a fetched value is used; a document's max-age may lengthen it",
                    \.sources.ttl, in: SourcePolicy.shortestTTL...SourcePolicy.longestTTL),
                .service(
                    "--source-stale", "SECONDS", "how long the last good value is served while its source fails",
                    \.sources.stale, in: 0...2_592_000),
                .service(
                    "--source-per-host", "N", "fetches running at once per allowed host (a *.domain entry is one)",
                    \.sources.perHost, in: 1...64),
                .decimal(
                    "--source-rate", "N", "fetches started a second per allowed host; more wait their turn",
                    \.sources.fetchesPerSecond, in: 0.01...10_000),
                .service(
                    "--source-queue", "N", "fetches that may wait their turn per allowed host, else an error image",
                    \.sources.queuePerHost, in: 0...65536),
                .decimal(
                    "--source-queue-wait", "SECONDS",
                    "the longest a fetch waits for its turn; with --source-timeout under --write-timeout",
                    \.sources.queueWait, in: 0...600),
                .service(
                    "--source-max-bytes", "BYTES", "largest source document read", \.sources.maxBytes,
                    in: 1024...16_777_216),
                .service("--source-redirects", "N", "redirects a fetch follows", \.sources.maxRedirects, in: 0...10),
                .service(
                    "--source-cache-mb", "N", "source documents kept, in MiB", \.sources.cacheBytes, in: 1...4096,
                    scale: 1 << 20),
                .service(
                    "--source-resolvers", "N",
                    "threads resolving source names; one allowed host holds --source-per-host",
                    \.sources.resolvers, in: 1...256),
            ]
        ),
        (
            "LOGGING",
            [
                Flag(name: "--access-log", value: "off|stdout|PATH", help: "where the access log goes (stdout)") {
                    text, _, _, log in
                    log.destination = text
                    return !text.isEmpty
                },
                Flag(
                    name: "--access-log-format",
                    value: AccessLog.Format.allCases.map(\.rawValue).joined(separator: "|"),
                    help: "a line of text, or a JSON object a line, for log collectors (text)"
                ) { text, _, _, log in
                    guard let format = AccessLog.Format(rawValue: text) else { return false }
                    log.format = format
                    return true
                },
            ]
        ),
        (
            "MEMORY",
            [
                .service("--malloc-arenas", "N", "glibc malloc arenas (M_ARENA_MAX)", \.memory.arenas, in: 1...64),
                .service(
                    "--malloc-mmap-kb", "KIB", "glibc maps blocks at least this large on their own (M_MMAP_THRESHOLD)",
                    \.memory.mmapThreshold, in: 4...32768, scale: 1024),
                .decimal(
                    "--trim-interval", "SECONDS", "seconds between hand-backs of free memory, 0 never",
                    \.memory.trimInterval,
                    in: 0...3600),
            ]
        ),
        (
            "SHUTDOWN",
            [
                .seconds(
                    "--drain-timeout", "on SIGTERM, time to finish in-flight responses", \.drainTimeout, allowZero: true
                ),
                .seconds(
                    "--linger", "after the last response, time to read what the client still sends", \.lingerTimeout,
                    allowZero: true),
            ]
        ),
    ]
}
