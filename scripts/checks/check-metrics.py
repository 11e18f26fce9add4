#!/usr/bin/env python3
"""Starts `ring serve`, sends a few requests, and parses /metrics with the Prometheus
client library's own text parser (PyPI prometheus-client): every family must parse, and the
counters must agree with the requests sent.

Usage: scripts/checks/check-metrics.py PATH-TO-ring
"""
import http.client
import re
import subprocess
import sys
import time

from prometheus_client.parser import text_string_to_metric_families

ring = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
version = subprocess.run([ring, "--version"], capture_output=True, text=True, check=True).stdout.split()[1]
# Two event loops: the cache is shared, so the counts below do not depend on which loop each
# connection lands on.
server = subprocess.Popen([ring, "serve", "--host", "127.0.0.1", "--port", "0", "--access-log", "off", "--threads", "2"],
                          stderr=subprocess.PIPE, text=True)
try:
    banner = server.stderr.readline()
    port = int(re.search(r":(\d+) ", banner).group(1))

    def get(target):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", target)
        response = connection.getresponse()
        body = response.read()
        connection.close()
        return response, body

    # p=1 is stored when asked for again (--cache-admission second) and found the third time;
    # p=2, asked for once, is answered and not stored.
    for target in ["/ring.svg?p=1", "/ring.svg?p=1", "/ring.svg?p=1", "/ring.svg?p=2", "/ring.svg?p=x", "/nope", "/healthz",
                   "/ring.png?p=1", "/ring.json?p=1", "/ring.json?p=x"]:
        get(target)
    response, body = get("/metrics")
    assert response.status == 200, response.status
    families = {family.name: family for family in text_string_to_metric_families(body.decode())}

    def sample(name, labels=None):
        for family in families.values():
            for s in family.samples:
                if s.name == name and (labels is None or all(s.labels.get(k) == v for k, v in labels.items())):
                    return s.value
        raise AssertionError(f"no sample {name} {labels}")

    checks = [
        (sample("ring_http_requests_total", {"route": "ring", "format": "svg", "status": "200"}), 5),
        (sample("ring_http_requests_total", {"route": "ring", "format": "png", "status": "200"}), 1),
        (sample("ring_http_requests_total", {"route": "json", "format": "json", "status": "200"}), 1),
        (sample("ring_http_requests_total", {"route": "json", "format": "json", "status": "400"}), 1),
        (sample("ring_http_requests_total", {"route": "not_found", "status": "404"}), 1),
        (sample("ring_http_requests_total", {"route": "healthz", "status": "200"}), 1),
        (sample("ring_render_errors_total", {"format": "svg"}), 1),
        (sample("ring_render_errors_total", {"format": "png"}), 0),
        (sample("ring_cache_hits_total"), 1),
        (sample("ring_cache_misses_total"), 3),  # p=1's second request, the error image, the PNG
        (sample("ring_cache_unstored_total"), 2),  # p=1's first request, p=2
        (sample("ring_render_seconds_count", {"format": "svg"}), 3),
        (sample("ring_render_seconds_count", {"format": "png"}), 1),
        (sample("ring_build_info", {"version": version}), 1),
        (sample("ring_cache_entries"), 3),  # p=1, the PNG and the error image, cached like a ring
        (sample("ring_render_queue_full_total"), 0),
    ]
    failed = [(got, want) for got, want in checks if got != want]
    for got, want in failed:
        print(f"FAIL: got {got}, want {want}")
    assert sample("ring_open_connections") >= 1
    assert sample("ring_cache_bytes") > 0
    assert sample("process_resident_memory_bytes") > 1 << 20
    assert sample("ring_render_threads") >= 1
    assert abs(sample("process_start_time_seconds") - time.time()) < 60
    print(f"check-metrics: {len(families)} families parsed by prometheus_client; "
          f"{len(checks) - len(failed)} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)
finally:
    server.terminate()
    server.wait(timeout=15)
