-- Every request a new ring: RING_FLOOD_PATH with each "{n}" replaced by a number unique to the
-- thread and request, so every request is a cache miss.
local threads = 0
local template = os.getenv("RING_FLOOD_PATH") or "/ring.png?p={n}"

function setup(thread)
    threads = threads + 1
    thread:set("id", threads)
end

function init(args)
    counter = 0
end

function request()
    counter = counter + 1
    local value = string.format("%d.%06d", id, counter)
    return wrk.format("GET", (template:gsub("{n}", value)))
end
