#!/usr/bin/env python3
"""Checks deploy/kubernetes.yaml without a cluster: it parses, holds a Deployment, a Service and a
HorizontalPodAutoscaler, and the Deployment has probes on /healthz, resource requests and limits,
a non-root user and a port matching the Service; its memory request and limit cover the memory
formula of docs/operations.md for its flags, and its grace period the drain deadline. Needs PyYAML."""
import sys

import yaml

documents = [d for d in yaml.safe_load_all(open("deploy/kubernetes.yaml")) if d]
kinds = {d["kind"]: d for d in documents}
problems = []
checks = 13  # 3 kinds, 2 probes, 2 resource parts, non-root, ports, autoscaler target, 2 memory, grace
for kind in ("Deployment", "Service", "HorizontalPodAutoscaler"):
    if kind not in kinds:
        problems.append(f"no {kind}")
deployment = kinds.get("Deployment", {})
pod = deployment.get("spec", {}).get("template", {}).get("spec", {})
container = (pod.get("containers") or [{}])[0]
for probe in ("readinessProbe", "livenessProbe"):
    if container.get(probe, {}).get("httpGet", {}).get("path") != "/healthz":
        problems.append(f"{probe} is not on /healthz")
resources = container.get("resources", {})
for part in ("requests", "limits"):
    if not {"cpu", "memory"} <= set(resources.get(part, {})):
        problems.append(f"resources.{part} lacks cpu or memory")


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


# docs/operations.md: fixed 20 MiB + the fallback fonts (the Dockerfile's Droid Sans Fallback and
# NanumGothic Bold: 8.1 MiB) + cache cap + 2 KiB a connection + large PNG renders x their limit +
# 2.5 MiB a render thread (one per CPU of the limit).
FONTS_MIB = (4_033_420 + 4_415_956) / (1 << 20)
cpus = float(str(resources.get("limits", {}).get("cpu", "1")).rstrip("m")) / (1000 if str(
    resources.get("limits", {}).get("cpu", "1")).endswith("m") else 1)
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
target = kinds.get("HorizontalPodAutoscaler", {}).get("spec", {}).get("scaleTargetRef", {})
if target.get("name") != deployment.get("metadata", {}).get("name"):
    problems.append("HorizontalPodAutoscaler does not scale the Deployment")
for problem in problems:
    print("FAIL", problem)
print(f"check-kubernetes: {len(documents)} documents; {checks - len(problems)} passed, {len(problems)} failed")
sys.exit(1 if problems else 0)
