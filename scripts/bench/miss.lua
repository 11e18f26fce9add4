-- Every request a new ring: a value made of the thread's id and a counter replaces each "{n}"
-- of RING_BENCH_PATH, by default /ring.svg?p={n}, or /ring.png?p={n} with RING_BENCH_FORMAT=png
-- (the same ring, drawn and compressed); each "{k}" becomes 1…9 in turn. scripts/attack/isolation.sh floods with its own paths.
-- With RING_BENCH_REPEAT=N each ring is asked for N times in a row: 2 fills the cache, which
-- stores a cheap new ring when it is asked for again (--cache-admission second).
-- RING_BENCH_ROUND=R (1…999) puts R into every value, so that rounds against one server never
-- repeat each other's rings: without it every run asks for the same sequence, and a later
-- round meets rings the server has seen (some stored, some remembered as asked for before).
local threads = 0
local repeat_count = tonumber(os.getenv("RING_BENCH_REPEAT") or "1")
local format = os.getenv("RING_BENCH_FORMAT") or "svg"
local template = os.getenv("RING_BENCH_PATH") or ("/ring." .. format .. "?p={n}")
local round = tonumber(os.getenv("RING_BENCH_ROUND") or "")
if round and (round < 1 or round > 999 or round % 1 ~= 0) then
    error("RING_BENCH_ROUND must be a whole number from 1 to 999")
end

function setup(thread)
    threads = threads + 1
    thread:set("id", threads)
end

function init(args)
    counter = 0
end

function request()
    counter = counter + 1
    local ring = math.floor((counter - 1) / repeat_count) + 1
    local value
    if round then
        value = string.format("%d.%03d%07d", id, round, ring)
    else
        value = string.format("%d.%07d", id, ring)
    end
    -- "{k}" cycles 1…9 from one request to the next: styles interleaved, as a server behind a
    -- CDN sees many users' rings (scripts/bench/bench.sh's interleaved PNG round).
    local path = template:gsub("{n}", value):gsub("{k}", tostring((counter - 1) % 9 + 1))
    return wrk.format("GET", path)
end
