import HTTPServer
import Testing

@testable import RingService

/// Start-up under a memory limit: the formula of docs/operations.md decides whether the flags
/// fit, what is lowered to make them fit, or why the server refuses to start.
@Suite struct MemoryFormulaTests {
    private let server = ServerConfiguration()
    private var service: ServiceConfiguration {
        var service = ServiceConfiguration()
        service.renderThreads = 2
        return service
    }

    @Test func theFormulaAddsItsTerms() {
        // 20 MiB fixed, the 64 MiB cache, 2 KiB × 10 000 connections, one 32 MiB PNG render,
        // 2.5 MiB × 2 render threads.
        #expect(MemoryFormula.total(server: server, service: service) == (20 + 64 + 32 + 5) << 20 + 10_000 * 2048)
        var live = service
        live.sources.allowedHosts = [SourcePolicy.hostPattern("example.com")!]
        #expect(
            MemoryFormula.total(server: server, service: live) - MemoryFormula.total(server: server, service: service)
                == live.sources.cacheBytes)
    }

    @Test func withinTheLimitNothingChanges() {
        #expect(
            MemoryFormula.fit(server: server, service: service, limit: nil, given: [])
                == .within(total: MemoryFormula.total(server: server, service: service), limit: nil))
        guard case .within = MemoryFormula.fit(server: server, service: service, limit: 256 << 20, given: []) else {
            Issue.record("the defaults fit 256 MiB")
            return
        }
    }

    /// Under a tighter limit the cache is lowered first, then each PNG render's memory, to
    /// whole MiB, until the formula is within the limit.
    @Test(arguments: [(96, ["--cache-mb 19"]), (64, ["--cache-mb 4", "--png-max-render-mb 15"])])
    func theCacheAndThenRenderMemoryAreFitted(limitMiB: Int, expected: [String]) throws {
        let limit = limitMiB << 20
        guard
            case .fitted(let fitted, let total, limit, let changes) =
                MemoryFormula.fit(server: server, service: service, limit: limit, given: [])
        else {
            Issue.record("\(limitMiB) MiB: not fitted")
            return
        }
        #expect(changes == expected)
        #expect(total <= limit && total == MemoryFormula.total(server: server, service: fitted))
        #expect(fitted.cacheBytes % (1 << 20) == 0 && fitted.raster.maxRenderBytes % (1 << 20) == 0)
    }

    /// A limit no fit can meet, or one that would need a flag the operator gave, refuses to
    /// start, naming the flags to lower.
    @Test func aLimitTooSmallRefusesToStart() {
        guard
            case .refused(let reason) = MemoryFormula.fit(server: server, service: service, limit: 32 << 20, given: [])
        else {
            Issue.record("32 MiB cannot hold 10 000 connections and a PNG render")
            return
        }
        #expect(reason.contains("32 MiB") && reason.contains("--max-connections") && reason.contains("--cache-mb"))
        guard
            case .refused = MemoryFormula.fit(server: server, service: service, limit: 96 << 20, given: ["--cache-mb"])
        else {
            Issue.record("a given --cache-mb is never lowered, and the PNG render alone cannot make room")
            return
        }
    }
}
