#!/usr/bin/env bash
# The GPU part, in one call on the device machine (an H200 lent through the `device` tool): runs over a
# tree built here (scripts/build-gpu.sh) and carried along, and writes logs and reports under $OUT.
#
#   ROOFLINT_BUILD_DIR=.carry/gpu ROOFLINT_MANIFESTS=.carry/manifests OUT=/some/dir \
#     bash scripts/gpu-job.sh [quick|full|levels|ncu-levels|inject|overhead|overhead3|processes|traffic|public|lines|corpus-lines|python|ceilings-per-gpu]
#   (carry .carry/gpu and .carry/manifests: build-gpu.sh)
#
# levels: the hierarchical roofline only (ceilings against their peers, the examples, ncu per level).
# inject: rooflint-verify -- program's overhead against ncu's on the example program only.
# overhead3: the same on three programs side by side: the example program, rooflint-example-large (a dozen
#   large kernels) and a Python program calling the PyTorch extension, with rooflint's time per phase.
# traffic: the analyzer's predicted traffic against the observed, per level (the traffic corpus program).
# public: the same on 114 public kernels (llm.c, cuda-samples, llama2.cu, flash-attention-minimal,
#   SGEMM_CUDA; tests/public_kernels/), built there by nvcc.
# lines: per-line traffic on the examples (--lines=all) beside ncu's per-line sectors, and rooflint-verify
#   --lines=failing over the example program beside the harness's lines (scripts/lines-agree.py).
# corpus-lines: per-line traffic of the traffic corpus's kernels (one rooflint-verify run per kernel)
#   beside ncu's per-line sectors (a few kernels per ncu run).
# python: PyTorch as the program: examples/torch_extension's run.py and run_workers.py under rooflint-verify.
# ceilings-per-gpu: the ceilings file of the card a case ran on judges it; another card's gives no verdict.
#
# Steps: device state; GPU tests; rooflint-ceilings (thorough and quick, timed); verification of every
# example with reports; ncu side by side for the traffic figures; the verifier's overhead against ncu;
# the ceilings against PyTorch (scripts/bench-ceilings.py). Never changes clocks, power or modes.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-full}
build=${ROOFLINT_BUILD_DIR:-build-gpu}
# The tests name files of the build tree by their absolute paths (the cubins they correlate, the tools
# they run): where only the carried copies came, in the same layout, build-gpu/ is made to point at them.
if [[ $build == .carry/gpu && ! -e build-gpu ]]; then ln -s .carry/gpu build-gpu; fi
OUT=${OUT:-out/gpu}
logs="$OUT/logs"
manifests=${ROOFLINT_MANIFESTS:-$build}
mkdir -p "$logs"
export PYTHONUNBUFFERED=1

section() { printf '\n===== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)" | tee -a "$OUT/summary.txt"; }
run() { local name=$1; shift; echo "+ $*" >"$logs/$name.log"; /usr/bin/time -f "wall %e s, max rss %M KB" "$@" >>"$logs/$name.log" 2>&1; local s=$?; echo "[$name] exit $s" | tee -a "$OUT/summary.txt"; return $s; }

# ncu side by side per level: the six counters the verifier reads for DRAM, L2 and L1, on the first three
# (cold) launches of each case's kernel, one ncu run per case; scripts/levels-vs-ncu.py sets their median
# beside the verifier's verify.json. The DRAM-write floor (the writes a read-only kernel shows after each
# tool's flush, docs/cupti.md §6) is measured in the same run by scripts/probes/l2-residue.sh.
level_metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
dram_write_floor() {
  local cc floor=0 f
  for cc in none all; do  # none: after rooflint's sweep (the probe runs it); all: after ncu's own flush
    NO_SPREAD=1 VARIANTS=ldcg3 CACHE_CONTROL=$cc OUT="$logs/residue-$cc" bash scripts/probes/l2-residue.sh \
        >"$logs/residue-$cc.log" 2>&1
    for f in $(grep -o 'DRAM writes *[0-9.]*' "$logs/residue-$cc.log" | awk '{print $3}'); do
      floor=$(python3 -c "print(max($floor, $f * 1e6))")
    done
  done
  echo "$floor"
}
ncu_levels() {
  mkdir -p "$logs/ncu-levels"
  local c k floor
  for ck in saxpy_n256M:saxpy transpose_naive_16K:transpose_naive gather_strided_n64M:gather_strided \
            sgemm_naive_n512:sgemm_naive sgemm_naive_rows_n4096:sgemm_naive_rows sgemm_tiled_n4096:sgemm_tiled; do
    c=${ck%%:*}; k=${ck#*:}
    timeout "${ROOFLINT_NCU_TIMEOUT:-60}" ncu --clock-control none --csv --page raw --print-units base --metrics "$level_metrics" -k "regex:^${k}\$" \
        --launch-count 3 "$build/examples/rooflint-examples" --filter "^${c}\$" --no-counters --lines=off --repetitions 3 \
        --warmup 0 --quiet >"$logs/ncu-levels/$c.csv" 2>"$logs/ncu-levels/$c.err"
  done
  floor=$(dram_write_floor)
  cat "$logs"/residue-*.log >>"$OUT/summary.txt"
  python3 scripts/levels-vs-ncu.py "$OUT/verify.json" "$logs/ncu-levels" "$logs/ncu-levels.txt" --dram-write-floor "$floor" >>"$OUT/summary.txt" 2>&1
  cat "$logs/ncu-levels.txt" >>"$1" 2>/dev/null
}

core_metrics=(dram__bytes_read.sum dram__bytes_write.sum gpu__time_duration.sum lts__t_bytes.sum lts__t_sectors_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_write.sum sm__cycles_elapsed.avg.per_second l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum)  # cupti::core_metrics()

# rooflint-verify's overhead against ncu on one program (docs/verifier.md): the program run for $3 and
# for $4 rounds (its last argument), each alone, under rooflint-verify measuring every annotated launch,
# and under ncu collecting the same core metrics with its own L2 flush on the same launches (-k: the
# manifests' kernels). Overhead = wall - the plain program's wall; its growth from the short run to the
# long one over the launches added is the cost per launch, the rest a fixed cost (start-up). The ratio:
# rooflint's overhead over ncu's, on the long run (target: $overhead_target, default 0.3). $2: a label for
# the logs; then the program and the arguments before the rounds. The manifests: $overhead_manifests
# (a file or a directory), default $manifests; $overhead_timeout, when set, stops each run after that
# many seconds. The figures also go to $logs/LABEL-overhead.json (the overhead3 table).
#   program_overhead SUMMARY LABEL SHORT LONG PROGRAM [ARGS...]
program_overhead() {
  local out=$1 label=$2 short=$3 long=$4 program=$5 kernels rounds mf=${overhead_manifests:-$manifests} limit=()
  shift 5
  [[ -n ${overhead_timeout:-} ]] && limit=(timeout "$overhead_timeout")
  kernels=$(python3 -c 'import json,glob,os,sys
p=sys.argv[1]
files=glob.glob(p+"/**/*.json",recursive=True) if os.path.isdir(p) else [p]
ks=[k for f in files for k in json.load(open(f)).get("kernels",[])]
names=sorted({n for k in ks for n in [k.get("mangled_name")]+[r.get("mangled_name") for r in ((k.get("region") or {}).get("kernels") or [])] if n})
print("|".join(names))' "$mf")
  for rounds in "$short" "$long"; do
    run "$label-plain-$rounds" ${limit[@]+"${limit[@]}"} "$program" "$@" "$rounds"
    run "$label-inject-$rounds" ${limit[@]+"${limit[@]}"} "$build/runtime/rooflint-verify" --manifest "$mf" --launches 1000 \
        --json "$logs/$label-inject-$rounds.json" -- "$program" "$@" "$rounds"
    run "$label-ncu-$rounds" ${limit[@]+"${limit[@]}"} ncu --clock-control none --cache-control all --kernel-name-base mangled \
        -k "regex:^(${kernels})\$" --metrics "$(IFS=,; echo "${core_metrics[*]}")" "$program" "$@" "$rounds"
  done
  python3 - "$logs" "$out" "$short" "$long" "$label" "${overhead_target:-0.3}" <<'PY'
import json, math, re, sys
logs, out, short, long_, label, target = sys.argv[1:7]
def wall(name):
    try:
        m = re.search(r"wall ([0-9.]+) s", open(f"{logs}/{name}.log").read())
    except OSError:
        m = None
    return float(m.group(1)) if m else float("nan")
def report(rounds):
    try:
        return json.load(open(f"{logs}/{label}-inject-{rounds}.json"))
    except (OSError, ValueError):
        return {}
def launches(tool, rounds):
    if tool == "ncu":
        try:
            return open(f"{logs}/{label}-ncu-{rounds}.log").read().count("==PROF== Profiling")
        except OSError:
            return 0
    return sum(k.get("launches_measured", 0) for k in report(rounds).get("kernels", []))
over, figures = {}, {"label": label, "short": int(short), "long": int(long_), "target": float(target)}
with open(out, "a") as f:
    for r in (short, long_):
        plain = wall(f"{label}-plain-{r}")
        figures[f"plain_{r}"] = plain
        print(f"{r} rounds: plain program {plain:.2f} s", file=f)
        for tool in ("inject", "ncu"):
            w, n = wall(f"{label}-{tool}-{r}"), launches(tool, r)
            over[tool, r] = (w - plain, n)
            print(f"  {'rooflint-verify' if tool == 'inject' else 'ncu (core metrics)':20s} wall {w:6.2f} s, overhead {w - plain:6.2f} s"
                  f" over {n} launches measured", file=f)
    for tool, what in (("inject", "rooflint-verify"), ("ncu", "ncu")):
        (o1, n1), (o2, n2) = over[tool, short], over[tool, long_]
        figures[tool] = {"overhead_s": o2, "launches": n2, "per_launch_s": None, "fixed_s": None}
        if n2 > n1:
            per = (o2 - o1) / (n2 - n1)
            figures[tool].update(per_launch_s=per, fixed_s=o1 - per * n1)
            print(f"{what:16s} {per * 1e3:6.1f} ms per launch, {o1 - per * n1:5.2f} s fixed (start-up)", file=f)
    theirs = over["ncu", long_][0]
    ratio = over["inject", long_][0] / theirs if theirs > 0 else float("nan")
    figures["ratio"] = ratio
    print(f"rooflint-verify's overhead is {ratio:.2f}x ncu's on {long_} rounds ({over['inject', long_][1]} launches; "
          f"target <= {target}x)", file=f)
# rooflint's own time per measured launch and phase on the long run, every process of the program together.
apis = [a for a in report(long_).get("launch_apis", []) if a.get("measured", 0) > 0]
measured = sum(a["measured"] for a in apis)
phases = {}
for a in apis:
    for phase, seconds in (a.get("rooflint_seconds") or {}).items():
        phases[phase] = phases.get(phase, 0.0) + seconds
figures["own_ms_per_launch"] = {p: 1e3 * s / measured for p, s in phases.items()} if measured else {}
json.dump(figures, open(f"{logs}/{label}-overhead.json", "w"), indent=1)
PY
  grep -h "own time" "$logs/$label"-inject-*.log >>"$out"
}

inject_overhead() { program_overhead "$1" overhead "$2" "$3" "$build/examples/program/rooflint-example-program" ""; }

# The bytes of every measured launch under two ways of counting (scripts/compare-inject.py).
compare_reports() { python3 scripts/compare-inject.py "$@" 2>&1; }

# overhead: the 50-launch program (rooflint-example-launches, the overhead figure) under
# rooflint-verify with batched counting (the default: a user range per window) against ncu, and the same
# launches counted with one profiling session per launch (ROOFLINT_INJECT_BATCH=0) and with auto-range
# batches (ROOFLINT_INJECT_RANGES=auto: every kernel of a batch a range); the per-launch bytes of each way beside the
# per-launch session's (scripts/compare-inject.py); the example program's verdicts against the harness's;
# the programs that fork, exit with kernels in flight and launch a CUDA graph.
if [[ $mode == overhead ]]; then
  section "device"
  nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.mem,power.draw,clocks_event_reasons.active --format=csv | tee -a "$OUT/summary.txt"
  launches_program="$build/examples/program/rooflint-example-launches"
  verify=("$build/runtime/rooflint-verify" --manifest "$manifests")
  section "overhead: rooflint-verify (batched) -- the 50-launch program against ncu (2 and 10 rounds)"
  program_overhead "$OUT/summary.txt" launches 2 10 "$launches_program"
  section "the 50 launches counted one profiling session per launch, and with auto-range batches"
  ROOFLINT_INJECT_BATCH=0 run launches-perlaunch-10 "${verify[@]}" --launches 1000 --json "$logs/launches-perlaunch-10.json" -- "$launches_program" 10
  ROOFLINT_INJECT_RANGES=auto run launches-auto-10 "${verify[@]}" --launches 1000 --json "$logs/launches-auto-10.json" -- "$launches_program" 10
  grep -h "own time\|^wall\|rounds, " "$logs"/launches-{perlaunch,auto,inject}-10.log | tee -a "$OUT/summary.txt"
  echo "--- per launch (A) against batched (B)" | tee -a "$OUT/summary.txt"
  compare_reports "$logs/launches-perlaunch-10.json" "$logs/launches-inject-10.json" | tee -a "$OUT/summary.txt"
  echo "--- per launch (A) against auto-range batches (B)" | tee -a "$OUT/summary.txt"
  compare_reports "$logs/launches-perlaunch-10.json" "$logs/launches-auto-10.json" | tail -1 | tee -a "$OUT/summary.txt"
  section "the example program: harness; rooflint-verify batched, per launch, auto-range batches"
  run harness "$build/examples/rooflint-examples" --repetitions 10 --json "$OUT/verify.json"
  program="$build/examples/program/rooflint-example-program"
  run inject-program "${verify[@]}" --json "$OUT/inject-program.json" -- "$program"
  ROOFLINT_INJECT_BATCH=0 run inject-program-perlaunch "${verify[@]}" --json "$logs/inject-program-perlaunch.json" -- "$program"
  ROOFLINT_INJECT_RANGES=auto run inject-program-auto "${verify[@]}" --json "$logs/inject-program-auto.json" -- "$program"
  grep -h "own time\|^wall\|all kernels ran\|FAILED" "$logs"/inject-program*.log | tee -a "$OUT/summary.txt"
  python3 scripts/verdicts-agree.py "$OUT/verify.json" "$OUT/inject-program.json" >"$OUT/inject-vs-harness.txt" 2>&1
  echo "verdicts-agree (harness vs batched): exit $?" | tee -a "$OUT/summary.txt"
  tail -1 "$OUT/inject-vs-harness.txt" | tee -a "$OUT/summary.txt"
  python3 scripts/verdicts-agree.py "$OUT/verify.json" "$logs/inject-program-perlaunch.json" >"$logs/perlaunch-vs-harness.txt" 2>&1
  echo "verdicts-agree (harness vs per launch): exit $?" | tee -a "$OUT/summary.txt"
  echo "--- per launch (A) against batched (B)" | tee -a "$OUT/summary.txt"
  compare_reports "$logs/inject-program-perlaunch.json" "$OUT/inject-program.json" | tee -a "$OUT/summary.txt"
  echo "--- per launch (A) against auto-range batches (B)" | tee -a "$OUT/summary.txt"
  compare_reports "$logs/inject-program-perlaunch.json" "$logs/inject-program-auto.json" | tail -1 | tee -a "$OUT/summary.txt"
  # One window alone, after the program's 1 GiB fill (the batches' DRAM-write excess of 2026-12-01).
  for v in perlaunch user auto; do
    case $v in perlaunch) e=ROOFLINT_INJECT_BATCH=0 ;; auto) e=ROOFLINT_INJECT_RANGES=auto ;; *) e=ROOFLINT_INJECT_BATCH=32 ;; esac
    env "$e" "${verify[@]}" --quiet --json "$logs/reduce-$v.json" -- "$program" reduce_sum >"$logs/reduce-$v.log" 2>&1
    python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["cases"][0]["measured"]["counters"]; print(sys.argv[2], "reduce_sum alone: DRAM read", c["dram_read_bytes"], "write", c["dram_write_bytes"])' \
        "$logs/reduce-$v.json" "$v" 2>&1 | tee -a "$OUT/summary.txt"
  done
  section "overhead: the example program (1 and 4 rounds), batched"
  inject_overhead "$OUT/summary.txt" 1 4
  section "a program that forks, one that exits with kernels in flight, one that launches a CUDA graph, one that frees memory the driver clears"
  for m in fork exit-in-flight graph frees; do
    run "edge-$m" "${verify[@]}" --json "$logs/edge-$m.json" -- "$build/examples/program/rooflint-example-edge" "$m"
    grep -v "^+ \|^remark: \(kernel\|region\) .* never launched\|^remark: region .* no complete\|^kernel .* seen 0\|^region .* seen 0" "$logs/edge-$m.log" >>"$OUT/summary.txt"
  done
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$logs"
  section "done"
  exit 0
fi

if [[ $mode == inject ]]; then
  section "device"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.draw,clocks_event_reasons.active --format=csv | tee -a "$OUT/summary.txt"
  section "overhead: rooflint-verify -- program against ncu (1 and 4 rounds of the example program)"
  inject_overhead "$OUT/summary.txt" 1 4
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$logs"
  section "done"
  exit 0
fi

# ceilings-per-gpu: which ceilings file judges a case, on the card at hand. The quick ceilings, and a copy
# of them under another card's UUID; the example program under rooflint-verify with both files (each case
# judged against this card's: the report's peaks name it) and with the other card's alone (no verdict:
# every measured case a rooflint-no-peaks error, exit 3).
if [[ $mode == ceilings-per-gpu ]]; then
  section "device"
  nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.mem --format=csv | tee -a "$OUT/summary.txt"
  run ceilings-quick timeout 120 "$build/runtime/rooflint-ceilings" --quick --output "$OUT/ceilings.json"
  python3 -c 'import json, sys; f = json.load(open(sys.argv[1])); f["device"]["uuid"] = "GPU-00000000-0000-0000-0000-000000000000"; json.dump(f, open(sys.argv[2], "w"), indent=1)' \
      "$OUT/ceilings.json" "$OUT/other-card.json"
  program=$build/examples/program/rooflint-example-program
  section "both files given: this card's applies"
  run both timeout 150 "$build/runtime/rooflint-verify" --manifest "$manifests" --ceilings "$OUT/other-card.json" \
      --ceilings "$OUT/ceilings.json" --json "$OUT/both.json" -- "$program"
  section "the other card's file alone: no verdict"
  run other timeout 150 "$build/runtime/rooflint-verify" --manifest "$manifests" --ceilings "$OUT/other-card.json" \
      --json "$OUT/other.json" -- "$program"
  for r in both other; do
    python3 - "$OUT/$r.json" <<'PY' | sed "s/^/$r: /" | tee -a "$OUT/summary.txt"
import collections, json, sys
run = json.load(open(sys.argv[1]))
print("peaks:", run["peaks"]["label"])
print("cases:", dict(collections.Counter(c["status"] for c in run["cases"])))
ids = collections.Counter(f["id"] for c in run["cases"] for f in c.get("findings", []) if f.get("severity") == "error")
print("errors:", dict(ids))
first = next((f["message"] for c in run["cases"] for f in c.get("findings", []) if f["id"] == "rooflint-no-peaks"), "")
print("first no-peaks:", first)
print("exit:", run.get("exit_code"))
PY
  done
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$logs"
  section "done"
  exit 0
fi

# overhead3: rooflint-verify's overhead against ncu's with the same core metrics (program_overhead) on
# three programs, one after another: the example program (every example kernel once a round at the
# harness's sizes, freeing GBs between them), rooflint-example-large (a dozen large kernels a round on
# buffers allocated once) and a Python program calling the PyTorch extension (examples/torch_extension/
# rounds.py: two small kernels a round; torch builds the extension first, as in `python`, outside the
# timed runs). Then one table: the plain program's wall, each tool's overhead on the long run, the
# ratio (target <= 0.2x) and rooflint's own time per measured launch by phase. Rounds, SHORT:LONG:
# ROOFLINT_OVERHEAD3_EXAMPLE (1:4), ROOFLINT_OVERHEAD3_LARGE (2:10), ROOFLINT_OVERHEAD3_PYTHON (10:100).
# No program starts after ROOFLINT_OVERHEAD3_BUDGET seconds (300); each run stops after 150 s.
if [[ $mode == overhead3 ]]; then
  section "device"
  nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.mem,power.draw,clocks_event_reasons.active --format=csv | tee -a "$OUT/summary.txt"
  ncu --version 2>&1 | tail -1 | tee -a "$OUT/summary.txt"
  overhead_target=0.2 overhead_timeout=150
  until=$((SECONDS + ${ROOFLINT_OVERHEAD3_BUDGET:-300}))  # no program starts after this
  labels=()
  r=${ROOFLINT_OVERHEAD3_EXAMPLE:-1:4}
  section "the example program (${r%%:*} and ${r##*:} rounds)"
  program_overhead "$OUT/summary.txt" example "${r%%:*}" "${r##*:}" "$build/examples/program/rooflint-example-program" ""
  labels+=(example)
  r=${ROOFLINT_OVERHEAD3_LARGE:-2:10}
  section "rooflint-example-large: a dozen large kernels a round (${r%%:*} and ${r##*:} rounds)"
  if ((SECONDS >= until)); then
    echo "budget spent: not run" | tee -a "$OUT/summary.txt"
  elif [[ ! -x $build/examples/program/rooflint-example-large ]]; then
    echo "no $build/examples/program/rooflint-example-large: not run" | tee -a "$OUT/summary.txt"
  else
    program_overhead "$OUT/summary.txt" large "${r%%:*}" "${r##*:}" "$build/examples/program/rooflint-example-large"
    labels+=(large)
  fi
  r=${ROOFLINT_OVERHEAD3_PYTHON:-10:100}
  section "python3 examples/torch_extension/rounds.py: the PyTorch extension's two kernels a round (${r%%:*} and ${r##*:} rounds)"
  python_manifest=${ROOFLINT_PYTHON_MANIFEST:-$manifests/torch_extension/kernels.rooflint.json}
  example=examples/torch_extension
  TORCH_EXTENSIONS_DIR=$(mktemp -d "${TMPDIR:-/tmp}/rooflint-torch-extensions.XXXXXX")
  export TORCH_EXTENSIONS_DIR ROOFLINT_INCLUDE=$PWD/dsl/include:$PWD/model/include
  if ((SECONDS >= until)); then
    echo "budget spent: not run" | tee -a "$OUT/summary.txt"
  elif [[ ! -s $python_manifest ]]; then
    echo "no manifest $python_manifest (ROOFLINT_PYTHON_MANIFEST): not run" | tee -a "$OUT/summary.txt"
  elif run python-build timeout 300 python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import run; run.build_extension(verbose=True)' "$example"; then
    grep -h "^wall" "$logs/python-build.log" | sed 's/^/the extension built by torch: /' | tee -a "$OUT/summary.txt"
    overhead_manifests=$python_manifest program_overhead "$OUT/summary.txt" python "${r%%:*}" "${r##*:}" python3 "$example/rounds.py"
    labels+=(python)
  else
    tail -5 "$logs/python-build.log" | tee -a "$OUT/summary.txt"
  fi
  rm -rf "$TORCH_EXTENSIONS_DIR"
  section "side by side: overhead on the long run, rooflint-verify against ncu (core metrics)"
  python3 - "$logs" "$overhead_target" "${labels[@]}" <<'PY' 2>&1 | tee -a "$OUT/summary.txt"
import json, math, sys
logs, target, labels = sys.argv[1], sys.argv[2], sys.argv[3:]
names = {"example": "example program", "large": "rooflint-example-large", "python": "python3 rounds.py (torch)"}
def seconds(v):
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.2f} s"
def per(t):
    return f"{t['per_launch_s'] * 1e3:.1f} ms/launch" if t.get("per_launch_s") is not None else "-"
print(f"{'program':26s} {'rounds':>6s} {'plain':>8s}   {'rooflint-verify overhead':34s} {'ncu overhead':34s} {'ratio':>6s}   rooflint's own time per measured launch (ms)")
for label in labels:
    try:
        f = json.load(open(f"{logs}/{label}-overhead.json"))
    except (OSError, ValueError) as e:
        print(f"{names.get(label, label):26s} no figures: {e}")
        continue
    i, n = f["inject"], f["ncu"]
    own = f.get("own_ms_per_launch") or {}
    phases = ", ".join(f"{p} {v:.1f}" for p, v in sorted(own.items(), key=lambda kv: -kv[1]) if v >= 0.05)
    ratio = f.get("ratio")
    ratio = "-" if ratio is None or math.isnan(ratio) else f"{ratio:.2f}x"
    print(f"{names.get(label, label):26s} {f['long']:6d} {seconds(f.get('plain_' + str(f['long']))):>8s}   "
          f"{seconds(i['overhead_s']) + ' over ' + str(i['launches']) + ', ' + per(i):34s} "
          f"{seconds(n['overhead_s']) + ' over ' + str(n['launches']) + ', ' + per(n):34s} {ratio:>6s}   "
          f"{sum(own.values()):.1f} ({phases})")
print(f"ratio: rooflint-verify's overhead over ncu's on the long run (target <= {target}x); "
      "launches: those each tool measured (ncu counts a region's kernels one by one); per launch: the overhead's growth from "
      "the short run to the long one over the launches added")
PY
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$logs"
  section "done"
  exit 0
fi

# processes: several processes of one program on one GPU (examples/program/concurrent.sh), as the workers
# of a training or serving job: the 10-launch program (2 rounds of 5 kernels) alone, as 2 and as 4
# processes, each under rooflint-verify measuring every launch; per run the launches seen and measured and
# the verdicts against the single process's. Then the CUDA graph program (a size launched only inside the
# graph could not be measured: exit 3), and the baseline gate: the program against its own earlier
# report (every case SAME), and against that report with one case's bytes halved (so the run moves 2x the
# baseline's bytes there: WORSE, the rest SAME).
if [[ $mode == processes ]]; then
  section "device"
  nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.mem,power.draw,clocks_event_reasons.active --format=csv | tee -a "$OUT/summary.txt"
  launches_program="$build/examples/program/rooflint-example-launches"
  verify=("$build/runtime/rooflint-verify" --manifest "$manifests" --launches 1000)
  section "one, two and four processes of the 10-launch program on one GPU"
  for n in 1 2 4; do
    run "processes-$n" "${verify[@]}" --json "$OUT/processes-$n.json" -- sh examples/program/concurrent.sh "$n" "$launches_program" 2
    grep -h "cases:\|launches seen\|own time\|not-measured\|^wall" "$logs/processes-$n.log" | grep -v " seen 0" | tee -a "$OUT/summary.txt"
  done
  python3 - "$OUT" <<'PY' 2>&1 | tee -a "$OUT/summary.txt"
import json, sys
out = sys.argv[1]
def cases(n):
    r = json.load(open(f"{out}/processes-{n}.json"))
    seen = sum(k["launches_seen"] for k in r["kernels"]); measured = sum(k["launches_measured"] for k in r["kernels"])
    return {c["name"]: c["status"] for c in r["cases"]}, seen, measured, len([a for a in r["launch_apis"] if a["measured"] > 0])
alone, _, _, _ = cases(1)
for n in (1, 2, 4):
    verdicts, seen, measured, processes = cases(n)
    same = sum(verdicts.get(k) == v for k, v in alone.items())
    print(f"{n} process(es): {processes} measured, launches seen {seen}, measured {measured}; "
          f"verdicts equal to the single process's: {same} of {len(alone)}")
PY
  section "a CUDA graph program: the size launched only inside the graph could not be measured"
  run edge-graph "${verify[@]}" --json "$logs/edge-graph.json" -- "$build/examples/program/rooflint-example-edge" graph
  grep -h "cases:\|not-measured\|graph" "$logs/edge-graph.log" | tee -a "$OUT/summary.txt"
  section "the baseline gate: the program against its own report, and against a report with one case's bytes halved"
  run gate-same "${verify[@]}" --baseline "$OUT/processes-1.json" --json "$OUT/gate-same.json" -- "$launches_program" 2
  python3 - "$OUT/processes-1.json" "$logs/halved.json" <<'PY' 2>&1 | tee -a "$OUT/summary.txt"
import json, sys
r = json.load(open(sys.argv[1]))
c = next(c for c in r["cases"] if c["compared"].get("levels"))
for l in c["compared"]["levels"]:
    for k in ("bytes", "read_bytes", "write_bytes"): l[k] = l[k] / 2
json.dump(r, open(sys.argv[2], "w"))
print(f"baseline with the bytes of '{c['name']}' halved at every level")
PY
  run gate-worse "${verify[@]}" --baseline "$logs/halved.json" --json "$OUT/gate-worse.json" -- "$launches_program" 2
  for g in same worse; do
    python3 - "$OUT/gate-$g.json" "gate-$g" <<'PY' 2>&1 | tee -a "$OUT/summary.txt"
import json, sys
r = json.load(open(sys.argv[1]))
print(sys.argv[2] + ": exit", r["exit_code"])
for b in r["baseline"]:
    levels = ", ".join(f"{l['level']} {1 + l['change']:.3f}x (band {100 * l['band']:.0f}%)" for l in b["levels"])
    print(f"  {b['verdict']:9s} {b['name']}: {levels}; fraction {100 * b['new_roofline_fraction']:.1f}% vs "
          f"{100 * b['old_roofline_fraction']:.1f}% (band {100 * b['noise_band']:.1f}%)")
PY
  done
  section "done"
  exit 0
fi

# python: PyTorch as the program (docs/python.md). torch builds examples/torch_extension (binding.cpp and
# kernels.cu) here with nvcc; the manifest of kernels.cu comes from the build machine (build-gpu.sh:
# $manifests/torch_extension/kernels.rooflint.json, or $ROOFLINT_PYTHON_MANIFEST). The quick ceilings
# give L1 and L2 their roofs; then run.py, and run_workers.py (two workers spawned with
# torch.multiprocessing on this one GPU), each under rooflint-verify with a JSON report into $OUT and the
# text report in the summary. torch's build of the extension goes to a scratch directory outside $OUT.
if [[ $mode == python ]]; then
  section "device"
  nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.mem,power.draw,clocks_event_reasons.active --format=csv | tee -a "$OUT/summary.txt"
  { python3 -c 'import torch; print("torch", torch.__version__, "built for CUDA", torch.version.cuda, "| GPU:", torch.cuda.is_available())' 2>&1 | tail -1
    nvcc --version 2>&1 | tail -2 | head -1
    if command -v ninja >/dev/null; then echo "ninja $(ninja --version)"; else echo "no ninja on PATH (torch.utils.cpp_extension.load needs it)"; fi
  } | tee -a "$OUT/summary.txt"
  manifest=${ROOFLINT_PYTHON_MANIFEST:-$manifests/torch_extension/kernels.rooflint.json}
  example=examples/torch_extension
  TORCH_EXTENSIONS_DIR=$(mktemp -d "${TMPDIR:-/tmp}/rooflint-torch-extensions.XXXXXX")
  export TORCH_EXTENSIONS_DIR ROOFLINT_INCLUDE=$PWD/dsl/include:$PWD/model/include
  section "ceilings (quick)"
  run ceilings-quick "$build/runtime/rooflint-ceilings" --quick --output "$OUT/ceilings.json"
  tail -2 "$logs/ceilings-quick.log" >>"$OUT/summary.txt"
  verify=("$build/runtime/rooflint-verify" --manifest "$manifest" --timeout 240)
  [[ -s $OUT/ceilings.json ]] && verify+=(--ceilings "$OUT/ceilings.json")
  section "build the extension (torch.utils.cpp_extension.load), outside rooflint-verify"
  run python-build python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import run; run.build_extension(verbose=True)' "$example"
  tail -3 "$logs/python-build.log" >>"$OUT/summary.txt"
  section "rooflint-verify -- python3 run.py"
  run python-run "${verify[@]}" --json "$OUT/python-run.json" -- python3 "$example/run.py"
  grep -v '^+ ' "$logs/python-run.log" >>"$OUT/summary.txt"
  section "rooflint-verify -- python3 run_workers.py (two spawned workers on one GPU)"
  run python-workers "${verify[@]}" --json "$OUT/python-workers.json" -- python3 "$example/run_workers.py"
  grep -v '^+ ' "$logs/python-workers.log" >>"$OUT/summary.txt"
  rm -rf "$TORCH_EXTENSIONS_DIR"
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$logs"
  section "done"
  exit 0
fi

# traffic: the analyzer's predicted traffic per level (manifest version 4) against the counters', on the
# traffic corpus's program (tests/analyzer/traffic_corpus/program.cu) and the example program. The
# corpus's manifest: $ROOFLINT_TRAFFIC_MANIFEST (default: $manifests/traffic_corpus.rooflint.json).
if [[ $mode == traffic ]]; then
  section "device"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.draw,clocks_event_reasons.active --format=csv | tee -a "$OUT/summary.txt"
  corpus=$build/tests/analyzer/rooflint-traffic-corpus
  section "rooflint-verify -- the traffic corpus program"
  run traffic-corpus timeout "${ROOFLINT_TRAFFIC_TIMEOUT:-100}" "$build/runtime/rooflint-verify" --manifest "${ROOFLINT_TRAFFIC_MANIFEST:-$manifests/traffic_corpus.rooflint.json}" \
      --json "$OUT/traffic-corpus.json" --svg "$OUT/traffic-corpus.svg" -- "$corpus"
  cat "$logs/traffic-corpus.log" >>"$OUT/summary.txt"
  reports=("$OUT/traffic-corpus.json")
  if [[ -x $build/examples/program/rooflint-example-program && ${ROOFLINT_TRAFFIC_EXAMPLES:-1} == 1 ]]; then
    section "rooflint-verify -- the example program"
    run traffic-examples timeout "${ROOFLINT_TRAFFIC_TIMEOUT:-100}" "$build/runtime/rooflint-verify" --manifest "$manifests" \
        --json "$OUT/traffic-examples.json" --svg "$OUT/traffic-examples.svg" -- "$build/examples/program/rooflint-example-program"
    cat "$logs/traffic-examples.log" >>"$OUT/summary.txt"
    reports+=("$OUT/traffic-examples.json")
  fi
  section "predicted against observed per level"
  python3 scripts/traffic-vs-observed.py "$OUT/predicted-vs-observed.txt" "${reports[@]}" --manifest "$manifests" \
      --manifest "${ROOFLINT_TRAFFIC_MANIFEST:-$manifests/traffic_corpus.rooflint.json}" >>"$OUT/summary.txt" 2>&1
  for f in "$OUT"/*; do
    case $(basename "$f") in
      summary.txt|predicted-vs-observed.txt|traffic-corpus.json|traffic-corpus.svg|traffic-examples.json|traffic-examples.svg|logs) ;;
      *) mv "$f" "$logs/" ;;
    esac
  done
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$logs"
  section "done"
  exit 0
fi

# public: the public kernels (tests/public_kernels/README.md): each wrapper built here by nvcc
# (scripts/public-kernels.sh build, into build-public/), run under rooflint-verify with the manifests the
# build machine made (scripts/public-kernels.sh analyze: .carry/public/manifests, or
# $ROOFLINT_PUBLIC_MANIFESTS), then the predictions against the counters per kernel and level. Carry
# .carry/public (the public sources and the manifests) beside the tools.
if [[ $mode == public ]]; then
  section "device"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.draw,clocks_event_reasons.active --format=csv | tee -a "$OUT/summary.txt"
  public_manifests=${ROOFLINT_PUBLIC_MANIFESTS:-.carry/public/manifests}
  section "build the wrappers (nvcc, in parallel)"
  rm -rf build-public  # a wrapper that no longer builds must not leave its old executable
  ROOFLINT_PUBLIC_JOBS=${ROOFLINT_PUBLIC_JOBS:-8} run public-build bash scripts/public-kernels.sh build build-public
  grep -c ": exit 0$" "$logs/public-build.log" | sed 's/$/ wrappers built/' | tee -a "$OUT/summary.txt"
  grep ": exit [1-9]" "$logs/public-build.log" | tee -a "$OUT/summary.txt"
  cp build-public/*.log "$logs/" 2>/dev/null
  section "rooflint-verify -- each wrapper"
  reports=()
  for exe in build-public/*; do
    [[ -f $exe && -x $exe ]] || continue
    n=$(basename "$exe")
    # The wrapper's own manifest: the report then names only its kernels (the others are never launched).
    run "public-$n" timeout "${ROOFLINT_PUBLIC_TIMEOUT:-150}" "$build/runtime/rooflint-verify" \
        --manifest "$public_manifests/$n.rooflint.json" --json "$OUT/public-$n.json" -- "$exe"
    [[ -s $OUT/public-$n.json ]] && reports+=("$OUT/public-$n.json")
  done
  section "predicted against observed per level"
  python3 scripts/traffic-vs-observed.py "$OUT/public-predicted-vs-observed.txt" ${reports[@]+"${reports[@]}"} \
      --manifest "$public_manifests" >"$logs/public-compare.log" 2>&1
  echo "[public-compare] exit $?" | tee -a "$OUT/summary.txt"
  grep -h "^kernels of the manifests that no report\|^(kernel, level) pairs" "$OUT/public-predicted-vs-observed.txt" | tee -a "$OUT/summary.txt"
  # At most 8 files come back: the table, the summary, and the reports and logs in one archive.
  mv "$OUT"/public-*.json "$logs/" 2>/dev/null
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$logs"
  section "done"
  exit 0
fi

# lines: per-line traffic (docs/verifier.md, "Per-line traffic"): the examples under --lines=all with the
# analyzer's manifests (their predicted accesses), the same run with --lines=off (what the pass adds to the
# total), rooflint-verify --lines=failing over the example program (its lines against the harness's), and ncu's L2 theoretical sectors of global memory per CUDA source line (SourceCounters, the
# source page) on the first launch of each case's kernel; scripts/lines-vs-ncu.py sets both side by side
# per (file, line). ncu reads the sources at the paths the binary's line table names:
# ROOFLINT_SOURCE_ROOT (the tree the binaries were built from) is linked to this tree when it is absent.
if [[ $mode == lines ]]; then
  section "device"
  nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.mem,power.draw,clocks_event_reasons.active --format=csv | tee -a "$OUT/summary.txt"
  ncu --version 2>&1 | tail -1 | tee -a "$OUT/summary.txt"
  root=${ROOFLINT_SOURCE_ROOT:-}
  if [[ -n $root && ! -e $root ]]; then mkdir -p "$(dirname "$root")" && ln -s "$PWD" "$root"; fi
  examples=("$build/examples/rooflint-examples" --repetitions 10 --no-fp-counters)
  section "verify the examples with per-line traffic (--lines=all) and without (--lines=off)"
  run lines-on timeout 200 "${examples[@]}" --lines=all --manifest "$manifests" --json "$OUT/lines.json"
  run lines-off timeout 120 "${examples[@]}" --lines=off --json "$logs/lines-off.json"
  cp "$logs/lines-on.log" "$OUT/lines.txt"
  grep -h "per-line traffic" "$logs/lines-on.log" | grep -E "^[a-z-]+: \[" | tee -a "$OUT/summary.txt"
  for l in on off; do echo "--lines=$l: $(grep -h '^wall' "$logs/lines-$l.log")" | tee -a "$OUT/summary.txt"; done
  # rooflint-verify -- program: the example program's failing cases, one rerun of the program each under
  # the injection library's lines mode; their observed lines against the harness's of the same cases.
  program="$build/examples/program/rooflint-example-program"
  if [[ -x $build/runtime/rooflint-verify && -x $program ]]; then
    section "rooflint-verify --lines=failing -- the example program (a rerun per failing case)"
    run lines-program timeout 300 "$build/runtime/rooflint-verify" --manifest "$manifests" --lines=failing \
        --json "$OUT/lines-program.json" -- "$program"
    cp "$logs/lines-program.log" "$OUT/lines-program.txt"
    grep -h "per-line traffic of" "$logs/lines-program.log" | tee -a "$OUT/summary.txt"
    echo "--lines=failing over the program: $(grep -h '^wall' "$logs/lines-program.log")" | tee -a "$OUT/summary.txt"
    python3 scripts/lines-agree.py "$OUT/lines.json" "$OUT/lines-program.json" >"$OUT/lines-program-vs-harness.txt" 2>&1
    echo "[lines-agree] exit $?" | tee -a "$OUT/summary.txt"
    tail -1 "$OUT/lines-program-vs-harness.txt" | tee -a "$OUT/summary.txt"
  fi
  section "ncu per CUDA source line (SourceCounters) on the same kernels"
  mkdir -p "$logs/ncu-lines"
  python3 -c 'import json,sys
for c in json.load(open(sys.argv[1]))["cases"]:
    if (c.get("lines") or {}).get("collected"): print(c["name"], c["kernel"])' "$OUT/lines.json" >"$logs/lines-cases.txt"
  ncu_until=$((SECONDS + ${ROOFLINT_NCU_BUDGET:-240}))  # no new ncu run after this many seconds
  while read -r c k; do
    if ((SECONDS >= ncu_until)); then echo "ncu: budget spent, $c and later cases not run" | tee -a "$OUT/summary.txt"; break; fi
    timeout "${ROOFLINT_NCU_TIMEOUT:-60}" ncu --clock-control none --section SourceCounters --import-source yes \
        -k "regex:^${k}\$" --launch-count 1 -f -o "$logs/ncu-lines/$c" "$build/examples/rooflint-examples" \
        --filter "^${c}\$" --no-counters --lines=off --repetitions 1 --warmup 0 --quiet >"$logs/ncu-lines/$c.log" 2>&1
    # ncu 2025.3.1: --print-source cuda prints the source alone; cuda,sass gives each source line's
    # figures on its line row (then the line's SASS rows).
    ncu -i "$logs/ncu-lines/$c.ncu-rep" --page source --csv --print-source cuda,sass >"$logs/ncu-lines/$c.cuda-sass.csv" 2>"$logs/ncu-lines/$c.err"
  done <"$logs/lines-cases.txt"
  python3 scripts/lines-vs-ncu.py "$OUT/lines.json" "$logs/ncu-lines" --output "$OUT/lines-vs-ncu.txt" >>"$logs/lines-vs-ncu.log" 2>&1
  echo "[lines-vs-ncu] exit $?" | tee -a "$OUT/summary.txt"
  tail -1 "$OUT/lines-vs-ncu.txt" | tee -a "$OUT/summary.txt"
  rm -f "$logs"/ncu-lines/*.ncu-rep
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$logs"
  section "done"
  exit 0
fi

# corpus-lines: per-line traffic of the traffic corpus's kernels (tests/analyzer/traffic_corpus) beside
# ncu's per-line sectors, as `lines` does for the examples. rooflint-verify --lines=all over the whole
# corpus program would rerun all of it once per case: instead each kernel K of the corpus's manifest
# ($ROOFLINT_TRAFFIC_MANIFEST, default $manifests/traffic_corpus.rooflint.json) gets a run of its own,
# `rooflint-verify --lines=all -- rooflint-traffic-corpus =K` (the program's filter: K's cases alone, so
# the measured run and the rerun launch K only), one JSON report per kernel, while
# ROOFLINT_CORPUS_LINES_BUDGET seconds last. Then ncu's SourceCounters on the kernels whose lines were
# collected, cheapest first (their rerun's cost), a few kernels per ncu process (one run of the program
# with those kernels' cases; ROOFLINT_CORPUS_NCU_GROUP at most, about ROOFLINT_CORPUS_NCU_GROUP_S seconds
# of reruns), while ROOFLINT_NCU_BUDGET lasts; each report's source page is exported once for all its
# kernels, and once per kernel (-k on import) for those that export does not tell apart.
# scripts/lines-vs-ncu.py sets both side by side per (file, line) and counts the per-line rows against
# the analyzer's prediction. ROOFLINT_CORPUS_PART=i/n takes every n-th kernel from the i-th (the corpus
# in n calls). ncu reads the sources at the paths of the binary's line table: ROOFLINT_SOURCE_ROOT, else
# the root that rooflint's observed lines name, is linked to this tree when it is absent.
# ROOFLINT_CORPUS_KERNELS="a b": those kernels of the corpus only.
if [[ $mode == corpus-lines ]]; then
  section "device"
  nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.mem,power.draw,clocks_event_reasons.active --format=csv | tee -a "$OUT/summary.txt"
  ncu --version 2>&1 | tail -1 | tee -a "$OUT/summary.txt"
  corpus=$build/tests/analyzer/rooflint-traffic-corpus
  manifest=${ROOFLINT_TRAFFIC_MANIFEST:-$manifests/traffic_corpus.rooflint.json}
  kernel_reports="$logs/corpus-lines" ncu_dir="$logs/ncu-corpus"
  mkdir -p "$kernel_reports" "$ncu_dir"
  if [[ ! -s $manifest || ! -x $corpus ]]; then
    echo "corpus-lines needs $corpus and the corpus's manifest $manifest (ROOFLINT_TRAFFIC_MANIFEST): not there" | tee -a "$OUT/summary.txt"
    tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$logs"
    exit 1
  fi
  python3 - "$manifest" "${ROOFLINT_CORPUS_PART:-1/1}" "${ROOFLINT_CORPUS_KERNELS:-}" >"$logs/corpus-kernels.txt" <<'PY'
import json, sys
i, n = (int(v) for v in sys.argv[2].split("/"))
wanted = set(sys.argv[3].replace(",", " ").split())
kernels = [k for k in json.load(open(sys.argv[1]))["kernels"]
           if k.get("mangled_name") and (not wanted or k["name"] in wanted)]  # regions have no mangled name
for j, k in enumerate(kernels):
    if j % n == i - 1:
        print(k["name"])
PY
  echo "$(wc -l <"$logs/corpus-kernels.txt") kernels of $manifest (part ${ROOFLINT_CORPUS_PART:-1/1})" | tee -a "$OUT/summary.txt"

  section "rooflint-verify --lines=all -- rooflint-traffic-corpus =K, one run per kernel"
  until=$((SECONDS + ${ROOFLINT_CORPUS_LINES_BUDGET:-210}))  # no new run after this
  while read -r k <&3; do
    if ((SECONDS >= until)); then
      echo "rooflint-verify: budget spent, $k and the $(($(wc -l <"$logs/corpus-kernels.txt") - $(find "$kernel_reports" -name '*.log' | wc -l) - 1)) kernels after it not run" | tee -a "$OUT/summary.txt"
      break
    fi
    # stdin from /dev/null: the loop reads the kernels' list on fd 3, which the program must not take.
    /usr/bin/time -f "wall %e s" timeout 120 "$build/runtime/rooflint-verify" --manifest "$manifest" --lines=all --timeout 60 \
        --json "$kernel_reports/$k.json" -- "$corpus" "=$k" </dev/null >"$kernel_reports/$k.log" 2>&1
    echo "exit $?" >>"$kernel_reports/$k.log"
  done 3<"$logs/corpus-kernels.txt"
  python3 - "$kernel_reports" <<'PY' 2>&1 | tee -a "$OUT/summary.txt"
import collections, glob, json, os, re, sys
runs = sorted(glob.glob(sys.argv[1] + "/*.log"))
wall = collected = 0.0
why, exits = collections.Counter(), collections.Counter()
for log in runs:
    text = open(log, errors="replace").read()
    m = re.search(r"^wall ([0-9.]+) s", text, re.M)
    wall += float(m.group(1)) if m else 0
    exits[(re.findall(r"^exit (\d+)", text, re.M) or ["?"])[-1]] += 1
    try:
        cases = json.load(open(log[:-4] + ".json")).get("cases", [])
    except (OSError, ValueError):
        why["no report"] += 1
        continue
    lines = [c.get("lines") or {} for c in cases]
    if any(l.get("collected") for l in lines):
        collected += 1
    elif not cases:
        why["no case measured (not launched by the program?)"] += 1
    else:
        why[next((l.get("not_available") for l in lines if l.get("not_available")), "no lines object")[:100]] += 1
print(f"rooflint-verify: {len(runs)} kernels run in {wall:.0f} s (exit codes {dict(exits)}): per-line traffic of "
      f"{collected:.0f}; without: {sum(why.values())}")
for reason, n in why.most_common():
    print(f"  {n:3d} {reason}")
PY

  # ncu opens the sources at the paths the binary's line table names (those rooflint observed).
  root=${ROOFLINT_SOURCE_ROOT:-}
  if [[ -z $root ]]; then
    root=$(python3 - "$kernel_reports" <<'PY'
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    try:
        cases = json.load(open(f)).get("cases", [])
    except ValueError:
        continue
    for o in (o for c in cases for o in (c.get("lines") or {}).get("observed") or []):
        i = o["file"].find("/tests/analyzer/traffic_corpus/")
        if i > 0:
            print(o["file"][:i])
            sys.exit()
PY
    )
  fi
  if [[ -n $root && ! -e $root ]]; then mkdir -p "$(dirname "$root")" && ln -s "$PWD" "$root"; fi
  echo "sources for ncu: ${root:-(not known)} -> $(readlink -f "${root:-.}")" | tee -a "$OUT/summary.txt"

  section "ncu per CUDA source line (SourceCounters) on the kernels with per-line traffic"
  # Groups of kernels, cheapest rerun first: a group's ncu run is lost when it runs past its time, and
  # the budget then leaves out the costliest kernels, not the many cheap ones.
  python3 - "$kernel_reports" "$manifest" "${ROOFLINT_CORPUS_NCU_GROUP:-12}" "${ROOFLINT_CORPUS_NCU_GROUP_S:-10}" >"$ncu_dir/groups.txt" <<'PY'
import glob, json, os, sys
reports, manifest, most, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
spec = {k["name"]: k for k in json.load(open(manifest))["kernels"]}
kernels = []
for f in glob.glob(reports + "/*.json"):
    try:
        cases = json.load(open(f)).get("cases", [])
    except ValueError:
        continue
    done = [c for c in cases if (c.get("lines") or {}).get("collected") and c.get("kernel") in spec]
    if done:
        kernels.append((max((c["lines"].get("cost_s") or 0) for c in done), done[0]["kernel"]))
groups, cost = [[]], 0.0
for s, k in sorted(kernels):
    if groups[-1] and (len(groups[-1]) >= most or cost + s > seconds):
        groups.append([])
        cost = 0.0
    groups[-1].append(k)
    cost += s
for g in (g for g in groups if g):
    # the program's filter, ncu's kernel filter (mangled names), the spec names, the functions' own names
    function = lambda k: spec[k].get("function", k).split("::")[-1] or k
    print("|".join("=" + k for k in g), "|".join(spec[k]["mangled_name"] for k in g), " ".join(g),
          " ".join(function(k) for k in g), sep="\t")
PY
  echo "$(wc -l <"$ncu_dir/groups.txt") ncu runs for $(cut -f3 "$ncu_dir/groups.txt" | wc -w) kernels" | tee -a "$OUT/summary.txt"
  ncu_until=$((SECONDS + ${ROOFLINT_NCU_BUDGET:-120}))  # no new ncu run after this
  g=0 profiled=0
  while IFS=$'\t' read -r filter regex names functions <&3; do
    read -ra names <<<"$names"
    read -ra functions <<<"$functions"
    left=$((ncu_until - SECONDS))
    if ((left <= 0)); then echo "ncu: budget spent, ${#names[@]} kernels from ${names[0]} on and later groups not run" | tee -a "$OUT/summary.txt"; break; fi
    g=$((g + 1)) rep="$ncu_dir/group-$g"
    # At most the budget left and 30 s more: a group past it is lost, the job's time is not.
    group_limit=$((left + 30 < ${ROOFLINT_NCU_TIMEOUT:-120} ? left + 30 : ${ROOFLINT_NCU_TIMEOUT:-120}))
    /usr/bin/time -f "wall %e s" timeout "$group_limit" ncu --clock-control none --section SourceCounters --import-source yes \
        --kernel-name-base mangled -k "regex:^(${regex})\$" -f -o "$rep" "$corpus" "$filter" </dev/null >"$rep.log" 2>&1
    s=$?
    if [[ ! -s $rep.ncu-rep ]]; then
      echo "ncu group $g (${names[*]}): exit $s, no report" | tee -a "$OUT/summary.txt"
      continue
    fi
    profiled=$((profiled + ${#names[@]}))
    # ncu 2025.3.1: --print-source cuda prints the source alone; cuda,sass gives each source line's
    # figures on its line row (then the line's SASS rows).
    ncu -i "$rep.ncu-rep" --page source --csv --print-source cuda,sass >"$rep.all-kernels.csv" 2>"$rep.err"
    apart=$(python3 scripts/lines-vs-ncu.py --sections --manifest "$manifest" "$rep.all-kernels.csv" 2>>"$rep.err")
    for i in "${!names[@]}"; do
      grep -qxF "${names[i]}" <<<"$apart" && continue
      ncu -i "$rep.ncu-rep" -k "regex:^${functions[i]}\$" --page source --csv --print-source cuda,sass \
          >"$ncu_dir/${names[i]}.cuda-sass.csv" 2>>"$rep.err"
    done
    echo "ncu group $g: ${#names[@]} kernels, exit $s, $(grep -h '^wall' "$rep.log"); $(grep -c . <<<"$apart") told apart in one export" | tee -a "$OUT/summary.txt"
  done 3<"$ncu_dir/groups.txt"
  echo "ncu: $profiled kernels profiled in $g runs" | tee -a "$OUT/summary.txt"
  python3 scripts/lines-vs-ncu.py "$kernel_reports" "$ncu_dir" --manifest "$manifest" --output "$OUT/corpus-lines-vs-ncu.txt" >>"$logs/lines-vs-ncu.log" 2>&1
  echo "[lines-vs-ncu] exit $?" | tee -a "$OUT/summary.txt"
  tail -2 "$OUT/corpus-lines-vs-ncu.txt" | tee -a "$OUT/summary.txt"
  rm -f "$ncu_dir"/*.ncu-rep
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$logs"
  section "done"
  exit 0
fi

# ncu-levels: only ncu per level beside a verify.json of an earlier run ($ROOFLINT_VERIFY_JSON) on the
# same machine kind.
if [[ $mode == ncu-levels ]]; then
  cp "${ROOFLINT_VERIFY_JSON:?the harness report to compare with}" "$OUT/verify.json"
  section "ncu side by side per level"
  ncu_levels "$OUT/ncu-levels.txt"
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$logs"
  section "done"
  exit 0
fi

if [[ $mode == levels ]]; then
  section "device"
  nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu,persistence_mode,ecc.mode.current,clocks_event_reasons.active --format=csv | tee -a "$OUT/summary.txt"
  section "ceilings against their peers (thorough and quick, torch in the same run)"
  timeout 170 python3 scripts/bench-ceilings.py --rooflint "$build/runtime/rooflint-ceilings" --output "$OUT/bench-ceilings.txt" \
      --workdir "$logs" >"$logs/bench-ceilings.log" 2>&1
  echo "[bench-ceilings] exit $?" | tee -a "$OUT/summary.txt"
  cp "$logs/ceilings-thorough.json" "$OUT/ceilings.json" 2>/dev/null || cp "$logs/ceilings-quick.json" "$OUT/ceilings.json" 2>/dev/null ||
    run ceilings-quick timeout 60 "$build/runtime/rooflint-ceilings" --quick --output "$OUT/ceilings.json"
  section "verify the examples (binding level per case)"
  run verify timeout 150 "$build/examples/rooflint-examples" --ceilings "$OUT/ceilings.json" --json "$OUT/verify.json" \
      --junit "$OUT/verify.junit.xml" --svg "$OUT/roofline.svg" --repetitions 10 --no-fp-counters
  cat "$logs/verify.log" >>"$OUT/summary.txt"
  section "ncu side by side per level"
  ncu_levels "$OUT/ncu-levels.txt"
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$logs"
  section "done"
  exit 0
fi

section "device"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu,persistence_mode,ecc.mode.current,clocks_event_reasons.active --format=csv | tee -a "$OUT/summary.txt"

section "GPU tests"
for t in "$build"/tests/*/rooflint_*_tests; do
  [[ -x $t ]] || continue
  run "test-$(basename "$t")" "$t" --gtest_brief=1
  tail -3 "$logs/test-$(basename "$t").log" >>"$OUT/summary.txt"
done
# CTest's GPU tests over the example programs (build-gpu.sh writes them with carried paths).
if [[ -f $build/gpu-ctests.sh ]]; then
  run gpu-ctests bash "$build/gpu-ctests.sh" "$logs/gpu-ctests"
  grep -E "^(passed|FAILED|[0-9]+ failed)" "$logs/gpu-ctests.log" >>"$OUT/summary.txt"
fi

section "ceilings"
run ceilings-quick "$build/runtime/rooflint-ceilings" --quick --output "$OUT/ceilings-quick.json"
tail -2 "$logs/ceilings-quick.log" >>"$OUT/summary.txt"
if [[ $mode == full ]]; then
  run ceilings "$build/runtime/rooflint-ceilings" --thorough --output "$OUT/ceilings.json"
else
  cp "$OUT/ceilings-quick.json" "$OUT/ceilings.json"
fi
cat "$logs/ceilings"*.log >>"$OUT/summary.txt"

section "verify the examples"
run verify "$build/examples/rooflint-examples" --ceilings "$OUT/ceilings.json" --json "$OUT/verify.json" \
    --junit "$OUT/verify.junit.xml" --svg "$OUT/roofline.svg"
cat "$logs/verify.log" >>"$OUT/summary.txt"

# ----- rooflint-verify -- program: unmodified programs through CUPTI injection (docs/verifier.md) -----
# Needs the analyzer's manifests (version 2), which the device machine cannot make (no clang): carry
# them and point ROOFLINT_MANIFESTS at them (default: the build tree).
if [[ -x $build/runtime/rooflint-verify && -x $build/examples/program/rooflint-example-program ]]; then
  section "rooflint-verify -- the plain example program"
  run inject-program "$build/runtime/rooflint-verify" --manifest "$manifests" --ceilings "$OUT/ceilings.json" \
      --json "$OUT/inject-program.json" -- "$build/examples/program/rooflint-example-program"
  cat "$logs/inject-program.log" >>"$OUT/summary.txt"
  # The same verdicts as the harness for every example, regions included.
  if [[ -f $OUT/verify.json && -f $OUT/inject-program.json ]]; then
    python3 scripts/verdicts-agree.py "$OUT/verify.json" "$OUT/inject-program.json" >"$OUT/inject-vs-harness.txt" 2>&1 || true
    cat "$OUT/inject-vs-harness.txt" >>"$OUT/summary.txt"
  fi
  if [[ -x $build/examples/program/rooflint-example-gtests ]]; then
    section "rooflint-verify -- the GoogleTest binary of the example kernels"
    run inject-gtests "$build/runtime/rooflint-verify" --manifest "$manifests" --ceilings "$OUT/ceilings.json" \
        --json "$OUT/inject-gtests.json" -- "$build/examples/program/rooflint-example-gtests"
    cat "$logs/inject-gtests.log" >>"$OUT/summary.txt"
  fi
fi

if [[ $mode == full ]]; then
  section "ncu side by side (dram__bytes_read.sum, dram__bytes_write.sum)"
  run ncu-examples ncu --clock-control none --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
      "$build/examples/rooflint-examples" --no-counters --lines=off --repetitions 1
  grep -E "^  [a-z_]|dram__|gpu__time" "$logs/ncu-examples.log" | head -200 >"$OUT/ncu.txt"

  section "ncu side by side per level"
  ncu_levels "$OUT/ncu.txt"

  section "overhead: verifier vs ncu on the same program"
  run overhead-verifier "$build/examples/rooflint-examples" --repetitions 1 --lines=off
  run overhead-ncu ncu --clock-control none --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_bytes.sum \
      "$build/examples/rooflint-examples" --no-counters --lines=off --repetitions 1
  grep -h "^wall" "$logs"/overhead-*.log | tee -a "$OUT/summary.txt"
  section "overhead: rooflint-verify -- program against ncu (1 and 4 rounds of the example program)"
  inject_overhead "$OUT/summary.txt" 1 4

  section "ceilings against PyTorch"
  python3 scripts/bench-ceilings.py --rooflint "$build/runtime/rooflint-ceilings" --output "$OUT/bench-ceilings.txt" \
      >"$logs/bench-ceilings.log" 2>&1
  cat "$OUT/bench-ceilings.txt" >>"$OUT/summary.txt" 2>/dev/null || tail -20 "$logs/bench-ceilings.log" >>"$OUT/summary.txt"
fi

# At most 8 files come back from the device machine: the reports, and everything else in one archive.
for f in "$OUT"/*; do
  case $(basename "$f") in
    summary.txt|ceilings.json|verify.json|verify.junit.xml|roofline.svg|bench-ceilings.txt|ncu.txt|logs) ;;
    *) mv "$f" "$logs/" ;;
  esac
done
tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$logs"
section "done"
