#!/usr/bin/env bash
# Runs `ring serve` inside a cgroup with a one-CPU quota and checks that it sizes itself from
# the quota, not from the machine: one event loop and one render thread. Needs root (it makes
# the cgroup) and a cgroup file system with the cpu controller, v2 or v1.
#
#   scripts/check-cgroup.sh RING
set -euo pipefail
ring=${1:?usage: check-cgroup.sh RING}
[ "$(id -u)" -eq 0 ] || { echo "check-cgroup.sh: needs root to make a cgroup" >&2; exit 1; }
name="ring-ci-$$"
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then  # v2, the unified hierarchy at the root
    grep -qw cpu /sys/fs/cgroup/cgroup.controllers || { echo "check-cgroup.sh: no cpu controller" >&2; exit 1; }
    grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control || echo +cpu > /sys/fs/cgroup/cgroup.subtree_control
    dir=/sys/fs/cgroup/$name
    mkdir "$dir"
    echo "100000 100000" > "$dir/cpu.max"
elif [ -d /sys/fs/cgroup/cpu ]; then  # v1
    dir=/sys/fs/cgroup/cpu/$name
    mkdir "$dir"
    echo 100000 > "$dir/cpu.cfs_period_us"
    echo 100000 > "$dir/cpu.cfs_quota_us"
else
    echo "check-cgroup.sh: no cgroup file system with a cpu controller" >&2
    exit 1
fi
trap 'rmdir "$dir" 2>/dev/null || true' EXIT
echo "quota: one CPU in $dir, on a machine of $(nproc) CPUs"
banner=$(bash -c "echo \$\$ > '$dir/cgroup.procs'; exec timeout 3 '$ring' serve --host 127.0.0.1 --port 0 --access-log off" 2>&1 | head -n 1 || true)
echo "$banner"
case "$banner" in
    *"(1 event loop, "*"; 1 render thread; 1 CPU available"[\;\)]*) echo "  PASS  one event loop and one render thread in a one-CPU cgroup" ;;
    *) echo "  FAIL  expected one event loop and one render thread" >&2; exit 1 ;;
esac
