#!/usr/bin/env python3
"""Checks deploy/prometheus-rules.yaml and deploy/grafana-dashboard.json against the metrics a
running `ring serve` exports:

- `promtool check rules` and `promtool test rules` (Debian's `prometheus` package) pass;
- every metric the rules and the dashboard's queries name is exported, and every label they
  select on exists on it with the value they select (`status="503"`, `route="ring"`);
- the dashboard is well formed: unique panel ids, a query in every panel, panels that do not
  overlap, and the datasource and instance variables its queries use.

ring_memory_limit_bytes is exported only under a cgroup memory limit; scripts/check-cgroup.sh
checks it there, and it is taken as known here.

Usage: scripts/check-monitoring.py PATH-TO-ring
"""
import http.client
import json
import os
import re
import shutil
import subprocess
import sys

from prometheus_client.parser import text_string_to_metric_families

ring = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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

print(f"check-monitoring: {len(exprs)} queries; {passed} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
