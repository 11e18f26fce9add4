#!/usr/bin/env python3
"""Checks deploy/kubernetes.yaml and deploy/servicemonitor.yaml without a cluster: they parse and
hold a Deployment, a Service, a HorizontalPodAutoscaler, a PodDisruptionBudget, an Ingress and a
ServiceMonitor. The Deployment names the image of this release (the version in the source, not
`latest`); has probes on /healthz with timeouts that hold under load, resource requests and
limits, a non-root user, a port matching the Service, and the prometheus.io scrape annotations
on that port; its CPU request equals its whole-CPU limit (the quota the loop and render thread
counts come from); its memory request and limit cover the memory formula of docs/operations.md
for its flags and CPUs; its grace period covers the drain deadline. The disruption budget and
the ServiceMonitor select the Deployment's pods and Service. The autoscaler scales that
Deployment (apps/v1) between at least 2 replicas and a larger maximum, on CPU utilisation,
which needs the CPU request checked above. The Ingress routes exactly the public paths
(/ring.svg, /ring.png, /ring.json and /, each Exact) to a port the Service has, and nothing
else: never /metrics. Needs PyYAML."""
import re
import sys

import yaml

documents = [d for d in yaml.safe_load_all(open("deploy/kubernetes.yaml")) if d]
documents += [d for d in yaml.safe_load_all(open("deploy/servicemonitor.yaml")) if d]
kinds = {d["kind"]: d for d in documents}
problems = []
# 5 kinds, 2 probes, 2 probe timeouts, 2 resource parts, CPU, image, annotations, non-root, ports,
# autoscaler target, budget, monitor selector, monitor port, 2 memory, grace, 3 autoscaler, 3 ingress
checks = 31
for kind in ("Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget", "Ingress", "ServiceMonitor"):
    if kind not in kinds:
        problems.append(f"no {kind}")
deployment = kinds.get("Deployment", {})
pod = deployment.get("spec", {}).get("template", {}).get("spec", {})
container = (pod.get("containers") or [{}])[0]
for probe in ("readinessProbe", "livenessProbe"):
    if container.get(probe, {}).get("httpGet", {}).get("path") != "/healthz":
        problems.append(f"{probe} is not on /healthz")
    # Kubernetes' default of 1 s fails a probe that waits behind a busy node's scheduler.
    if container.get(probe, {}).get("timeoutSeconds", 1) < 2:
        problems.append(f"{probe} times out in under 2 s")
resources = container.get("resources", {})
for part in ("requests", "limits"):
    if not {"cpu", "memory"} <= set(resources.get(part, {})):
        problems.append(f"resources.{part} lacks cpu or memory")


def cores(quantity):
    text = str(quantity)
    return float(text[:-1]) / 1000 if text.endswith("m") else float(text)


cpu_request = cores(resources.get("requests", {}).get("cpu", "0"))
cpus = cores(resources.get("limits", {}).get("cpu", "1"))
if cpu_request != cpus or cpus != int(cpus):
    problems.append(f"CPU request {cpu_request} and limit {cpus} differ or are not whole: the quota sets "
                    "the loop and render thread counts (one per CPU, rounded up)")
version = re.search(r'static let version = "([^"]+)"', open("Sources/RingService/RingService.swift").read()).group(1)
image = str(container.get("image", ""))
if not image.endswith(":" + version):
    problems.append(f"image {image} is not tagged with this release, {version}")
annotations = deployment.get("spec", {}).get("template", {}).get("metadata", {}).get("annotations", {})
container_ports = {str(p.get("containerPort")) for p in container.get("ports", [])}
if (annotations.get("prometheus.io/scrape") != "true" or annotations.get("prometheus.io/path") != "/metrics"
        or annotations.get("prometheus.io/port") not in container_ports):
    problems.append(f"scrape annotations {annotations} do not name /metrics on a container port")
pod_labels = deployment.get("spec", {}).get("template", {}).get("metadata", {}).get("labels", {})
budget = kinds.get("PodDisruptionBudget", {}).get("spec", {})
if not budget.get("selector", {}).get("matchLabels", {"-": "-"}).items() <= pod_labels.items() or (
        budget.get("minAvailable", 0) < 1 and "maxUnavailable" not in budget):
    problems.append("PodDisruptionBudget does not keep a replica of the Deployment's pods")
service = kinds.get("Service", {})
monitor = kinds.get("ServiceMonitor", {}).get("spec", {})
if not monitor.get("selector", {}).get("matchLabels", {"-": "-"}).items() <= service.get("metadata", {}).get(
        "labels", {}).items():
    problems.append("ServiceMonitor does not select the Service")
service_port_names = {p.get("name") for p in service.get("spec", {}).get("ports", [])}
endpoints = monitor.get("endpoints") or [{}]
if any(e.get("port") not in service_port_names or e.get("path") != "/metrics" for e in endpoints):
    problems.append(f"ServiceMonitor endpoints {endpoints} are not /metrics on a Service port")


def flag(name, default):
    """A numeric flag from the container's args, `--name N` or `--name=N`."""
    args = [str(a) for a in container.get("args", [])]
    for index, arg in enumerate(args):
        if arg == name and index + 1 < len(args):
            return float(args[index + 1])
        if arg.startswith(name + "="):
            return float(arg.split("=", 1)[1])
    return default


def mebibytes(quantity):
    units = {"Ki": 1 / 1024, "Mi": 1, "Gi": 1024}
    for suffix, factor in units.items():
        if str(quantity).endswith(suffix):
            return float(str(quantity)[: -len(suffix)]) * factor
    return float(quantity) / (1 << 20)


# docs/operations.md: fixed 20 MiB + the fallback fonts' kept tables (the Dockerfile's Droid Sans
# Fallback and NanumGothic Bold: 0.6 MiB; their outlines stay in the files) + cache cap + 2 KiB a
# connection + large PNG renders x their limit + 2.5 MiB a render thread (one per CPU of the limit).
FONTS_MIB = 0.6
formula = (20 + FONTS_MIB + flag("--cache-mb", 64) + flag("--max-connections", 10000) * 2 / 1024
           + flag("--png-renders", 1) * flag("--png-max-render-mb", 32) + 2.5 * max(1, round(cpus + 0.49)))
for part in ("requests", "limits"):
    memory = mebibytes(resources.get(part, {}).get("memory", "0"))
    if memory < formula:
        problems.append(f"resources.{part}.memory {memory:.0f} MiB is below the formula's {formula:.0f} MiB")
grace = pod.get("terminationGracePeriodSeconds", 30)
if grace < flag("--drain-timeout", 10) + 2:
    problems.append(f"terminationGracePeriodSeconds {grace} leaves no room after the drain deadline")
if not pod.get("securityContext", {}).get("runAsNonRoot"):
    problems.append("pod may run as root")
port_names = {p.get("name") for p in container.get("ports", [])}
service_targets = {p.get("targetPort") for p in kinds.get("Service", {}).get("spec", {}).get("ports", [])}
if not service_targets <= port_names:
    problems.append(f"Service targets {service_targets} not among container ports {port_names}")
autoscaler = kinds.get("HorizontalPodAutoscaler", {}).get("spec", {})
target = autoscaler.get("scaleTargetRef", {})
if (target.get("name"), target.get("kind"), target.get("apiVersion")) != (
        deployment.get("metadata", {}).get("name"), "Deployment", "apps/v1"):
    problems.append("HorizontalPodAutoscaler does not scale the Deployment")
low, high = autoscaler.get("minReplicas", 1), autoscaler.get("maxReplicas", 0)
if not 2 <= low < high:
    problems.append(f"HorizontalPodAutoscaler replicas {low}..{high}: at least 2, and room to grow")
cpu = [m for m in autoscaler.get("metrics", []) if m.get("type") == "Resource"
       and m.get("resource", {}).get("name") == "cpu"
       and m.get("resource", {}).get("target", {}).get("type") == "Utilization"
       and 0 < m["resource"]["target"].get("averageUtilization", 0) <= 90]
if not cpu:
    problems.append("HorizontalPodAutoscaler does not scale on CPU utilisation (at most 90 %)")
ingress = kinds.get("Ingress", {}).get("spec", {})
routes = [(path.get("path"), path.get("pathType"), path.get("backend", {}).get("service", {}))
          for rule in ingress.get("rules", []) for path in rule.get("http", {}).get("paths", [])]
public = {"/ring.svg", "/ring.png", "/ring.json", "/"}
if sorted(r[0] for r in routes) != sorted(public) or any(r[1] != "Exact" for r in routes):
    problems.append(f"Ingress routes {[(r[0], r[1]) for r in routes]}, not exactly {sorted(public)} (Exact)")
service_ports = kinds.get("Service", {}).get("spec", {}).get("ports", [])
if not all(r[2].get("name") == kinds.get("Service", {}).get("metadata", {}).get("name")
           and (r[2].get("port", {}).get("name") in {p.get("name") for p in service_ports}
                or r[2].get("port", {}).get("number") in {p.get("port") for p in service_ports})
           for r in routes):
    problems.append("Ingress sends a path to something other than the Service's port")
if ingress.get("defaultBackend") or any("metrics" in (r[0] or "") for r in routes):
    problems.append("Ingress reaches /metrics (or has a default backend)")
for problem in problems:
    print("FAIL", problem)
print(f"check-kubernetes: {len(documents)} documents; {checks - len(problems)} passed, {len(problems)} failed")
sys.exit(1 if problems else 0)
