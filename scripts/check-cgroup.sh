#!/usr/bin/env bash
# Runs `ring serve` inside a cgroup with a one-CPU quota and a 256 MiB memory limit, and checks
# that it sizes itself from the quota, not from the machine (one event loop and one render
# thread), and exports the limit as ring_memory_limit_bytes. Needs root (it makes the cgroups)
# and a cgroup file system with the cpu and memory controllers, v2 or v1.
#
#   scripts/check-cgroup.sh RING
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
bash -c "$join exec '$ring' serve --host 127.0.0.1 --port 0 --access-log off" 2> "$out" &
server=$!
for _ in $(seq 50); do [ -s "$out" ] && break; sleep 0.1; done
banner=$(head -n 1 "$out")
echo "$banner"
port=$(echo "$banner" | sed -n 's/.*:\([0-9]*\) (.*/\1/p')
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
