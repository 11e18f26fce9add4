-- Every request a new ring spec: thread id and a counter make a unique value of p.
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
    return wrk.format("GET", string.format("/ring.svg?p=%d.%07d", id, counter))
end
