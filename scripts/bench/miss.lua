-- Every request a new ring spec: thread id and a counter make a unique value of p. The route is
-- /ring.svg, or /ring.png with RING_BENCH_FORMAT=png (the same ring, drawn and compressed).
local threads = 0
format = os.getenv("RING_BENCH_FORMAT") or "svg"

function setup(thread)
    threads = threads + 1
    thread:set("id", threads)
end

function init(args)
    counter = 0
end

function request()
    counter = counter + 1
    return wrk.format("GET", string.format("/ring.%s?p=%d.%07d", format, id, counter))
end
