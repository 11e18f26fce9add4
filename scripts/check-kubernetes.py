#!/usr/bin/env python3
"""Checks deploy/kubernetes.yaml without a cluster: it parses, holds a Deployment, a Service and a
HorizontalPodAutoscaler, and the Deployment has probes on /healthz, resource requests and limits,
a non-root user and a port matching the Service. Needs PyYAML."""
import sys

import yaml

documents = [d for d in yaml.safe_load_all(open("deploy/kubernetes.yaml")) if d]
kinds = {d["kind"]: d for d in documents}
problems = []
checks = 10  # 3 kinds, 2 probes, 2 resource parts, non-root, ports, autoscaler target
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
