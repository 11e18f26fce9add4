#!/usr/bin/env bash
# Attacks a release build of `ring serve` on loopback and checks it keeps serving a normal
# client, releases what the attackers held, and drains cleanly on SIGTERM. See
# docs/reliability.md for what each round does and the latest figures.
#
#   scripts/attack/attack.sh [--io epoll|dispatch]     (default: the server's default, epoll on Linux)
#
# Installs wrk and slowhttptest from Debian if missing. Exits 1 if any check fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
io=()
if [ "${1:-}" = "--io" ]; then
    [ -n "${2:-}" ] || { echo "attack.sh: --io needs epoll or dispatch" >&2; exit 2; }
    io=(--io "$2")
fi
if ! command -v wrk >/dev/null || ! command -v slowhttptest >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends wrk slowhttptest >/dev/null
fi
swift build -c release --product ring 2>&1 | tail -n 1
ring="$(swift build -c release --show-bin-path)/ring"
ulimit -n 20000 2>/dev/null || true
port=18180
url="http://127.0.0.1:$port/ring.svg?p=72&slice=0.45"
log=$(mktemp -d)

"$ring" serve --host 127.0.0.1 --port $port --access-log off "${io[@]}" 2>"$log/server.err" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$log"' EXIT
sleep 1
head -n 1 "$log/server.err"
status=0
check() { # check DESCRIPTION COMMAND...
    if "${@:2}"; then echo "  PASS  $1"; else echo "  FAIL  $1"; status=1; fi
}
fds() { find /proc/$pid/fd -mindepth 1 2>/dev/null | wc -l; }
threads() { awk '/^Threads/ {print $2}' /proc/$pid/status; }
rss() { awk '/^VmRSS/ {print $2}' /proc/$pid/status; }
# Waits up to 20 s for the descriptor count to come back to the baseline.
settles() { for _ in $(seq 40); do [ "$(fds)" -le "$base_fds" ] && return 0; sleep 0.5; done; return 1; }
client() { # a normal client: prints "req/s p99"
    wrk -t1 -c16 -d5s --latency "$url" | awk '/Requests\/sec/ {r=$2} $1 == "99%" {p=$2} END {print r, p}'
}

wrk -t2 -c32 -d2s "$url" >/dev/null   # warm up: cache filled, pools grown
base_fds=$(fds); base_threads=$(threads); base_rss=$(rss)
thread_limit=$(( 2 * $(nproc) + 8 ))
read -r rps p99 < <(client)
echo "baseline: normal client $rps req/s, p99 $p99; $base_fds fds, $base_threads threads, ${base_rss} KiB RSS"

echo "(a) one client (127.0.0.2) asks for 3000 idle keep-alive connections"
python3 scripts/attack/attack-clients.py idle $port 3000 12 127.0.0.2 > "$log/idle.txt" &
attacker=$!
sleep 5
read -r rps p99 < <(client)
held_threads=$(threads)
echo "  normal client $rps req/s, p99 $p99; server $(fds) fds, $held_threads threads, $(rss) KiB RSS"
wait $attacker; sed 's/^/  /' "$log/idle.txt"
check "threads stay at $base_threads (≤ $thread_limit) while 2500 are idle" [ "$held_threads" -le "$thread_limit" ]
# --max-connections-per-client: a quarter of the default 10 000.
held_to_limit() { grep -q "(500 failed)" "$log/idle.txt" && grep -q "idle: 2500 of " "$log/idle.txt"; }
check "the idle client is held to 2500 (a quarter of --max-connections), 500 refused" held_to_limit
check "the normal client (127.0.0.1) is served meanwhile ($rps req/s)" awk -v r="$rps" 'BEGIN {exit !(r > 100)}'
check "descriptors return to $base_fds" settles

echo "(b) slowloris: 500 connections trickling headers"
timeouts() { curl -s "http://127.0.0.1:$port/metrics" | awk '$1 == "ring_connection_timeouts_total" {print $2}'; }
timeouts_before=$(timeouts)
slowhttptest -H -c 500 -r 250 -i 3 -x 20 -l 20 -p 3 -u "$url" > "$log/slow.txt" 2>&1 &
attacker=$!
sleep 6
read -r rps p99 < <(client)
echo "  normal client $rps req/s, p99 $p99; server $(fds) fds, $(threads) threads, $(rss) KiB RSS"
wait $attacker || true
sed 's/\x1b\[[0-9;]*m//g' "$log/slow.txt" | grep -E "service available" | tail -n 1 | sed 's/^ */  slowhttptest: /'
cut=$(( $(timeouts) - timeouts_before ))
echo "  server cut $cut connections at the header deadline"
check "all 500 slow-header connections are cut by the header deadline" [ "$cut" -ge 500 ]
check "descriptors return to $base_fds" settles

echo "(c) 2000 connections reset mid-request"
python3 scripts/attack/attack-clients.py reset $port 2000 > "$log/reset.txt" &
attacker=$!
read -r rps p99 < <(client)
wait $attacker; sed 's/^/  /' "$log/reset.txt"
echo "  normal client $rps req/s, p99 $p99; server $(fds) fds, $(threads) threads, $(rss) KiB RSS"
check "descriptors return to $base_fds after resets" settles

after_rss=$(rss)
check "RSS stays bounded (${base_rss} → ${after_rss} KiB, limit +64 MiB)" [ "$after_rss" -le $((base_rss + 65536)) ]
check "threads bounded ($(threads) ≤ $thread_limit)" [ "$(threads)" -le "$thread_limit" ]

echo "(d) SIGTERM under load"
python3 scripts/attack/attack-clients.py drain $port 6 > "$log/drain.txt" &
drainer=$!
sleep 2
kill -TERM $pid
exit_status=0
wait $pid || exit_status=$?
drain_status=0
wait $drainer || drain_status=$?
sed 's/^/  /' "$log/drain.txt"
check "server exits 0 after SIGTERM (exit $exit_status)" [ "$exit_status" -eq 0 ]
check "no response cut mid-body" [ "$drain_status" -eq 0 ]
[ $status -eq 0 ] && echo "attack.sh: all checks passed" || echo "attack.sh: some checks failed"
exit $status
