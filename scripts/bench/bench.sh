#!/usr/bin/env bash
# Side-by-side benchmark: ring serve against nginx serving the same SVG bytes as a static file,
# on loopback, in one run, with every figure also given as a ratio. The goals are the epoll
# backend's (the Linux default); the Dispatch backend (`--io dispatch`) runs in the same rounds
# beside it, for its figures. See docs/performance.md.
#
#   scripts/bench/bench.sh [SECONDS]     (default 5 seconds a round)
#
# Installs wrk and nginx from Debian if they are missing. Prints a table and, per goal of
# scripts/bench/thresholds, PASS or MISS; exits 1 if any goal is missed.
set -euo pipefail
cd "$(dirname "$0")/../.."
duration=${1:-5}

if ! command -v wrk >/dev/null || ! command -v nginx >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends wrk nginx >/dev/null
fi
swift build -c release --product ring 2>&1 | tail -n 1
swift build -c release --product ring-bench 2>&1 | tail -n 1
ring="$(swift build -c release --show-bin-path)/ring"
ring_bench="$(swift build -c release --show-bin-path)/ring-bench"

dir=$(mktemp -d)
ring_port=18080
nginx_port=18081
dispatch_port=18082
query='p=72&slice=0.45'
mkdir -p "$dir/html"
"$ring" render "$query" > "$dir/html/ring.svg"
"$ring" render "$query" --format png > "$dir/html/ring.png"
sed -e "s|@DIR@|$dir|g" -e "s|@PORT@|$nginx_port|g" scripts/bench/nginx.conf > "$dir/nginx.conf"

ulimit -n 65536 2>/dev/null || true
# Every loop may render PNGs, so the PNG round measures renders, not 503s from the limit. wrk
# is one client: its 10 000 connections would meet the per-client limit (a quarter).
"$ring" serve --host 127.0.0.1 --port $ring_port --access-log off --png-renders "$(nproc)" \
    --max-connections-per-client 0 2>"$dir/ring.log" &
ring_pid=$!
"$ring" serve --host 127.0.0.1 --port $dispatch_port --access-log off --io dispatch 2>"$dir/dispatch.log" &
dispatch_pid=$!
nginx -c "$dir/nginx.conf"
cleanup() {
    kill "$ring_pid" "$dispatch_pid" 2>/dev/null || true
    nginx -c "$dir/nginx.conf" -s stop 2>/dev/null || true
    rm -rf "$dir"
}
trap cleanup EXIT
sleep 1
nginx_pids="$(pgrep -P "$(cat "$dir/nginx.pid")" | tr '\n' ' ')"
url() { echo "http://127.0.0.1:$1/ring.svg?$query"; }

# Same bytes from both.
curl -s "$(url $ring_port)" > "$dir/a.svg"
curl -s "$(url $nginx_port)" > "$dir/b.svg"
curl -s "$(url $dispatch_port)" > "$dir/c.svg"
curl -s "http://127.0.0.1:$ring_port/ring.png?$query" > "$dir/a.png"
curl -s "http://127.0.0.1:$nginx_port/ring.png" > "$dir/b.png"
cmp -s "$dir/a.svg" "$dir/b.svg" && cmp -s "$dir/a.svg" "$dir/c.svg" && cmp -s "$dir/a.png" "$dir/b.png" ||
    { echo "bench: the servers do not serve the same bytes" >&2; exit 1; }

# CPU ticks (user, system) of all threads of the given processes.
ticks() {
    local user=0 system=0 a b
    for pid in $1; do
        for task in /proc/"$pid"/task/*; do
            read -r a b < <(awk '{print $14, $15}' "$task/stat")
            user=$((user + a)); system=$((system + b))
        done
    done
    echo "$user $system"
}

# A server's counter from /metrics, summed over its labels: hits, or renders of either format.
metric_sum() { curl -s "$1/metrics" | awk -v name="$2" '$1 == name || index($1, name "{") == 1 {sum += $2} END {printf "%d", sum}'; }

# Each run is a round of its own (scripts/bench/miss.lua puts it into every new ring), so that
# no miss round asks for a ring an earlier round asked for.
bench_round=0

# run NAME PIDS URL WRK-ARGS... -> sets rps, p99 (ms) and cpu (µs per request). A miss round
# against ring must be made of misses: it fails unless /metrics counts at least one render per
# answer and, when each ring is asked for once, no cache hit. (Asked for twice, a ring a
# doorkeeper false positive stored on its first request is a hit on its second.)
run() {
    local name=$1 pids=$2 target=$3 before after out requests base="" hits renders
    shift 3
    bench_round=$((bench_round + 1))
    if [ "$name" = miss ] && [ "$pids" != "$nginx_pids" ]; then
        base=$(echo "$target" | sed -E 's|^(http://[^/]+).*|\1|')
        hits=$(metric_sum "$base" ring_cache_hits_total)
        renders=$(metric_sum "$base" ring_render_seconds_count)
    fi
    before=$(ticks "$pids")
    out=$(RING_BENCH_ROUND=$bench_round wrk "$@" "$target")
    after=$(ticks "$pids")
    requests=$(echo "$out" | awk '/requests in/ {print $1}')
    # Only 2xx answers count: a PNG turned away with 503 by the render limit is not a PNG (its
    # small cost stays in the CPU, so the figure errs high).
    refused=$(echo "$out" | awk '/Non-2xx or 3xx responses/ {print $5}')
    if [ -n "$refused" ]; then
        echo "  ($refused of $requests answers were not 2xx; CPU is per 2xx answer)"
        requests=$((requests - refused))
    fi
    if [ -n "$base" ]; then
        hits=$(( $(metric_sum "$base" ring_cache_hits_total) - hits ))
        renders=$(( $(metric_sum "$base" ring_render_seconds_count) - renders ))
        echo "  (miss round $bench_round: $requests answers, $renders renders, $hits cache hits)"
        if { [ "${RING_BENCH_REPEAT:-1}" = 1 ] && [ "$hits" -ne 0 ]; } || [ "$renders" -lt $((requests - hits)) ]; then
            echo "  (miss round $bench_round was not made of misses: its figures are not valid)"
            touch "$dir/missed"
        fi
    fi
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    p99=$(echo "$out" | awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us/,"",v); v=v/1000} else if (v ~ /ms$/) {sub(/ms/,"",v)} else if (v ~ /s$/) {sub(/s/,"",v); v=v*1000}; print v}')
    cpu=$(awk -v b="$before" -v a="$after" -v n="$requests" -v hz="$(getconf CLK_TCK)" \
        'BEGIN {split(b, x, " "); split(a, y, " "); printf "%.2f", ((y[1]-x[1]) + (y[2]-x[2])) * 1e6 / hz / n}')
    if echo "$out" | grep -q "Socket errors"; then
        echo "  ($(echo "$out" | grep "Socket errors" | sed 's/^ *//'))"
    fi
}

# The middle value; of an even count, the mean of the middle two (not the lower one, which
# flattered every CPU figure measured in two rounds).
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {m = int((NR+1)/2); if (NR % 2) print v[m]; else printf "%.2f\n", (v[m] + v[m+1]) / 2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
# The same to three places, for goals as small as 0.05; `exact` is what verdicts compare, so
# that a ratio is never rounded into its goal.
ratio3() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
exact() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.9f", a / b}'; }
status=0
# The goals, from scripts/bench/thresholds: `goal NAME VALUE [UNIT]` prints "≥ 1.5 UNIT: PASS"
# or "…: MISS". Called inside $(…), a subshell: a miss is recorded in a file, which the last
# line reads.
thresholds=scripts/bench/thresholds
goal() {
    local line comparison limit sign
    line=$(awk -v n="$1" '$1 == n {print $2, $3}' "$thresholds")
    [ -n "$line" ] || { echo "bench: no goal '$1' in $thresholds" >&2; touch "$dir/missed"; echo "no goal"; return; }
    read -r comparison limit <<< "$line"
    sign=$([ "$comparison" = ge ] && echo "≥" || echo "≤")
    if awk -v v="$2" -v g="$limit" -v d="$comparison" 'BEGIN {exit !(d == "ge" ? v >= g : v <= g)}'; then
        echo "$sign $limit${3:+ $3}: PASS"
    else
        echo "$sign $limit${3:+ $3}: MISS"
        touch "$dir/missed"
    fi
}

echo "machine: $(nproc) cores, $(uname -r); rounds of ${duration}s, ring (epoll), nginx and ring (dispatch) alternating"
declare -a ring_hit nginx_hit ring_cpu nginx_cpu dispatch_hit dispatch_cpu
for round in 1 2 3; do
    run hit "$ring_pid" "$(url $ring_port)" -t2 -c64 -d"${duration}s"; ring_hit+=("$rps"); ring_cpu+=("$cpu")
    run hit "$nginx_pids" "$(url $nginx_port)" -t2 -c64 -d"${duration}s"; nginx_hit+=("$rps"); nginx_cpu+=("$cpu")
    run hit "$dispatch_pid" "$(url $dispatch_port)" -t2 -c64 -d"${duration}s"
    dispatch_hit+=("$rps"); dispatch_cpu+=("$cpu")
done
rh=$(median "${ring_hit[@]}"); nh=$(median "${nginx_hit[@]}")
rc=$(median "${ring_cpu[@]}"); nc=$(median "${nginx_cpu[@]}")
dh=$(median "${dispatch_hit[@]}"); dc=$(median "${dispatch_cpu[@]}")

# The miss's floor is measured beside each miss round, not a minute before: a hit round just
# before it, and what its rings cost in process (ring-bench) just after, on a machine whose
# speed drifts from minute to minute. The goal's ratio is each miss round's against its own
# floor, and the verdict the median of five: a neighbour that slows the machine for a minute
# moves a round and its floor together, and one round in a few at two thirds of its
# neighbours' speed is outvoted.
declare -a ring_miss nginx_miss ring_miss_cpu dispatch_miss dispatch_miss_cpu floor_hit floor_parse floor_render
declare -a miss_ratios
for round in 1 2 3 4 5; do
    run hit "$ring_pid" "$(url $ring_port)" -t2 -c64 -d"${duration}s"; floor_hit+=("$cpu")
    run miss "$ring_pid" "http://127.0.0.1:$ring_port" -t2 -c64 -d"${duration}s" -s scripts/bench/miss.lua
    ring_miss+=("$rps"); ring_miss_cpu+=("$cpu")
    read -r parse render < <("$ring_bench" --miss-work)
    floor_parse+=("$parse"); floor_render+=("$render")
    miss_ratios+=("$(awk -v m="$cpu" -v h="${floor_hit[-1]}" -v p="$parse" -v r="$render" \
        'BEGIN {printf "%.9f", m / (h + p + r + 1)}')")
    run miss "$nginx_pids" "http://127.0.0.1:$nginx_port" -t2 -c64 -d"${duration}s" -s scripts/bench/miss.lua
    nginx_miss+=("$rps")
    run miss "$dispatch_pid" "http://127.0.0.1:$dispatch_port" -t2 -c64 -d"${duration}s" -s scripts/bench/miss.lua
    dispatch_miss+=("$rps"); dispatch_miss_cpu+=("$cpu")
done
rm_=$(median "${ring_miss[@]}"); nm=$(median "${nginx_miss[@]}"); rmc=$(median "${ring_miss_cpu[@]}")
# What a miss may cost: a hit, plus parsing and rendering its ring, plus 1 µs.
miss_hit=$(median "${floor_hit[@]}")
miss_parse=$(median "${floor_parse[@]}"); miss_render=$(median "${floor_render[@]}")
miss_floor=$(awk -v h="$miss_hit" -v p="$miss_parse" -v r="$miss_render" 'BEGIN {printf "%.2f", h + p + r + 1}')
dm=$(median "${dispatch_miss[@]}"); dmc=$(median "${dispatch_miss_cpu[@]}")
# Each new ring asked for twice: the first answered and dropped, the second rendered again and
# stored (--cache-admission second), so half the requests pay for an entry and an eviction.
declare -a stored_cpu
for round in 1 2; do
    export RING_BENCH_REPEAT=2
    run miss "$ring_pid" "http://127.0.0.1:$ring_port" -t2 -c64 -d"${duration}s" -s scripts/bench/miss.lua
    unset RING_BENCH_REPEAT
    stored_cpu+=("$cpu")
done
rsc=$(median "${stored_cpu[@]}")

declare -a ring_p99 nginx_p99 dispatch_p99
for round in 1 2; do
    run latency "$ring_pid" "$(url $ring_port)" -t2 -c256 -d"${duration}s" --latency; ring_p99+=("$p99")
    run latency "$nginx_pids" "$(url $nginx_port)" -t2 -c256 -d"${duration}s" --latency; nginx_p99+=("$p99")
    run latency "$dispatch_pid" "$(url $dispatch_port)" -t2 -c256 -d"${duration}s" --latency
    dispatch_p99+=("$p99")
done
rp=$(median "${ring_p99[@]}"); np=$(median "${nginx_p99[@]}"); dp=$(median "${dispatch_p99[@]}")

printf '\n%-44s %12s %12s %8s  %s\n' "round" "ring" "nginx" "ratio" "goal"
printf '%-44s %12s %12s %8s  %s\n' "cache hit, -t2 -c64, req/s" "$rh" "$nh" "$(ratio "$rh" "$nh")" \
    "$(goal hit-rps-vs-nginx "$(exact "$rh" "$nh")" "× nginx")"
printf '%-44s %12s %12s %8s\n' "cache hit, server CPU µs per request" "$rc" "$nc" "$(ratio "$rc" "$nc")"
printf '%-44s %12s %12s %8s  %s\n' "every request a new spec, req/s" "$rm_" "$nm" "$(ratio "$rm_" "$nh")" \
    "$(goal miss-rps-vs-nginx-hit "$(exact "$rm_" "$nh")" "× nginx hit")"
miss_ratio=$(median "${miss_ratios[@]}")
printf '%-44s %12s %12s %8s  %s\n' "new spec, server CPU µs (against hit+parse+render+1)" "$rmc" "$miss_floor" \
    "$(awk -v r="$miss_ratio" 'BEGIN {printf "%.2f", r}')" "$(goal miss-cpu-vs-floor "$miss_ratio")"
printf '%-44s %12s %12s\n' "  beside it: a hit's CPU µs; parse, render (µs)" "$miss_hit" "$miss_parse, $miss_render"
printf '%-44s %s\n' "  each round against its own floor" "$(printf '%s\n' "${miss_ratios[@]}" | awk '{printf "%s%.2f", (NR > 1 ? ", " : ""), $1}')"
printf '%-44s %12s %12s\n' "  each new ring twice (stored), CPU µs" "$rsc" "-"
printf '%-44s %12s %12s %8s  %s\n' "cache hit, -c256, p99 latency (ms)" "$rp" "$np" "$(ratio "$rp" "$np")" \
    "$(goal hit-p99-vs-nginx "$(exact "$rp" "$np")" "× nginx")"
printf '%-44s %12s %12s %8s\n' "dispatch: cache hit, req/s" "$dh" "$nh" "$(ratio "$dh" "$nh")"
printf '%-44s %12s %12s %8s\n' "dispatch: cache hit, CPU µs per request" "$dc" "$nc" "$(ratio "$dc" "$nc")"
printf '%-44s %12s %12s %8s\n' "dispatch: new spec, req/s (vs nginx hit)" "$dm" "$nh" "$(ratio "$dm" "$nh")"
printf '%-44s %12s %12s\n' "dispatch: new spec, CPU µs per request" "$dmc" "-"
printf '%-44s %12s %12s %8s\n' "dispatch: cache hit, -c256, p99 (ms)" "$dp" "$np" "$(ratio "$dp" "$np")"
kill "$dispatch_pid" 2>/dev/null || true  # the memory and connection rounds are epoll's

# PNG: cache hits against SVG hits, then a new PNG every request, against the in-process time
# of libvips and resvg for the same rings (installed here only, in a venv of their own).
# The anchors' in-process times are measured beside each new-PNG round, as the miss's floor is.
anchors=.build/bench-venv
[ -x "$anchors/bin/python" ] || python3 -m venv "$anchors"
"$anchors/bin/pip" install -q --disable-pip-version-check pyvips pyvips-binary resvg
declare -a png_hit_cpu svg_hit_cpu png_miss png_miss_cpu png_hit nginx_png_hit vips_times resvg_times
for round in 1 2; do
    run hit "$ring_pid" "$(url $ring_port)" -t2 -c64 -d"${duration}s"; svg_hit_cpu+=("$cpu")
    run hit "$ring_pid" "http://127.0.0.1:$ring_port/ring.png?$query" -t2 -c64 -d"${duration}s"
    png_hit_cpu+=("$cpu"); png_hit+=("$rps")
    run hit "$nginx_pids" "http://127.0.0.1:$nginx_port/ring.png?$query" -t2 -c64 -d"${duration}s"
    nginx_png_hit+=("$rps")
    export RING_BENCH_FORMAT=png
    run miss "$ring_pid" "http://127.0.0.1:$ring_port" -t2 -c64 -d"${duration}s" -s scripts/bench/miss.lua
    unset RING_BENCH_FORMAT
    png_miss+=("$rps"); png_miss_cpu+=("$cpu")
    read -r vips_us resvg_us vips_bytes resvg_bytes ring_bytes < <("$anchors/bin/python" scripts/bench/png-anchors.py "$ring" 200)
    vips_times+=("$vips_us"); resvg_times+=("$resvg_us")
done
sh_=$(median "${svg_hit_cpu[@]}"); ph=$(median "${png_hit_cpu[@]}")
pm=$(median "${png_miss[@]}"); pmc=$(median "${png_miss_cpu[@]}")
phr=$(median "${png_hit[@]}"); nphr=$(median "${nginx_png_hit[@]}")
vips_us=$(median "${vips_times[@]}"); resvg_us=$(median "${resvg_times[@]}")
fastest=$(awk -v a="$vips_us" -v b="$resvg_us" 'BEGIN {print (a < b ? a : b)}')
printf '%-44s %12s %12s %8s\n' "PNG cache hit, CPU µs (against an SVG hit)" "$ph" "$sh_" "$(ratio "$ph" "$sh_")"
printf '%-44s %12s %12s %8s  %s\n' "PNG cache hit, req/s (against nginx's PNG)" "$phr" "$nphr" "$(ratio "$phr" "$nphr")" \
    "$(goal png-hit-rps-vs-nginx "$(exact "$phr" "$nphr")" "× nginx")"
printf '%-44s %12s %12s\n' "new PNG every request, req/s" "$pm" "-"
printf '%-44s %12s %12s %8s  %s\n' "new PNG, server CPU µs (against the faster anchor)" "$pmc" "$fastest" \
    "$(ratio3 "$pmc" "$fastest")" "$(goal png-miss-cpu-vs-anchor "$(exact "$pmc" "$fastest")")"
printf '%-44s %12s %12s\n' "anchors in process: libvips, resvg (µs per PNG)" "$vips_us" "$resvg_us"
# Interleaved styles: consecutive new PNGs differ in slice as well as p (slice=0.1…0.9 in turn),
# as a server behind a CDN sees many users' rings, so no render finds the last one's backdrop.
declare -a mix_cpu mix_resvg mix_vips
for round in 1 2; do
    RING_BENCH_PATH="/ring.png?p={n}&slice=0.{k}" run miss "$ring_pid" "http://127.0.0.1:$ring_port" -t2 -c64 \
        -d"${duration}s" -s scripts/bench/miss.lua
    mix_cpu+=("$cpu")
    read -r vips_us resvg_us _ < <("$anchors/bin/python" scripts/bench/png-anchors.py "$ring" 200 --interleaved)
    mix_vips+=("$vips_us"); mix_resvg+=("$resvg_us")
done
mc=$(median "${mix_cpu[@]}"); mix_fastest=$(awk -v a="$(median "${mix_vips[@]}")" -v b="$(median "${mix_resvg[@]}")" \
    'BEGIN {print (a < b ? a : b)}')
printf '%-44s %12s %12s %8s  %s\n' "new PNG, styles interleaved, CPU µs" "$mc" "$mix_fastest" \
    "$(ratio3 "$mc" "$mix_fastest")" "$(goal png-interleaved-cpu-vs-anchor "$(exact "$mc" "$mix_fastest")")"
# The server's figure draws each ring over the backdrop and label its thread kept from the last
# (docs/architecture.md, "Backdrop"); a ring of a new style is drawn from nothing.
read -r png_kept png_fresh png_mixed < <("$ring_bench" --png-work)
printf '%-44s %12s %12s %8s\n' "  a new PNG in process: kept layers, none, interleaved (µs)" "$png_kept" "$png_fresh" \
    "$png_mixed"
printf '%-44s %12s %12s %8s  %s\n' "PNG bytes: ring against the smaller anchor" "$ring_bytes" \
    "$(awk -v a="$vips_bytes" -v b="$resvg_bytes" 'BEGIN {print (a < b ? a : b)}')" \
    "$(ratio "$ring_bytes" "$(awk -v a="$vips_bytes" -v b="$resvg_bytes" 'BEGIN {print (a < b ? a : b)}')")" \
    "$(goal png-bytes-vs-anchor "$(exact "$ring_bytes" "$(awk -v a="$vips_bytes" -v b="$resvg_bytes" 'BEGIN {print (a < b ? a : b)}')")")"
printf '%-44s %12s %12s\n' "PNG bytes: libvips, resvg" "$vips_bytes" "$resvg_bytes"

# Memory: a million distinct specs through a cache capped at 64 MiB, each stored.
cap_mb=64
start_requests=0
seen=0
# Each spec is asked for twice, so that every one is stored (--cache-admission second stores a
# new SVG when it is asked for again).
while [ "$seen" -lt 2000000 ]; do
    bench_round=$((bench_round + 1))
    out=$(RING_BENCH_REPEAT=2 RING_BENCH_ROUND=$bench_round wrk -t2 -c64 -d"${duration}s" -s scripts/bench/miss.lua \
        "http://127.0.0.1:$ring_port")
    seen=$((seen + $(echo "$out" | awk '/requests in/ {print $1}')))
done
rss_kb=$(awk '/VmRSS/ {print $2}' /proc/$ring_pid/status)
cache_bytes=$(curl -s "http://127.0.0.1:$ring_port/metrics" | awk '$1 == "ring_cache_bytes" {print $2}')
printf '%-44s %12s %12s %8s  %s\n' "RSS after $((seen / 2)) distinct specs (KiB)" "$rss_kb" "-" "-" \
    "$(goal rss-mib-over-cache-cap "$(awk -v r="$rss_kb" -v c="$cap_mb" 'BEGIN {printf "%.1f", r / 1024 - c}')" "MiB over the cap")"
printf '%-44s %12s %12s %8s  %s\n' "cache bytes (cap $((cap_mb * 1048576)))" "$cache_bytes" "-" "-" \
    "$(goal cache-bytes-vs-cap "$(exact "$cache_bytes" $((cap_mb * 1048576)))" "× cap")"

# Connections: 10 000 concurrent keep-alive connections, counted as the server's open sockets
# (a metrics request would be the 10 001st connection, over the default cap).
wrk -t2 -c10000 -d"${duration}s" "$(url $ring_port)" > "$dir/c10k.txt" 2>&1 &
wrk_pid=$!
sleep $((duration / 2 + 1))
open=$(find /proc/$ring_pid/fd -lname 'socket:*' 2>/dev/null | wc -l)
threads=$(awk '/Threads/ {print $2}' /proc/$ring_pid/status)
wait $wrk_pid || true
printf '%-44s %12s %12s %8s  %s\n' "sockets open during -c10000" "$open" "-" "-" \
    "$(goal c10k-sockets "$open")"
printf '%-44s %12s %12s %8s  %s\n' "server threads during -c10000" "$threads" "-" "-" \
    "$(goal c10k-threads-over-2x-cores "$((threads - 2 * $(nproc)))" "beyond 2 × cores")"
grep -E "Requests/sec|Socket errors" "$dir/c10k.txt" | sed 's/^/  c10000: /' || true

# Cold start: exec to the first 200 for /ring.svg?p=72, seven starts each, against nginx serving
# the same bytes from a file; the binary as the Dockerfile builds it (Swift's libraries linked in).
swift build -c release --product ring --static-swift-stdlib --scratch-path .build/static 2>&1 | tail -n 1
python3 scripts/bench/cold-start.py .build/static/release/ring 7 > "$dir/cold.txt"
sed 's/^/  /' "$dir/cold.txt"
cold=$(awk '/cold-start ratio/ {print $3}' "$dir/cold.txt")
printf '%-44s %12s %12s %8s  %s\n' "cold start, exec to first 200 (median)" \
    "$(awk '/cold-start ring/ {print $4}' "$dir/cold.txt") ms" "$(awk '/cold-start nginx/ {print $4}' "$dir/cold.txt") ms" \
    "$cold" "$(goal cold-start-vs-nginx "$cold" "× nginx")"
[ ! -e "$dir/missed" ] || status=1
exit $status
