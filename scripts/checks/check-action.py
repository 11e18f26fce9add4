#!/usr/bin/env python3
"""Runs the GitHub Action (action.yml) as a runner would, here, where there is no GitHub.

1. action.yml against the metadata syntax: a name and a description, every input described,
   `runs.using: composite`, each `run` step with a `shell`, each output naming a step's id.
2. yamllint on action.yml and on the workflow docs/github-action.md shows.
3. In a temporary git repository, each `run` step of the action with the inputs put in
   (`uses:` steps are GitHub's, such as actions/cache, and are skipped), then the files it wrote:
   the bytes `ring render` writes for the same rings written with `p`, a PNG where asked, the
   `files` output; a bad ring fails the step and names it.
4. The rings of the documented workflow, on an Istanbul json-summary and Jest --json results of
   the shapes those tools write.

Usage: scripts/checks/check-action.py   (needs .build/release/ring, pyyaml and yamllint)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    sys.exit("check-action: pyyaml is not installed")
if shutil.which("yamllint") is None:
    sys.exit("check-action: yamllint is not installed")

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ring = os.path.join(root, ".build", "release", "ring")
if not os.access(ring, os.X_OK):
    sys.exit("check-action: build .build/release/ring first")
passed = 0
failures = []


def check(description, condition):
    global passed
    if condition:
        passed += 1
        print(f"  PASS  {description}")
    else:
        failures.append(description)
        print(f"  FAIL  {description}")


# 1. The metadata syntax.
with open(os.path.join(root, "action.yml")) as handle:
    action = yaml.safe_load(handle)
check("action.yml has a name and a description", bool(action.get("name")) and bool(action.get("description")))
check("every input is described",
      all(isinstance(spec, dict) and spec.get("description") for spec in action.get("inputs", {}).values()))
runs = action.get("runs", {})
check("runs.using is composite", runs.get("using") == "composite")
steps = runs.get("steps", [])
check("each run step has a shell", all("shell" in step for step in steps if "run" in step))
check("each step runs or uses, not both", all(("run" in step) != ("uses" in step) for step in steps))
ids = {step.get("id") for step in steps}
for name, output in action.get("outputs", {}).items():
    named = re.findall(r"steps\.([A-Za-z0-9_-]+)\.outputs", output.get("value", ""))
    check(f"output {name} names a step of the action ({named})", bool(named) and all(n in ids for n in named))

# 2. yamllint on the action and the documented workflow.
docs = open(os.path.join(root, "docs", "github-action.md")).read()
block = re.search(r"check-action\.py runs the rings of this workflow -->\n```yaml\n(.*?)```", docs, re.S)
check("docs/github-action.md has the workflow block", block is not None)
work = tempfile.mkdtemp(prefix="ring-action-")
workflow_path = os.path.join(work, "workflow.yml")
with open(workflow_path, "w") as handle:
    handle.write(block.group(1) if block else "")
config = "{extends: default, rules: {line-length: {max: 120}, document-start: disable, truthy: {check-keys: false}}}"
for path in (os.path.join(root, "action.yml"), workflow_path):
    lint = subprocess.run(["yamllint", "-d", config, path], capture_output=True, text=True)
    check(f"yamllint {os.path.basename(path)} {lint.stdout.strip()}", lint.returncode == 0)
workflow = yaml.safe_load(block.group(1)) if block else {}


def expand(text, inputs):
    """The expressions the action's env uses: ${{ inputs.NAME }}."""
    return re.sub(r"\$\{\{\s*inputs\.([A-Za-z0-9_-]+)\s*\}\}", lambda m: inputs.get(m.group(1), ""), text)


def run_action(inputs, workspace):
    """Each `run` step in order, as a runner runs it; the status of the first that fails."""
    output = os.path.join(workspace, ".github-output")
    open(output, "w").close()
    defaults = {name: str(spec.get("default", "")) for name, spec in action.get("inputs", {}).items()}
    inputs = {**defaults, **inputs}
    for step in steps:
        if "uses" in step:
            continue
        env = dict(os.environ, GITHUB_ACTION_PATH=root, GITHUB_WORKSPACE=workspace, GITHUB_OUTPUT=output)
        for key, value in step.get("env", {}).items():
            env[key] = expand(str(value), inputs)
        result = subprocess.run([step["shell"], "-c", expand(step["run"], inputs)], cwd=workspace, env=env,
                                capture_output=True, text=True)
        if result.returncode != 0:
            return result.returncode, result.stdout + result.stderr, open(output).read()
    return 0, "", open(output).read()


def render(query, suffix):
    path = os.path.join(work, "expected" + suffix)
    subprocess.run([ring, "render", query, "-o", path], check=True)
    return open(path, "rb").read()


# 3. The action's steps in a temporary repository.
repository = os.path.join(work, "repository")
os.makedirs(repository)
subprocess.run(["git", "init", "-q", repository], check=True)
with open(os.path.join(repository, "values.json"), "w") as handle:
    json.dump({"coverage": {"pct": 72.4}, "tests": {"passed": 120, "total": 125}}, handle)
status, log, output = run_action({
    "rings": "rings/coverage.svg: field=coverage.pct&slice=0.45\n"
             "\n# a comment\n"
             "rings/deep/tests.png: field=tests.passed&maxField=tests.total&scale=2\n"
             "plain.svg: https://rings.example.com/ring.svg?p=30",
    "values": "values.json"}, repository)
check(f"the action's steps succeed ({log.strip()[-200:]})", status == 0)


def written(path):
    full = os.path.join(repository, path)
    return open(full, "rb").read() if os.path.exists(full) else b""


check("coverage.svg is the ring of p=72.4", written("rings/coverage.svg") == render("p=72.4&slice=0.45", ".svg"))
check("tests.png is the PNG of p=120&max=125 at scale 2",
      written("rings/deep/tests.png") == render("p=120&max=125&scale=2", ".png"))
check("a URL's ring is written too", written("plain.svg") == render("p=30", ".svg"))
check("the files output lists the three", all(name in output for name in
      ("rings/coverage.svg", "rings/deep/tests.png", "plain.svg")))
status, log, _ = run_action({"rings": "bad.svg: field=missing.path", "values": "values.json"}, repository)
check(f"a ring the file cannot give fails the step, naming it ({log.strip().splitlines()[-1] if log.strip() else ''})",
      status != 0 and "missing.path" in log and not os.path.exists(os.path.join(repository, "bad.svg")))
status, log, _ = run_action({"rings": "../outside.svg: p=5"}, repository)
check("a file outside the workspace is refused", status != 0 and not os.path.exists(os.path.join(work, "outside.svg")))

# 4. The documented workflow's rings, on files of the shapes Istanbul and Jest write.
samples = {
    "coverage/coverage-summary.json": {"total": {"lines": {"total": 500, "covered": 362, "skipped": 0, "pct": 72.4},
                                                 "statements": {"pct": 71.9}, "functions": {"pct": 80},
                                                 "branches": {"pct": 65.2}}},
    "test-results.json": {"numFailedTests": 3, "numPassedTests": 120, "numPendingTests": 2, "numTotalTests": 125,
                          "success": False},
}
documented = os.path.join(work, "documented")
os.makedirs(documented)
for path, content in samples.items():
    os.makedirs(os.path.dirname(os.path.join(documented, path)) or documented, exist_ok=True)
    with open(os.path.join(documented, path), "w") as handle:
        json.dump(content, handle)
uses = [step for job in workflow.get("jobs", {}).values() for step in job.get("steps", [])
        if str(step.get("uses", "")).split("@")[0].endswith("/ring")]
check(f"the workflow uses the action ({len(uses)} steps)", len(uses) == 2)
for step in uses:
    status, log, output = run_action({key: str(value) for key, value in step.get("with", {}).items()}, documented)
    check(f"the workflow's step '{step.get('name')}' succeeds ({log.strip()[-200:]})", status == 0)
check("the documented coverage ring is p=72.4",
      open(os.path.join(documented, ".github/rings/coverage.svg"), "rb").read()
      == render("p=72.4&slice=0.45&caption=coverage", ".svg"))
check("the documented tests stack is 120 passed, 3 failed and 2 skipped",
      open(os.path.join(documented, ".github/rings/tests.svg"), "rb").read()
      == render("p=120,3,2&stack&max=sum&color=2da44e,cf222e,bf8700&parts=passed,failed,skipped&caption=tests",
                ".svg"))
shutil.rmtree(work)
print(f"check-action: {passed} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
