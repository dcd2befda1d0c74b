#!/usr/bin/env python3
"""Writes the hostile manifests the readers' tests feed to rooflint-verify and rooflint-summary: the recorded
version 2 manifest (tests/runtime/data/inject-example.manifest.json) with one field broken each.

  hostile_manifests.py RECORDED OUT_DIR
"""
import copy
import json
import os
import sys


def cases(doc):
    def edit(change):
        d = copy.deepcopy(doc)
        change(d)
        return d

    def shape(d):
        d["kernels"][0]["spec_value"]["tensors"][0]["shape"][0] = "N"

    def many_params(d):
        params = d["kernels"][0]["parameters"]
        for i in range(len(params), 70):
            params.append({"index": i, "name": f"p{i}", "type": "int", "kind": "integer", "signed": True,
                           "size_bytes": 4, "align_bytes": 4, "offset_bytes": 4 * i})

    term = {"dims": ["N"], "terms": [{"coefficient": 1, "exponents": ["1"]}]}
    yield "name-type", edit(lambda d: d["kernels"][0].__setitem__("name", 7))
    yield "exponents-type", edit(lambda d: d["kernels"][0]["spec_value"].__setitem__(
        "size_terms", [{"name": "N", "op": "min", "lhs": term, "rhs": term}]))
    yield "shape-type", edit(shape)
    yield "shape-range", edit(lambda d: d["kernels"][0]["spec_value"]["tensors"][0]["shape"].__setitem__(0, 5))
    yield "schema-type", edit(lambda d: d.__setitem__("schema", 1))
    for name, value in (("null", None), ("array", []), ("object", {})):
        yield "version-" + name, edit(lambda d, v=value: d.__setitem__("version", v))
    yield "version-99", edit(lambda d: d.__setitem__("version", 99))
    yield "version-wide", edit(lambda d: d.__setitem__("version", 4294967298))
    yield "divisor-zero", edit(lambda d: d["kernels"][1]["launch"]["sizes"][0].__setitem__("divisor", 0))
    yield "op-kind", edit(lambda d: d["kernels"][0]["spec_value"]["op"].__setitem__("kind", 11))
    yield "many-params", edit(many_params)


def main():
    recorded, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    doc = json.load(open(recorded))
    for name, d in cases(doc):
        with open(os.path.join(out, name + ".manifest.json"), "w") as f:
            json.dump(d, f)


if __name__ == "__main__":
    main()
