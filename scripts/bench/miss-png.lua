-- Every request a new PNG: thread id and a counter make a unique value of p. The same 120 px
-- default ring as miss.lua, drawn and compressed each time.
local threads = 0

function setup(thread)
    threads = threads + 1
    thread:set("id", threads)
end

function init(args)
    counter = 0
end

function request()
    counter = counter + 1
    return wrk.format("GET", string.format("/ring.png?p=%d.%07d", id, counter))
end
