import Testing

@testable import RingService

/// ``LoopRenderBudget``, with the time passed by hand (in binary fractions, so that no sum
/// rounds across a window's end).
@Suite struct LoopRenderBudgetTests {
    @Test func aWindowHoldsItsLengthOfRendersPerLoop() {
        let budget = LoopRenderBudget(loops: 2, length: 0.5)
        #expect(budget.allows(loop: 0, now: 10))
        budget.spend(0.25, loop: 0)
        #expect(budget.allows(loop: 0, now: 10.25), "a half of the window spent")
        budget.spend(0.375, loop: 0)
        #expect(!budget.allows(loop: 0, now: 10.375), "more than the window's length spent in it")
        #expect(budget.allows(loop: 1, now: 10.375), "another loop's window is its own")
        #expect(budget.allows(loop: 0, now: 10.5), "a new window")
        budget.spend(1, loop: 0)
        #expect(!budget.allows(loop: 0, now: 10.75))
        // Loop numbers past the count share windows, as the fonts' copies do.
        #expect(!budget.allows(loop: 2, now: 10.75))
    }

    @Test func noLengthAllowsNone() {
        let budget = LoopRenderBudget(loops: 1, length: 0)
        #expect(!budget.allows(loop: 0, now: 0))
        #expect(!budget.allows(loop: 0, now: 100))
    }
}
