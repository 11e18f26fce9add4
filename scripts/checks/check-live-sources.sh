#!/usr/bin/env bash
# Live values under faults of the network, in a lab of two network namespaces:
#
#   scripts/checks/check-live-sources.sh PATH-TO-ring
#
#   ringlab  the ring host: ring serve, its clients (scripts/checks/live-lab/lab.py), and an internal
#            service on its loopback that no source may reach; its resolv.conf names the
#            lab's DNS responder.
#   ringnet  the internet: the DNS responder (scripts/checks/live-lab/dns.py: slow, silent, NXDOMAIN
#            and rebinding names) and the document server (scripts/checks/live-lab/documents.py).
#
# The two are joined by a veth pair with public addresses (100.0.77.1 and .2), so the address
# rules apply as they would on the internet. lab.py runs every check on the epoll and the
# Dispatch backend. Needs root (ip netns).
set -euo pipefail
ring=${1:?usage: scripts/checks/check-live-sources.sh PATH-TO-ring}
ring=$(realpath "$ring")
for tool in ip python3; do
    command -v "$tool" >/dev/null || { echo "check-live-sources: $tool is not installed" >&2; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { echo "check-live-sources: needs root to make network namespaces" >&2; exit 1; }
lab=$(cd "$(dirname "$0")/live-lab" && pwd)
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    ip netns del ringlab 2>/dev/null || true
    ip netns del ringnet 2>/dev/null || true
    rm -rf /etc/netns/ringlab "$work"
}
trap cleanup EXIT
# A lab left behind by an interrupted run.
ip netns del ringlab 2>/dev/null || true
ip netns del ringnet 2>/dev/null || true

ip netns add ringlab
ip netns add ringnet
ip link add ringlab0 type veth peer name ringnet0
ip link set ringlab0 netns ringlab
ip link set ringnet0 netns ringnet
ip -n ringlab addr add 100.0.77.1/24 dev ringlab0
ip -n ringnet addr add 100.0.77.2/24 dev ringnet0
for ns in ringlab ringnet; do ip -n "$ns" link set lo up; done
ip -n ringlab link set ringlab0 up
ip -n ringnet link set ringnet0 up
# `ip netns exec` mounts these over /etc/resolv.conf and /etc/hosts for what runs in ringlab.
mkdir -p /etc/netns/ringlab
echo "nameserver 100.0.77.2" > /etc/netns/ringlab/resolv.conf
printf '127.0.0.1 localhost\n::1 localhost\n' > /etc/netns/ringlab/hosts

ip netns exec ringnet python3 "$lab/dns.py" 100.0.77.2 53 100.0.77.2 & pids+=($!)
ip netns exec ringnet python3 "$lab/documents.py" 100.0.77.2 80 & pids+=($!)
for _ in $(seq 50); do
    ip netns exec ringlab python3 -c "import socket; socket.create_connection(('100.0.77.2', 80), 1)" 2>/dev/null && break
    sleep 0.1
done

status=0
for io in epoll dispatch; do
    ip netns exec ringlab python3 "$lab/lab.py" "$ring" --io "$io" "$work" || status=1
done
[ "$status" -eq 0 ] || { echo "check-live-sources: a check failed; ring's log:" >&2; tail -n 40 "$work"/ring-*.log >&2; }
exit "$status"
