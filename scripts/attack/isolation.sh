#!/usr/bin/env bash
# Isolation checks on a release build of `ring serve` with default flags, on loopback: no client
# may stall the others, break the memory bound, or keep a draining server alive. See
# docs/reliability.md for what each round does and the latest figures.
#
#   scripts/attack/isolation.sh [--io epoll|dispatch] [RING]   (RING: default, the release build)
#
# ISOLATION_ROUNDS picks rounds (default "latency cost memory drain sources"); RING_FLAGS adds flags to
# every server started, for trying settings.
#
# Installs wrk from Debian if missing. Exits 1 if any check fails, printing every figure.
set -euo pipefail
cd "$(dirname "$0")/../.."
io=epoll
if [ "${1:-}" = "--io" ]; then
    [ -n "${2:-}" ] || { echo "isolation.sh: --io needs epoll or dispatch" >&2; exit 2; }
    io=$2
    shift 2
fi
if ! command -v wrk >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends wrk >/dev/null
fi
command -v python3 >/dev/null || { echo "isolation.sh: python3 is missing" >&2; exit 1; }
ring=${1:-}
if [ -z "$ring" ]; then
    swift build -c release --product ring 2>&1 | tail -n 1
    ring="$(swift build -c release --show-bin-path)/ring"
fi
ulimit -n 20000 2>/dev/null || true
port=18280
clients=scripts/attack/isolation-clients.py
log=$(mktemp -d)
pid=
stop_server() { [ -z "$pid" ] || { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=; }; }
trap 'stop_server; rm -rf "$log"' EXIT
rounds=" ${ISOLATION_ROUNDS:-latency cost memory drain sources} "
wants() { [[ "$rounds" == *" $1 "* ]]; }
start_server() { # start_server [FLAGS...]
    # shellcheck disable=SC2086 # RING_FLAGS is a list of flags
    "$ring" serve --host 127.0.0.1 --port $port --access-log off --io "$io" ${RING_FLAGS:-} "$@" 2>"$log/server.err" &
    pid=$!
    for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && return 0; sleep 0.1; done
    echo "isolation.sh: the server did not start" >&2; cat "$log/server.err" >&2; exit 1
}
status=0
check() { # check DESCRIPTION COMMAND...
    if "${@:2}"; then echo "  PASS  $1"; else echo "  FAIL  $1"; status=1; fi
}
le() { awk -v a="$1" -v b="$2" 'BEGIN {exit !(a <= b)}'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN {exit !(a >= b)}'; }
# A metric's value, summed over its labels (`ring_render_seconds_count` has one series a format).
metric() { curl -s "http://127.0.0.1:$port/metrics" | awk -v name="$1" '$1 == name || index($1, name "{") == 1 {sum += $2} END {print sum + 0}'; }
ticks() { local total=0; for task in /proc/"$pid"/task/*; do total=$((total + $(awk '{print $14 + $15}' "$task/stat"))); done; echo $total; }
rss_kb() { awk '/^VmRSS/ {print $2}' /proc/"$pid"/status; }
peak_kb() { awk '/^VmHWM/ {print $2}' /proc/"$pid"/status; }

G="ff000010,00ff00f0,0000ff80,ffff0020,00ffffa0,ff00ff30,000000c0,ffffff50"
W=$(printf 'W%.0s' $(seq 64)); M=$(printf 'M%.0s' $(seq 32)); T=$(printf 'T%.0s' $(seq 128))
# The issue's queries ({n} a new number per request).
query_a="/ring.png?p={n},99.8,99.7,99.6&gradient=$G&scale=2&size=1024&shadow"
query_b="/ring.png?p={n},99.8,99.7,99.6&size=300&width=20&gap=0&shadow&gradient=$G&label=$W&caption=$M&fill=blue&bg=white&outline=red"
query_c="/ring.svg?p={n},99.8,99.7,99.6&gradient=$G&size=1024&shadow&anim=10&label=$W&caption=$M&title=$T&decimals=3&outline=red&fill=blue&bg=white&theme=auto&gap=0&width=1"
# Past --png-gate-pixels, so each needs the one large-PNG place (1200 x 1200 px, 27.5 MiB).
gated="/ring.png?p={n}&scale=2&size=600"
# The most costly PNG the defaults render: 1280 x 1280 px fits the 32 MiB render limit, and its
# estimate (246 ms) the 250 ms ceiling. (The issue's 2048 px queries are now refused.)
heaviest_png="/ring.png?p={n},99.8,99.7,99.6&size=640&scale=2&width=30&gap=4&gradient=$G&shadow"
# The flooding client shares the server's two cores; it runs at nice 19, as a remote attacker's
# CPU would not compete with the server's, so that the probes measure the server's isolation,
# not how the scheduler splits two cores between the server and the load generator. It still
# sends 20 000 to 40 000 requests a second.
# The probes stand for clients on other machines too: as root (CI) they run at nice -10, so that a
# probe waiting for a core behind the server's busy loops is not counted as the server's latency
# (measured: fresh-connection p99 under flood A 5.6-6.2 ms at nice 0, 0.4-1.4 ms at nice -10).
probe_nice=
if [ "$(id -u)" = 0 ]; then probe_nice="nice -n -10"; else echo "isolation.sh: not root, so the probes run at nice 0 and their own scheduling shows in the p99s"; fi
flood() { # flood SECONDS PATH: 16 connections asking for new rings as fast as they can
    RING_BENCH_PATH="$2" nice -n 19 wrk -t1 -c16 -d"$1s" -s scripts/bench/miss.lua "http://127.0.0.1:$port" \
        >"$log/flood.txt" 2>&1
}

echo "isolation on $io: $("$ring" --version), $(nproc) cores"
if wants latency || wants cost; then
start_server
head -n 1 "$log/server.err"
curl -s -o /dev/null "http://127.0.0.1:$port/ring.svg?p=72"
fi

# 1. Latency of cached SVGs and /healthz while one client floods new, costly rings.
probe_all() { # probe_all LABEL: four probes, each 300 requests 3 ms apart; checks each p99
    local name path mode out
    for name in healthz svg; do
        path=/healthz; [ $name = svg ] && path="/ring.svg?p=72"
        for mode in fresh keepalive; do
            out=$($probe_nice python3 $clients probe $port "$path" $mode 300 3) || { echo "  FAIL  $1: $name $mode probe failed"; status=1; continue; }
            read -r p50 p99 max <<<"$out"
            check "$1: $name $mode p99 ${p99} ms ≤ 10 (p50 $p50, max $max; goal 2)" le "$p99" 10
        done
    done
}
if wants latency; then
probe_all "no flood"
for round in A B gated heaviest; do
    case $round in A) path=$query_a ;; B) path=$query_b ;; gated) path=$gated ;; heaviest) path=$heaviest_png ;; esac
    renders=$(metric ring_render_seconds_count); errors=$(metric ring_render_errors_total)
    flood 7 "$path" &
    flooder=$!
    sleep 0.5
    probe_all "flood $round"
    wait $flooder || true
    answered=$(awk '/requests in/ {print $1}' "$log/flood.txt")
    echo "        flood $round: $answered answers, $(( $(metric ring_render_seconds_count) - renders )) renders," \
        "$(( $(metric ring_render_errors_total) - errors )) error images, $(metric ring_render_queue_full_total) queue-full and" \
        "$(metric ring_png_renders_refused_total) large-PNG 503s so far"
done
python3 $clients pipeline $port "$gated" 150 >"$log/pipeline.txt" &
pipeliner=$!
sleep 0.2
probe_all "150 gated PNGs pipelined on one connection"
wait $pipeliner || true
echo "        pipeline: $(cat "$log/pipeline.txt")"
fi

# 2. A repeated invalid URL costs no more than 3 × a cached hit (error images are cached), and
# an error flood leaves the cache's rings.
cpu_per_request() { # cpu_per_request URL: server CPU µs per request over a 3 s wrk round
    local before after requests
    before=$(ticks)
    requests=$(wrk -t1 -c16 -d3s "$1" | awk '/requests in/ {print $1}')
    after=$(ticks)
    awk -v a="$after" -v b="$before" -v n="$requests" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.2f", (a - b) * 1e6 / hz / n}'
}
if wants cost; then
invalid="http://127.0.0.1:$port/ring.png?p=72&label=$(printf 'X%.0s' $(seq 65))&size=oops"
curl -s -o /dev/null "$invalid"
hit_cpu=$(cpu_per_request "http://127.0.0.1:$port/ring.svg?p=72")
invalid_cpu=$(cpu_per_request "$invalid")
check "a repeated invalid PNG URL: $invalid_cpu µs of CPU against a cached hit's $hit_cpu (≤ 3×)" \
    le "$invalid_cpu" "$(awk -v h="$hit_cpu" 'BEGIN {print 3 * h}')"
# An error flood keeps a working set: 2 500 PNGs stored, then 8 s of distinct invalid URLs
# (each its own error image), then the working set again: at least 90 % of it must be hits.
working="/ring.png?p={n}.25&size=64"
echo "        working set stored: $(python3 $clients fetch $port "$working" 2500)"
flood 8 "/ring.png?p=x{n}&size=64"
echo "        error flood: $(awk '/requests in/ {print $1}' "$log/flood.txt") answers," \
    "$(metric ring_cache_error_image_bytes) bytes of error images kept"
hits_before=$(metric ring_cache_hits_total)
echo "        working set again: $(python3 $clients fetch $port "$working" 2500)"
working_hits=$(( $(metric ring_cache_hits_total) - hits_before ))
check "after an error flood, $working_hits of a 2 500-PNG working set are hits (≥ 90 %)" \
    [ "$working_hits" -ge 2250 ]
fi
stop_server

# 3. The memory bound: peak RSS ≤ cache cap + 64 MiB through every mix, slow readers included.
if wants memory; then
start_server
cap_mb=64
limit_kb=$(( (cap_mb + 64) * 1024 ))
# Each new ring is asked for twice, so that cheap SVGs are stored too (--cache-admission second
# stores them on their second request) and the cache fills to its cap.
export RING_BENCH_REPEAT=2
phase() { # phase NAME SECONDS PATH
    flood "$2" "$3"
    echo "        $1: RSS $(rss_kb) KiB, peak $(peak_kb) KiB, $(awk '/requests in/ {print $1}' "$log/flood.txt") answers"
}
phase "SVGs" 4 "/ring.svg?p={n}"
for size in 16 64 120 200 300; do phase "PNGs of $size px" 2 "/ring.png?p={n}&size=$size"; done
phase "query B" 3 "$query_b"
phase "query C (SVG)" 3 "$query_c"
phase "error images" 2 "/ring.png?p={n}&size=x{n}"
phase "query A (refused: past the render limits)" 2 "$query_a"
phase "the heaviest PNG the defaults allow" 6 "$heaviest_png"
largest="${heaviest_png//\{n\}/64.5}"
# The one large-PNG place may still be taken by the flood's last render: retry until rendered.
for _ in $(seq 50); do
    [ "$(curl -s -o "$log/largest.png" -w '%{http_code}' "http://127.0.0.1:$port$largest")" = 200 ] && break
    sleep 0.2
done
bytes=$(wc -c <"$log/largest.png")
python3 $clients slow $port "$largest" 300 8 >"$log/slow.txt" &
slow=$!
sleep 2
phase "SVGs while 300 slow readers hold the largest PNG ($bytes bytes)" 4 "/ring.svg?p={n}&size=2{n}"
wait $slow || true
echo "        $(cat "$log/slow.txt")"
unset RING_BENCH_REPEAT
check "cache filled: $(metric ring_cache_bytes) bytes ≥ half the cap" ge "$(metric ring_cache_bytes)" $((cap_mb << 19))
check "peak RSS $(peak_kb) KiB ≤ cache cap + 64 MiB ($limit_kb KiB)" le "$(peak_kb)" "$limit_kb"
check "process_resident_memory_bytes is exported" [ -n "$(metric process_resident_memory_bytes)" ]
stop_server
fi

# 4. Live values: a flood of distinct sources on one slow host is held to --source-per-host
#    fetches at once, the rest waiting their turn or refused it, and cached rings keep their
#    latency meanwhile.
if wants sources; then
documents_port=18281
python3 $clients documents $documents_port 0.5 "$log/peak.txt" &
documents_pid=$!
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$documents_port/ready" && break; sleep 0.1; done
start_server --source-allow 127.0.0.1 --source-allow-http --source-allow-private
curl -s -o /dev/null "http://127.0.0.1:$port/ring.svg?p=72"
source_path="/ring.svg?src=http%3A%2F%2F127.0.0.1%3A$documents_port%2Fd.json%3Fn%3D{n}&field=a"
flood 7 "$source_path" &
flooder=$!
sleep 0.5
probe_all "flood of new live sources"
wait $flooder || true
# Fetches still in flight may be answered while this reads: the host renames a whole file into
# place, and a host that served nothing fails the check below by name.
peak=none served=0
if [ -s "$log/peak.txt" ]; then read -r peak served <"$log/peak.txt" || true; fi
answered=$(awk '/requests in/ {print $1}' "$log/flood.txt")
results=$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^ring_source_fetches_total/ && $2 > 0 {printf " %s=%s", $1, $2}')
echo "        source flood: $answered answers, $served documents served; fetches by result:$results"
check "at most 4 fetches at once to the source host: $peak" awk -v a="$peak" 'BEGIN {exit !(a ~ /^[0-9]+$/ && a <= 4)}'
# Fetches past the queue, or past --source-queue-wait, are refused their turn (result "busy");
# every fetch that had its turn must have read its document.
check "every fetch that ran read its document ($results)" \
    [ -z "$(echo "$results" | tr ' ' '\n' | grep -v -e 'result="ok"' -e 'result="busy"' | grep .)" ]
kill "$documents_pid" 2>/dev/null || true
stop_server
fi

# 5. Drain is a hard deadline, and a stopping server refuses new connections at once.
if wants drain; then
start_server --drain-timeout 3
python3 $clients pipeline $port "/ring.png?p={n}&size=300&gradient=red,blue" 400 >"$log/drain.txt" &
pipeliner=$!
sleep 0.5
signalled=$(date +%s.%N)
kill -TERM "$pid"
sleep 0.3
check "a connection made after SIGTERM is refused at once" python3 $clients refused $port
exit_status=0
wait "$pid" || exit_status=$?
took=$(awk -v a="$(date +%s.%N)" -v b="$signalled" 'BEGIN {printf "%.2f", a - b}')
pid=
wait $pipeliner || true
check "SIGTERM during a 400-render pipeline: exit $exit_status in $took s (0, ≤ 3 + 1 s)" \
    [ "$exit_status" -eq 0 -a "$(awk -v t="$took" 'BEGIN {print (t <= 4)}')" -eq 1 ]
echo "        pipeline: $(cat "$log/drain.txt")"
fi
exit $status
