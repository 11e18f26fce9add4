/// Whose turn it is to fetch: per allowlist entry, at most `perEntry` fetches running, at most
/// `rate` started a second (a token bucket holding as many), and up to `queueLimit` waiting in
/// order, each for at most `wait` seconds.
///
/// A fetch past the queue, or one that waited its `wait` out, is refused; every other fetch
/// waits its turn. Buckets are keyed by allowlist entry, so there are as many as the operator
/// allowed entries, and the total rate and concurrency are those times the number of entries.
/// Pure bookkeeping on the fetcher's thread, with the time passed in.
struct FetchScheduler<Job> {
    private struct Waiting {
        var job: Job
        var until: Double
    }

    private struct Bucket {
        var running = 0
        var tokens: Double
        var refilled: Double
        var queue: [Waiting] = []
        /// Index of the queue's first job: removing from the front is a step, not a copy.
        var head = 0
        var waiting: Int { queue.count - head }
    }

    let perEntry: Int
    let queueLimit: Int
    let rate: Double
    let wait: Double
    private var buckets: [String: Bucket] = [:]

    init(perEntry: Int, queueLimit: Int, rate: Double, wait: Double) {
        self.perEntry = max(1, perEntry)
        self.queueLimit = max(0, queueLimit)
        self.rate = rate
        self.wait = wait
    }

    private var burst: Double { max(rate, 1) }

    /// How far below a whole token still counts as one: the time since the last refill is a
    /// difference of two large clock readings, and 0.4 s at 5 a second came out as 1.999…
    /// tokens. A millionth: a year of uptime puts the rounding near 1e-8 tokens.
    static var tokenRounding: Double { 1e-6 }

    /// Queues `job` under `entry`; false when its queue is full.
    ///
    /// Jobs that may start at once (a free slot and a token each) do not count against
    /// `queueLimit`: the fetcher handles a batch of submissions before it starts any, and
    /// without them a batch would fill the queue with jobs that never wait.
    mutating func submit(_ job: Job, entry: String, now: Double) -> Bool {
        var bucket = buckets[entry] ?? Bucket(tokens: burst, refilled: now)
        refill(&bucket, now: now)
        let startable = min(max(0, perEntry - bucket.running), Int(bucket.tokens + Self.tokenRounding))
        guard bucket.waiting < queueLimit + startable else {
            buckets[entry] = bucket
            return false
        }
        bucket.queue.append(Waiting(job: job, until: now + wait))
        buckets[entry] = bucket
        return true
    }

    /// The next job that may start now, which takes a slot and a token of its entry.
    mutating func next(now: Double) -> (job: Job, entry: String)? {
        for (entry, var bucket) in buckets where bucket.waiting > 0 && bucket.running < perEntry {
            refill(&bucket, now: now)
            guard bucket.tokens >= 1 - Self.tokenRounding else {
                buckets[entry] = bucket
                continue
            }
            bucket.tokens = max(0, bucket.tokens - 1)
            bucket.running += 1
            let job = bucket.queue[bucket.head].job
            dequeue(&bucket)
            buckets[entry] = bucket
            return (job, entry)
        }
        return nil
    }

    /// The jobs that waited their `wait` out, taken from their queues.
    mutating func expired(now: Double) -> [Job] {
        var jobs: [Job] = []
        for (entry, var bucket) in buckets where bucket.waiting > 0 && bucket.queue[bucket.head].until <= now {
            while bucket.waiting > 0 && bucket.queue[bucket.head].until <= now {
                jobs.append(bucket.queue[bucket.head].job)
                dequeue(&bucket)
            }
            buckets[entry] = bucket
        }
        return jobs
    }

    /// A job of `entry` ended: its slot is free.
    mutating func finished(entry: String) {
        buckets[entry]?.running -= 1
    }

    /// Every waiting job, taken from the queues (the fetcher is stopping).
    mutating func drain() -> [Job] {
        var jobs: [Job] = []
        for (entry, var bucket) in buckets {
            while bucket.waiting > 0 {
                jobs.append(bucket.queue[bucket.head].job)
                dequeue(&bucket)
            }
            buckets[entry] = bucket
        }
        return jobs
    }

    /// When something may next change without a fetch ending: a queued job's token arrives or
    /// its wait runs out. Nil when nothing waits.
    func nextEvent(now: Double) -> Double? {
        var earliest: Double?
        for bucket in buckets.values where bucket.waiting > 0 {
            var time = bucket.queue[bucket.head].until
            if bucket.running < perEntry && rate > 0 {
                let tokens = min(burst, bucket.tokens + (now - bucket.refilled) * rate)
                time = min(time, now + max(0, (1 - tokens) / rate))
            }
            earliest = min(earliest ?? time, time)
        }
        return earliest
    }

    /// Jobs waiting under `entry` (tests and metrics).
    func waiting(under entry: String) -> Int { buckets[entry]?.waiting ?? 0 }

    private func refill(_ bucket: inout Bucket, now: Double) {
        bucket.tokens = min(burst, bucket.tokens + (now - bucket.refilled) * rate)
        bucket.refilled = now
    }

    private func dequeue(_ bucket: inout Bucket) {
        bucket.head += 1
        if bucket.head == bucket.queue.count {
            bucket.queue.removeAll(keepingCapacity: true)
            bucket.head = 0
        } else if bucket.head >= 64 && bucket.head * 2 >= bucket.queue.count {
            bucket.queue.removeFirst(bucket.head)
            bucket.head = 0
        }
    }
}
