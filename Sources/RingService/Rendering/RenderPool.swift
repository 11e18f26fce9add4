import CSystem
import Dispatch
import Foundation
import HTTPServer
import Primitives
import Synchronization

/// The threads that render what is too costly for an event loop, behind a bounded queue.
///
/// - **Off the loops.** A loop hands a miss over with ``submit(_:waiter:cost:gate:render:)``
///   and goes back to polling; the render runs here, and each waiting request is answered
///   through its ``HTTPReply``, which wakes the loop that owns the connection.
/// - **Single flight.** Requests for a ring already queued or rendering join it: one render
///   answers them all.
/// - **Bounded.** At most `queueLimit` renders wait; past that a request is refused at once
///   (the service answers 503 with `Retry-After`), never queued without end.
/// - **Below the loops.** Render threads run at a lower scheduling priority (nice +19 on
///   Linux), so a cached answer gets the CPU before a render does.
/// - **Spare turns.** A render estimated within `spareMicroseconds` waits in a queue of its
///   own, which event loops also take from between batches (``renderSpare()``): for a small
///   PNG the hand-over to a render thread and back cost as much as the render.
///   Its answer goes through the waiters' mailboxes like any other, its own loop's included:
///   the hand-over costs at most 1 600 instructions (`ring-bench --profile-reply`, which also
///   wakes the taker), 0.5 % of a new 120 px PNG's 335 000 (`--profile-png`), and a way
///   around the mailbox would serve only the waiters on the loop that rendered.
/// - **Drain.** ``dropQueued(_:)`` empties the queue when the server stops: renders not yet
///   begun are answered at once instead of done.
package final class RenderPool: Sendable {
    /// A request waiting for a render.
    package struct Waiter: Sendable {
        package var request: HTTPRequest
        package var reply: HTTPReply
        package var query: ResponseCache.Query
        /// When the request was taken in, for the access log.
        package var started: Double
        /// For a live ring, the freshness its answer carries instead of a ring's caching.
        var live: LiveFreshness?

        package init(request: HTTPRequest, reply: HTTPReply, query: ResponseCache.Query, started: Double) {
            self.request = request
            self.reply = reply
            self.query = query
            self.started = started
        }
    }

    /// What a finished render does with its entry and the requests that waited for it.
    package typealias Finish = @Sendable (ResponseCache.Entry, ResponseCache.Key, [Waiter]) -> Void

    /// One render and the requests waiting for it. `waiters` is changed only under the pool's
    /// lock, hence `@unchecked Sendable`.
    private final class Job: @unchecked Sendable {
        let key: ResponseCache.Key
        let render: @Sendable () -> ResponseCache.Entry
        let gate: RenderGate?
        /// Its place in the order of submission, across both queues.
        let number: UInt64
        var waiters: [Waiter]

        init(
            key: ResponseCache.Key, waiter: Waiter, gate: RenderGate?, number: UInt64,
            render: @escaping @Sendable () -> ResponseCache.Entry
        ) {
            self.key = key
            self.render = render
            self.gate = gate
            self.number = number
            self.waiters = [waiter]
        }
    }

    /// Jobs not begun, oldest first from `head`.
    private struct JobQueue {
        var jobs: [Job?] = []
        var head = 0

        var count: Int { jobs.count - head }
        var first: Job? { head < jobs.count ? jobs[head] : nil }

        mutating func append(_ job: Job) { jobs.append(job) }

        mutating func popFirst() -> Job? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            jobs[head] = nil
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            return job
        }
    }

    private struct State {
        /// Renders an event loop may take in a spare turn (estimated within `spareMicroseconds`),
        /// and the others. Render threads take the older of the two heads.
        var spare = JobQueue()
        var rest = JobQueue()
        var submitted: UInt64 = 0
        /// Every job queued or rendering, by the ring it makes.
        var flights: [ResponseCache.Key: Job] = [:]

        var queued: Int { spare.count + rest.count }

        /// The older of the two heads, and whether it came from the spare queue.
        mutating func popOldest() -> (job: Job, spare: Bool)? {
            if let other = rest.first, spare.first.map({ $0.number > other.number }) ?? true {
                return rest.popFirst().map { ($0, false) }
            }
            return spare.popFirst().map { ($0, true) }
        }
    }

    /// What ``submit(_:waiter:cost:gate:render:)`` did with a request.
    package enum Admission: Equatable {
        /// A new render was queued for it.
        case queued
        /// It waits for a render already queued or running.
        case joined
        /// The queue is full.
        case queueFull
        /// The render needs a place at `gate`, and none is free.
        case gateFull
    }

    package let threads: Int
    package let queueLimit: Int
    /// The estimated cost, in µs, up to which an event loop may render a queued ring itself in
    /// a spare turn (``renderSpare()``); 0: never.
    package let spareMicroseconds: Double
    /// Render threads woken for queued renders: what a test reads to know that a render was
    /// left to the loops' spare turns without waiting to see that no thread took it.
    let threadWakes = Atomic<Int>(0)
    private let state = Locked(State())
    private let work = DispatchSemaphore(value: 0)
    private let finish: Finish
    private let rendersRunning = Atomic<Int>(0)
    /// How many renders the spare queue holds, read without the lock: a loop ends every batch
    /// by asking, and almost always there are none.
    private let spareQueued = Atomic<Int>(0)
    private let started = Atomic<Bool>(false)

    /// How many spare-turn renders may wait for the loops before a render thread is woken too.
    package let spareBacklog: Int

    /// A pool of `threads` render threads (at least 1) with a queue of at most `queueLimit` (at
    /// least 1); `finish` runs after each render, on the thread that rendered. Renders
    /// estimated within `spareMicroseconds` may also be taken by loops (``renderSpare()``),
    /// and wake a render thread only past `spareBacklog` of them. The threads start with the
    /// first render, and live as long as the process.
    package init(
        threads: Int, queueLimit: Int, spareMicroseconds: Double = 0, spareBacklog: Int = 0,
        finish: @escaping Finish
    ) {
        self.threads = max(1, threads)
        self.queueLimit = max(1, queueLimit)
        self.spareMicroseconds = spareMicroseconds
        self.spareBacklog = max(0, spareBacklog)
        self.finish = finish
    }

    private func startThreads() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for index in 0..<threads {
            let thread = Thread { [self] in run(index) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Whether `key` is queued or rendering: a request for it would join that render.
    package func isRendering(_ key: ResponseCache.Key) -> Bool {
        state.withLock { $0.flights[key] != nil }
    }

    /// Queues `render` for `key`, estimated to take `cost` µs, or adds `waiter` to the render of
    /// `key` already under way. A render that needs a place at `gate` takes it here and gives it
    /// back when done, so large renders queued and running together never outnumber the gate's
    /// limit.
    package func submit(
        _ key: ResponseCache.Key, waiter: Waiter, cost: Double, gate: RenderGate?,
        render: @escaping @Sendable () -> ResponseCache.Entry
    ) -> Admission {
        var wake = true
        let admission = state.withLock { state -> Admission in
            if let job = state.flights[key] {
                job.waiters.append(waiter)
                return .joined
            }
            guard state.queued < queueLimit else { return .queueFull }
            if let gate, !gate.enter() { return .gateFull }
            state.submitted &+= 1
            let job = Job(key: key, waiter: waiter, gate: gate, number: state.submitted, render: render)
            if gate == nil, cost <= spareMicroseconds {
                state.spare.append(job)
                spareQueued.add(1, ordering: .relaxed)
                wake = state.spare.count > spareBacklog
            } else {
                state.rest.append(job)
            }
            state.flights[key] = job
            return .queued
        }
        if admission == .queued, wake {
            startThreads()
            threadWakes.add(1, ordering: .relaxed)
            work.signal()
        }
        return admission
    }

    /// Renders waiting now, not counting those running.
    package var queued: Int { state.withLock { $0.queued } }

    /// Renders running now.
    package var running: Int { rendersRunning.load(ordering: .relaxed) }

    /// Empties the queue, calling `answer` for every request that waited for a render not yet
    /// begun; renders already running finish as usual.
    package func dropQueued(_ answer: (Waiter) -> Void) {
        let dropped = state.withLock { state -> [Job] in
            var jobs: [Job] = []
            while let (job, spare) = state.popOldest() {
                if spare { spareQueued.subtract(1, ordering: .relaxed) }
                state.flights[job.key] = nil
                jobs.append(job)
            }
            return jobs
        }
        for job in dropped {
            job.gate?.leave()
            job.waiters.forEach(answer)
        }
    }

    /// Renders the oldest queued ring cheap enough for an event loop's spare turn, on the
    /// calling thread, and answers its requests; false if there was none. The render threads'
    /// hand-over (a wake-up of a render thread, and of the loop for the answer) costs about as
    /// much as a small PNG's render, and a loop with nothing ready would only wait meanwhile.
    package func renderSpare() -> Bool {
        guard spareMicroseconds > 0, spareQueued.load(ordering: .relaxed) > 0,
            let job = state.withLock({ state -> Job? in
                guard let job = state.spare.popFirst() else { return nil }
                spareQueued.subtract(1, ordering: .relaxed)
                return job
            })
        else { return false }
        complete(job)
        return true
    }

    private func run(_ index: Int) {
        _ = csystem_set_thread_name("ring-render-\(index)")
        _ = csystem_lower_thread_priority(19)
        while true {
            work.wait()
            // Every job queued: one woken for a job may find it taken by a loop, or take a
            // spare one for which no thread was woken, and the one it was woken for must not
            // wait for another wake-up. Nothing left when the queue was dropped at drain.
            while let job = state.withLock({ state -> Job? in
                guard let (job, spare) = state.popOldest() else { return nil }
                if spare { spareQueued.subtract(1, ordering: .relaxed) }
                return job
            }) {
                complete(job)
            }
        }
    }

    /// Renders `job` and hands its entry and waiters to `finish`.
    private func complete(_ job: Job) {
        rendersRunning.add(1, ordering: .relaxed)
        let entry = job.render()
        rendersRunning.subtract(1, ordering: .relaxed)
        job.gate?.leave()
        let waiters = state.withLock { state -> [Waiter] in
            state.flights[job.key] = nil
            return job.waiters
        }
        finish(entry, job.key, waiters)
    }
}
