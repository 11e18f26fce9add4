#!/usr/bin/env python3
"""Checks deploy/prometheus-rules.yaml and deploy/grafana-dashboard.json against the metrics a
running `ring serve` exports:

- `promtool check rules` and `promtool test rules` (Debian's `prometheus` package) pass;
- every metric the rules and the dashboard's queries name is exported, and every label they
  select on exists on it with the value they select (`status="503"`, `route="ring"`);
- the dashboard is well formed: unique panel ids, a query in every panel, panels that do not
  overlap, and the datasource and instance variables its queries use.

It also reads the access log as a collector would, in both formats, field by field as
docs/operations.md documents them: the text format with nginx's `combined` pattern (as
GoAccess and fail2ban read it) plus our four fields, the JSON format key by key, and the client
behind a `--trusted-proxy`.

ring_memory_limit_bytes is exported only under a cgroup memory limit; scripts/checks/check-cgroup.sh
checks it there, and it is taken as known here.

Usage: scripts/checks/check-monitoring.py PATH-TO-ring
"""
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from prometheus_client.parser import text_string_to_metric_families

ring = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
deploy = os.path.join(root, "deploy")
failures = []
passed = 0


def check(ok, message):
    global passed
    if ok:
        passed += 1
    else:
        failures.append(message)
        print(f"  FAIL  {message}")


promtool = shutil.which("promtool") or sys.exit("check-monitoring: promtool is missing (Debian package prometheus)")
for command in (["check", "rules", "prometheus-rules.yaml"], ["test", "rules", "prometheus-rules.test.yaml"]):
    run = subprocess.run([promtool] + command, cwd=deploy, capture_output=True, text=True)
    check(run.returncode == 0, f"promtool {' '.join(command)}:\n{run.stdout}{run.stderr}")

server = subprocess.Popen([ring, "serve", "--host", "127.0.0.1", "--port", "0", "--access-log", "off"],
                          stderr=subprocess.PIPE, text=True)
try:
    port = int(re.search(r":(\d+) ", server.stderr.readline()).group(1))
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", "/metrics")
    exposition = connection.getresponse().read().decode()
finally:
    server.terminate()
    server.wait(timeout=15)

# Series by metric name, with each label's values, as the exposition has them.
series = {}
for family in text_string_to_metric_families(exposition):
    for sample in family.samples:
        labels = series.setdefault(sample.name, {})
        for key, value in sample.labels.items():
            labels.setdefault(key, set()).add(value)
series.setdefault("ring_memory_limit_bytes", {})
# Prometheus adds these when it scrapes.
scrape_labels = {"instance", "job"}

rules = open(os.path.join(deploy, "prometheus-rules.yaml")).read()
exprs = [("rules", block) for block in re.findall(r"expr: \|\n((?:\s{10}.*\n)+)|expr: (.*)\n", rules)
         for block in block if block]
dashboard = json.load(open(os.path.join(deploy, "grafana-dashboard.json")))
for panel in dashboard["panels"]:
    check(panel.get("targets"), f"panel {panel['title']!r} has no query")
    for target in panel.get("targets", []):
        exprs.append((f"panel {panel['title']!r}", target["expr"]))

selector = re.compile(r"\b((?:ring|process)_[a-z_]+)(\{[^}]*\})?")
for where, expr in exprs:
    for name, labels in selector.findall(expr):
        check(name in series, f"{where}: {name} is not exported")
        for key, op, value in re.findall(r'(\w+)\s*(=~|!=|=)\s*"([^"]*)"', labels or ""):
            if key in scrape_labels:
                continue
            known = series.get(name, {}).get(key)
            check(known is not None, f"{where}: {name} has no label {key}")
            if known is not None and op == "=":
                check(value in known, f"{where}: {name}{{{key}}} never has the value {value!r} ({sorted(known)})")
    for key in re.findall(r"by \(([^)]*)\)", expr):
        for label in [k.strip() for k in key.split(",")]:
            names = [n for n, _ in selector.findall(expr)]
            check(label in scrape_labels or label == "le" or any(label in series.get(n, {}) for n in names),
                  f"{where}: grouped by {label}, which none of {names} has")

ids = [panel["id"] for panel in dashboard["panels"]]
check(len(ids) == len(set(ids)), f"panel ids repeat: {ids}")
cells = set()
for panel in dashboard["panels"]:
    g = panel["gridPos"]
    mine = {(x, y) for x in range(g["x"], g["x"] + g["w"]) for y in range(g["y"], g["y"] + g["h"])}
    check(not (cells & mine) and g["x"] + g["w"] <= 24, f"panel {panel['title']!r} overlaps another or the edge")
    cells |= mine
variables = {v["name"] for v in dashboard["templating"]["list"]}
used = set(re.findall(r"\$\{?(\w+)", json.dumps(dashboard))) - {"__rate_interval", "__all", "labels", "value"}
check(used <= variables, f"the dashboard uses undefined variables {sorted(used - variables)}")


def logged(log_format):
    """The access log lines of three requests to a server started with `log_format`."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "access.log")
        server = subprocess.Popen(
            [ring, "serve", "--host", "127.0.0.1", "--port", "0", "--access-log", path,
             "--access-log-format", log_format, "--trusted-proxy", "127.0.0.0/8"],
            stderr=subprocess.PIPE, text=True)
        try:
            port = int(re.search(r":(\d+) ", server.stderr.readline()).group(1))
            answers = []
            for target, headers in [
                ("/ring.svg?p=72&slice=0.45", {"User-Agent": 'agent "quoted"', "Referer": "https://example.com/"}),
                ("/ring.png?p=72", {"X-Forwarded-For": "203.0.113.7, 127.0.0.9", "X-Request-Id": "req-42"}),
                ("/nope", {}),
            ]:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                connection.request("GET", target, headers=headers)
                response = connection.getresponse()
                response.read()
                answers.append(response)
        finally:
            server.terminate()
            server.wait(timeout=15)
        return open(path).read().splitlines(), answers


combined = re.compile(r'^(\S+) - - \[(\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d\.\d{3} \+0000)\] "(\S+) (\S+) (HTTP/1\.\d)" '
                      r'(\d{3}) (\d+) "((?:[^"\\]|\\x[0-9A-F]{2})*)" "((?:[^"\\]|\\x[0-9A-F]{2})*)" '
                      r'(\d+) (hit|miss|stored|-) (svg|png|json|html|text) (\S+)$')
lines, answers = logged("text")
check(len(lines) == 3, f"text access log: {len(lines)} lines for 3 requests")
fields = [combined.match(line) for line in lines]
check(all(fields), f"text access log: a line is not nginx combined + 4 fields: {lines}")
if len(lines) == 3 and all(fields):
    svg, png, missing = (m.groups() for m in fields)
    check(svg[0] == "127.0.0.1" and svg[3] == "/ring.svg?p=72&slice=0.45" and svg[5] == "200",
          f"text log: client, target, status {svg}")
    check(svg[7] == "https://example.com/" and svg[8] == "agent \\x22quoted\\x22",
          f"text log: referer and escaped user agent {svg}")
    check(svg[10] == "miss" and svg[11] == "svg", f"text log: cache and format {svg}")
    check(png[0] == "203.0.113.7" and png[12] == "req-42" and png[11] == "png",
          f"text log: forwarded client and request id {png}")
    check(int(png[6]) == int(answers[1].getheader("Content-Length")), f"text log: bytes {png}")
    check(missing[5] == "404" and missing[11] == "text" and missing[12] == answers[2].getheader("X-Request-Id"),
          f"text log: a 404's line and its echoed request id {missing}")
lines, answers = logged("json")
records = [json.loads(line) for line in lines]
keys = ["time", "client", "method", "target", "status", "bytes", "duration_us", "cache", "format", "user_agent",
        "referer", "request_id"]
check(len(records) == 3 and all(list(r) == keys for r in records), f"json access log keys: {records}")
if len(records) == 3:
    check(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", records[0]["time"]) is not None,
          f"json log time {records[0]['time']}")
    check(abs(time.time() - time.mktime(time.strptime(records[0]["time"][:19], "%Y-%m-%dT%H:%M:%S")) + time.timezone) < 120,
          f"json log time is now: {records[0]['time']}")
    check(records[0]["user_agent"] == 'agent "quoted"' and records[0]["referer"] == "https://example.com/",
          f"json log user agent and referer {records[0]}")
    check(records[1]["client"] == "203.0.113.7" and records[1]["request_id"] == "req-42"
          and answers[1].getheader("X-Request-Id") == "req-42", f"json log forwarded client and request id {records[1]}")
    check(records[2]["status"] == 404 and records[2]["request_id"] == answers[2].getheader("X-Request-Id"),
          f"json log 404 {records[2]}")
    check(all(isinstance(r["duration_us"], int) and isinstance(r["bytes"], int) for r in records),
          "json log numbers")

print(f"check-monitoring: {len(exprs)} queries, two access log formats; {passed} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
