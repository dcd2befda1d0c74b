#!/usr/bin/env python3
"""Checks a SARIF log from rooflint: valid against the SARIF 2.1.0 JSON schema (third_party/sarif-2.1.0),
and within what GitHub code scanning accepts on upload (its documented SARIF requirements): a driver
name; per rule an id, shortDescription, fullDescription and help text; helpUri, when present, an absolute
URL; per result a ruleId among the rules, a message, a location whose artifact URI is relative to a
base id defined in originalUriBaseIds (an absolute file URI ending in '/') and names a file that exists
there, a startLine >= 1, and partialFingerprints; at most 20 runs, 25,000 results a run, 1,000
locations and related locations a result, 20 tags a rule.

usage: check_sarif.py SCHEMA LOG --root DIR [--help-uri-base URL]"""
import argparse
import json
import os
import sys
import urllib.parse

import jsonschema


def fail(message):
    print(f"check_sarif: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("schema")
    p.add_argument("log")
    p.add_argument("--root", required=True, help="the directory %%SRCROOT%% must name")
    p.add_argument("--help-uri-base")
    a = p.parse_args()
    schema = json.load(open(a.schema))
    log = json.load(open(a.log))
    errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(log), key=lambda e: list(e.path))
    if errors:
        fail("not valid SARIF 2.1.0: " + "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:5]))

    runs = log["runs"]
    if not 1 <= len(runs) <= 20:
        fail(f"{len(runs)} runs (GitHub: 1 to 20)")
    for run in runs:
        driver = run["tool"]["driver"]
        if not driver.get("name"):
            fail("no tool.driver.name")
        rules = driver.get("rules", [])
        ids = [r["id"] for r in rules]
        if len(set(ids)) != len(ids):
            fail("duplicate rule ids")
        for r in rules:
            for key in ("shortDescription", "fullDescription", "help"):
                if not r.get(key, {}).get("text"):
                    fail(f"rule {r['id']}: no {key}.text")
            if not r["help"].get("markdown"):
                fail(f"rule {r['id']}: no help.markdown")
            if len(r.get("properties", {}).get("tags", [])) > 20:
                fail(f"rule {r['id']}: more than 20 tags")
            uri = r.get("helpUri")
            if a.help_uri_base is None and uri is not None:
                fail(f"rule {r['id']}: helpUri without a base")
            if a.help_uri_base is not None:
                want = a.help_uri_base.rstrip("/") + "/" + r["id"] + ".md"
                if uri != want:
                    fail(f"rule {r['id']}: helpUri {uri!r}, expected {want!r}")
            if uri is not None and urllib.parse.urlparse(uri).scheme not in ("http", "https"):
                fail(f"rule {r['id']}: helpUri {uri!r} is not absolute")

        bases = run.get("originalUriBaseIds", {})
        root = bases.get("%SRCROOT%", {}).get("uri", "")
        if not root.startswith("file:///") or not root.endswith("/"):
            fail(f"%SRCROOT% is {root!r}: an absolute file URI ending in '/' is needed")
        root_path = urllib.parse.unquote(urllib.parse.urlparse(root).path)
        if os.path.realpath(root_path) != os.path.realpath(a.root):
            fail(f"%SRCROOT% is {root_path}, expected {a.root}")

        results = run.get("results", [])
        if len(results) > 25000:
            fail("more than 25,000 results")
        if not results:
            fail("no results (the test expects some)")
        for res in results:
            if res.get("ruleId") not in ids:
                fail(f"result with unknown ruleId {res.get('ruleId')!r}")
            if "ruleIndex" in res and ids[res["ruleIndex"]] != res["ruleId"]:
                fail("ruleIndex does not point at ruleId")
            if not res.get("message", {}).get("text"):
                fail("result without message.text")
            locations = res.get("locations", [])
            if not 1 <= len(locations) <= 1000 or len(res.get("relatedLocations", [])) > 1000:
                fail("a result needs 1 to 1,000 locations and at most 1,000 related locations")
            fingerprints = res.get("partialFingerprints", {})
            if not fingerprints or not all(fingerprints.values()):
                fail("result without partialFingerprints")
            for loc in locations + res.get("relatedLocations", []):
                art = loc["physicalLocation"]["artifactLocation"]
                uri = art["uri"]
                if urllib.parse.urlparse(uri).scheme or uri.startswith("/") or ".." in uri.split("/"):
                    fail(f"artifact URI {uri!r} is not relative")
                if art.get("uriBaseId") not in bases:
                    fail(f"artifact {uri!r} has no base id defined in originalUriBaseIds")
                if not os.path.isfile(os.path.join(root_path, urllib.parse.unquote(uri))):
                    fail(f"artifact {uri!r} is not a file under {root_path}")
                if loc["physicalLocation"].get("region", {}).get("startLine", 1) < 1:
                    fail(f"artifact {uri!r}: startLine < 1")
    print(f"check_sarif: {a.log}: valid SARIF 2.1.0 within GitHub's limits")


if __name__ == "__main__":
    main()
