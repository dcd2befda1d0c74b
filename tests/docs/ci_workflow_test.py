#!/usr/bin/env python3
"""The CI workflow users copy (examples/ci/github-actions.yml, docs/ci.md) against the tools it calls:
it parses as YAML with the jobs and steps GitHub Actions reads, and every option it gives
rooflint-verify, rooflint-ceilings and rooflint-summary is one that tool's --help lists.

Usage: ci_workflow_test.py WORKFLOW TOOL=PATH...   (a tool without a path is skipped)"""
import re
import subprocess
import sys

try:
    import yaml
except ImportError:
    print("no PyYAML (python3-yaml): skipped")
    sys.exit(77)

workflow_path, tool_args = sys.argv[1], sys.argv[2:]
tools = dict(a.split("=", 1) for a in tool_args)
failures = []

doc = yaml.safe_load(open(workflow_path))
jobs = doc.get("jobs") or {}
for name in ("build", "gpu", "summary"):
    if name not in jobs:
        failures.append(f"no job '{name}'")
for name, job in jobs.items():
    steps = job.get("steps")
    if not isinstance(steps, list) or not steps:
        failures.append(f"job '{name}' has no steps")
        continue
    for i, step in enumerate(steps):
        if not isinstance(step, dict) or not ("run" in step or "uses" in step):
            failures.append(f"job '{name}' step {i} has neither 'run' nor 'uses'")
    if "needs" in job and job["needs"] not in jobs:
        failures.append(f"job '{name}' needs '{job['needs']}', which is no job")

runs = [step["run"] for job in jobs.values() for step in job.get("steps", []) if isinstance(step, dict) and "run" in step]
helps = {}
checked = 0
for run in runs:
    text = re.sub(r"#.*", "", run)  # comments name things that are no options
    for tool, args in re.findall(r"\b(rooflint-verify|rooflint-ceilings|rooflint-summary)\b([^;&|\n]*)", text):
        if tools.get(tool, "") == "":
            continue
        if tool not in helps:
            helps[tool] = subprocess.run([tools[tool], "--help"], capture_output=True, text=True).stdout
        args = args.split(" -- ")[0]  # the program's own arguments come after --
        for option in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", args):
            checked += 1
            if option not in helps[tool]:
                failures.append(f"{tool} has no option {option} (its --help does not list it)")

for f in failures:
    print("FAIL:", f)
print(f"{len(jobs)} jobs, {len(runs)} run steps, {checked} options checked against the tools' --help")
sys.exit(1 if failures else 0)
