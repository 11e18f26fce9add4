#!/usr/bin/env bash
# Runs `ring serve` inside a cgroup with a one-CPU quota and a 256 MiB memory limit, and checks
# that it sizes itself from the quota, not from the machine (one event loop and one render
# thread), and exports the limit as ring_memory_limit_bytes. Then under 32 MiB it must refuse to
# start (exit 1), and under 96 MiB fit its cache into the limit, say so, and live through 6 s of
# mixed floods without an OOM kill (docs/operations.md, "Memory"). Needs root (it makes the cgroups)
# and a cgroup file system with the cpu and memory controllers, v2 or v1.
#
#   scripts/checks/check-cgroup.sh RING
set -euo pipefail
ring=${1:?usage: check-cgroup.sh RING}
[ "$(id -u)" -eq 0 ] || { echo "check-cgroup.sh: needs root to make a cgroup" >&2; exit 1; }
name="ring-ci-$$"
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then  # v2, the unified hierarchy at the root
    grep -qw cpu /sys/fs/cgroup/cgroup.controllers || { echo "check-cgroup.sh: no cpu controller" >&2; exit 1; }
    grep -qw memory /sys/fs/cgroup/cgroup.controllers || { echo "check-cgroup.sh: no memory controller" >&2; exit 1; }
    grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control || echo +cpu > /sys/fs/cgroup/cgroup.subtree_control
    grep -qw memory /sys/fs/cgroup/cgroup.subtree_control || echo +memory > /sys/fs/cgroup/cgroup.subtree_control
    dir=/sys/fs/cgroup/$name
    mkdir "$dir"
    echo "100000 100000" > "$dir/cpu.max"
    echo 268435456 > "$dir/memory.max"
    dirs=("$dir")
elif [ -d /sys/fs/cgroup/cpu ] && [ -d /sys/fs/cgroup/memory ]; then  # v1
    dir=/sys/fs/cgroup/cpu/$name
    mkdir "$dir" /sys/fs/cgroup/memory/$name
    echo 100000 > "$dir/cpu.cfs_period_us"
    echo 100000 > "$dir/cpu.cfs_quota_us"
    echo 268435456 > /sys/fs/cgroup/memory/$name/memory.limit_in_bytes
    dirs=("$dir" /sys/fs/cgroup/memory/$name)
else
    echo "check-cgroup.sh: no cgroup file system with a cpu controller" >&2
    exit 1
fi
out=$(mktemp)
cleanup() {
    [ -n "${server:-}" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    for d in "${dirs[@]}"; do rmdir "$d" 2>/dev/null || true; done
    rm -f "$out"
}
trap cleanup EXIT
echo "quota: one CPU and 256 MiB in ${dirs[*]}, on a machine of $(nproc) CPUs"
join=""
for d in "${dirs[@]}"; do join+="echo \$\$ > '$d/cgroup.procs'; "; done
start_in_cgroup() { # sets server, banner and port
    bash -c "$join exec '$ring' serve --host 127.0.0.1 --port 0 --access-log off" 2> "$out" &
    server=$!
    for _ in $(seq 50); do [ -s "$out" ] && break; sleep 0.1; done
    banner=$(head -n 1 "$out")
    echo "$banner"
    port=$(echo "$banner" | sed -n 's/.*:\([0-9]*\) (.*/\1/p')
}
start_in_cgroup
limit=$(curl -s "http://127.0.0.1:$port/metrics" | awk '$1 == "ring_memory_limit_bytes" {print $2}')
if [ "$limit" = 268435456 ]; then
    echo "  PASS  ring_memory_limit_bytes is the cgroup's limit (268435456)"
else
    echo "  FAIL  ring_memory_limit_bytes is '${limit}', not 268435456" >&2
    exit 1
fi
case "$banner" in
    *"(1 event loop, "*"; 1 render thread; 1 CPU available"[\;\)]*) echo "  PASS  one event loop and one render thread in a one-CPU cgroup" ;;
    *) echo "  FAIL  expected one event loop and one render thread" >&2; exit 1 ;;
esac
kill "$server" 2>/dev/null || true
wait "$server" 2>/dev/null || true
server=

# A memory limit below the defaults' formula: start-up fits the cache and the PNG render memory
# to it, or refuses to start, and a fitted server survives a mixed flood.
command -v wrk >/dev/null || { echo "check-cgroup.sh: wrk is missing (Debian package wrk)" >&2; exit 1; }
set_limit() {
    for d in "${dirs[@]}"; do
        if [ -f "$d/memory.max" ]; then echo "$1" > "$d/memory.max"; fi
        if [ -f "$d/memory.limit_in_bytes" ]; then echo "$1" > "$d/memory.limit_in_bytes"; fi
    done
}
oom_kills() { # the cgroup's OOM kills so far: v2's memory.events, v1's memory.oom_control
    for d in "${dirs[@]}"; do
        for file in "$d/memory.events" "$d/memory.oom_control"; do
            if [ -f "$file" ]; then awk '$1 == "oom_kill" {print $2}' "$file"; fi
        done
    done | head -n 1
}
set_limit $((32 << 20))
status=0
timeout 10 bash -c "$join exec '$ring' serve --host 127.0.0.1 --port 0 --access-log off" 2> "$out" || status=$?
reason=$(head -n 1 "$out")
echo "$reason"
if [ "$status" -eq 1 ] && [[ "$reason" == *"memory limit of 32 MiB"*"--max-connections"* ]]; then
    echo "  PASS  under 32 MiB the server refuses to start (exit 1), naming the flags to lower"
else
    echo "  FAIL  under 32 MiB: exit $status" >&2
    exit 1
fi
set_limit $((96 << 20))
kills_before=$(oom_kills)
start_in_cgroup
case "$banner" in
    *"memory: --cache-mb "*" to fit the limit of 96 MiB"*) echo "  PASS  under 96 MiB the start-up line says what was fitted" ;;
    *) echo "  FAIL  under 96 MiB the start-up line does not say what was fitted" >&2; exit 1 ;;
esac
cd "$(dirname "$0")/../.."
for path in "/ring.svg?p={n}&size=2{n}" "/ring.png?p={n}&size=300&gradient=red,blue" "/ring.png?p={n}&size=600&scale=2" \
    "/ring.png?p={n}&size=x{n}"; do
    RING_BENCH_PATH="$path" RING_BENCH_REPEAT=2 wrk -t1 -c8 -d6s -s scripts/bench/miss.lua "http://127.0.0.1:$port" >/dev/null 2>&1 &
done
wait $(jobs -p | grep -v "^$server$") 2>/dev/null || true
if kill -0 "$server" 2>/dev/null && [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz")" = 200 ] \
    && [ "$(oom_kills)" = "$kills_before" ]; then
    echo "  PASS  a fitted server lives through 6 s of mixed floods under 96 MiB (no OOM kill)"
else
    echo "  FAIL  the fitted server did not survive the floods (OOM kills: $kills_before -> $(oom_kills))" >&2
    exit 1
fi
