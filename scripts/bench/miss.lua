-- Every request a new ring: a value made of the thread's id and a counter replaces each "{n}"
-- of RING_BENCH_PATH, by default /ring.svg?p={n}, or /ring.png?p={n} with RING_BENCH_FORMAT=png
-- (the same ring, drawn and compressed). scripts/isolation.sh floods with its own paths.
-- With RING_BENCH_REPEAT=N each ring is asked for N times in a row: 2 fills the cache, which
-- stores a cheap new ring when it is asked for again (--cache-admission second).
local threads = 0
local repeat_count = tonumber(os.getenv("RING_BENCH_REPEAT") or "1")
local format = os.getenv("RING_BENCH_FORMAT") or "svg"
local template = os.getenv("RING_BENCH_PATH") or ("/ring." .. format .. "?p={n}")

function setup(thread)
    threads = threads + 1
    thread:set("id", threads)
end

function init(args)
    counter = 0
end

function request()
    counter = counter + 1
    local value = string.format("%d.%07d", id, math.floor((counter - 1) / repeat_count) + 1)
    return wrk.format("GET", (template:gsub("{n}", value)))
end
