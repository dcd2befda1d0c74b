#!/usr/bin/env python3
"""Benchmark rooflint-ceilings against PyTorch peers on the GPU, side by side.

Runs, in one call:
  1. rooflint-ceilings --thorough and --quick (timed wall-clock; targets: under 60 s and under 10 s);
  2. the peers, with torch and triton: y.copy_(x) on 4 GiB (bytes counted read + write), and
     torch.matmul at 8192^3 for fp32 (allow_tf32 False), tf32, fp16, bf16, fp8 via torch._scaled_mm
     (with and without fast accumulation; the better one is the peer) and int8 via torch._int_mm,
     each timed with triton.testing.do_bench (median) after 1.5 s of the same work, so that the clock
     has settled under the power cap as it has for rooflint's sustained figures;
  3. the SM clock around and during each peer (pynvml, else nvidia-smi);
and prints a table rooflint / peer with the ratio per row (targets: bandwidth >= 1.00, every matmul
>= 1.00), and FP32 SIMT against SMs * 128 lanes * 2 FLOP * the SM clock rooflint recorded (target:
within 5%). The report goes to stdout and to the path given as the first argument.

usage: bench-ceilings.py [--output] OUTPUT.txt [--rooflint-ceilings PATH] [--workdir DIR] [--device N]
"""

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import threading
import time


def find_binary(explicit):
    if explicit:
        return explicit
    here = os.path.dirname(os.path.abspath(__file__))
    for build in ("build-gpu", "build", "build-runtime"):
        candidate = os.path.join(here, "..", build, "runtime", "rooflint-ceilings")
        if os.path.exists(candidate):
            return os.path.normpath(candidate)
    return shutil.which("rooflint-ceilings") or "rooflint-ceilings"


class ClockSampler:
    """Polls the SM clock about every 10 ms on a thread (pynvml), or reads nvidia-smi before and after."""

    def __init__(self, device):
        self.device = device
        self.samples = []
        self._stop = threading.Event()
        self._thread = None
        self._nvml = None
        try:
            import pynvml  # noqa: PLC0415

            pynvml.nvmlInit()
            self._nvml = pynvml
            self._handle = pynvml.nvmlDeviceGetHandleByIndex(device)
        except Exception:  # pynvml missing or failing: nvidia-smi snapshots
            self._nvml = None

    def read(self):
        if self._nvml:
            return float(self._nvml.nvmlDeviceGetClockInfo(self._handle, self._nvml.NVML_CLOCK_SM))
        try:
            out = subprocess.run(
                ["nvidia-smi", "-i", str(self.device), "--query-gpu=clocks.sm", "--format=csv,noheader,nounits"],
                capture_output=True, text=True, timeout=10, check=False)
            return float(out.stdout.strip().splitlines()[0])
        except Exception:
            return float("nan")

    def _run(self):
        while not self._stop.is_set():
            self.samples.append(self.read())
            time.sleep(0.01)

    def __enter__(self):
        self.samples = [self.read()]
        if self._nvml:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc):
        if self._thread:
            self._stop.set()
            self._thread.join()
        self.samples.append(self.read())

    def summary(self):
        values = [v for v in self.samples if v == v]
        if not values:
            return "-"
        lo, hi = min(values), max(values)
        return f"{lo:.0f}" if lo == hi else f"{lo:.0f}-{hi:.0f}"

    def last(self):
        values = [v for v in self.samples if v == v]
        return values[-1] if values else float("nan")


def run_rooflint(binary, mode, path, device):
    cmd = [binary, f"--{mode}", "--output", path, "--device", str(device)]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.monotonic() - start
    data = None
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    return {"cmd": " ".join(cmd), "rc": proc.returncode, "wall_s": wall, "stdout": proc.stdout,
            "stderr": proc.stderr, "file": data}


def peers(device):
    import torch  # noqa: PLC0415
    import triton.testing  # noqa: PLC0415

    torch.cuda.set_device(device)
    sampler = ClockSampler(device)
    results = {}

    def bench(fn, settle_s=1.5):
        end = time.monotonic() + settle_s
        while time.monotonic() < end:  # same work, so the clock settles as it did for rooflint
            for _ in range(10):
                fn()
            torch.cuda.synchronize()
        with sampler:
            ms = triton.testing.do_bench(fn, warmup=25, rep=1000, return_mode="median")
        return ms * 1e-3, sampler.summary()

    # Bandwidth: y.copy_(x) over 4 GiB, read + write counted.
    n = (4 << 30) // 4
    x = torch.rand(n, device="cuda", dtype=torch.float32)
    y = torch.empty_like(x)
    s, clock = bench(lambda: y.copy_(x), settle_s=0.5)
    results["bandwidth"] = {"rate": 2 * n * 4 / s, "clock": clock, "what": "y.copy_(x), 4 GiB"}
    del x, y
    torch.cuda.empty_cache()

    m = k = nn = 8192
    flops = 2.0 * m * nn * k

    def matmul_row(key, dtype, tf32, what):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        a = torch.randn(m, k, device="cuda", dtype=dtype)
        b = torch.randn(k, nn, device="cuda", dtype=dtype)
        s, clock = bench(lambda: torch.matmul(a, b))
        results[key] = {"rate": flops / s, "clock": clock, "what": what}
        torch.backends.cuda.matmul.allow_tf32 = False

    matmul_row("fp32_simt", torch.float32, False, "torch.matmul f32 8192^3, allow_tf32 False")
    matmul_row("tf32_tensor", torch.float32, True, "torch.matmul f32 8192^3, allow_tf32 True")
    matmul_row("fp16_tensor", torch.float16, False, "torch.matmul f16 8192^3")
    matmul_row("bf16_tensor", torch.bfloat16, False, "torch.matmul bf16 8192^3")
    matmul_row("fp64_tensor", torch.float64, False, "torch.matmul f64 8192^3 (DGEMM: FP64 tensor cores)")

    try:
        a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
        b = torch.randn(nn, k, device="cuda").to(torch.float8_e4m3fn).t()  # column-major, as _scaled_mm needs
        one = torch.tensor(1.0, device="cuda")
        best = None
        for fast in (False, True):
            s, clock = bench(lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16,
                                                      use_fast_accum=fast))
            if best is None or flops / s > best["rate"]:
                best = {"rate": flops / s, "clock": clock,
                        "what": f"torch._scaled_mm e4m3 8192^3 -> bf16, use_fast_accum={fast}"}
        results["fp8_tensor"] = best
    except Exception as e:  # noqa: BLE001
        results["fp8_tensor"] = {"error": str(e)}

    try:
        a = torch.randint(-64, 64, (m, k), device="cuda", dtype=torch.int8)
        b = torch.randint(-64, 64, (nn, k), device="cuda", dtype=torch.int8).t()
        s, clock = bench(lambda: torch._int_mm(a, b))
        results["int8_tensor"] = {"rate": flops / s, "clock": clock, "what": "torch._int_mm i8 8192^3 -> i32"}
    except Exception as e:  # noqa: BLE001
        results["int8_tensor"] = {"error": str(e)}
    return results


def fmt_rate(value, unit):
    if value is None:
        return "-"
    return f"{value / 1e12:.2f} T{unit}/s"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output", nargs="?", help="where to write the report")
    parser.add_argument("--output", dest="output_option", default=None, help="the same, as an option")
    parser.add_argument("--rooflint-ceilings", "--rooflint", dest="binary", default=None,
                        help="the rooflint-ceilings binary (default: build*/runtime/rooflint-ceilings)")
    parser.add_argument("--workdir", default=None, help="where the ceilings files go (default: next to OUTPUT)")
    parser.add_argument("--device", type=int, default=0)
    args = parser.parse_args()
    args.output = args.output or args.output_option
    if not args.output:
        parser.error("give the report's path (OUTPUT or --output OUTPUT)")

    binary = find_binary(args.binary)
    workdir = args.workdir or os.path.dirname(os.path.abspath(args.output))
    os.makedirs(workdir, exist_ok=True)
    lines = []

    def say(text=""):
        print(text, flush=True)
        lines.append(text)

    say(f"bench-ceilings {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')}")
    thorough = run_rooflint(binary, "thorough", os.path.join(workdir, "ceilings-thorough.json"), args.device)
    quick = run_rooflint(binary, "quick", os.path.join(workdir, "ceilings-quick.json"), args.device)
    for name, r in (("thorough", thorough), ("quick", quick)):
        target = 60 if name == "thorough" else 10
        verdict = "ok" if r["wall_s"] < target and r["rc"] == 0 else "MISSED"
        say(f"rooflint-ceilings --{name}: exit {r['rc']}, {r['wall_s']:.1f} s wall (target < {target} s: {verdict})")
    say()
    say("rooflint-ceilings --thorough output:")
    for line in thorough["stdout"].splitlines():
        say("  " + line)
    if thorough["stderr"].strip():
        say("  stderr:")
        for line in thorough["stderr"].splitlines()[-20:]:
            say("    " + line)
    say()

    f = thorough["file"]
    if not f:
        say("no ceilings file from the thorough run; stopping")
        with open(args.output, "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")
        return 1

    try:
        peer = peers(args.device)
    except Exception as e:  # noqa: BLE001
        say(f"peers failed: {e}")
        peer = {}

    dev = f["device"]
    say(f"device: {dev['name']} ({dev['uuid']}), {dev['sm_count']} SMs, driver {dev['driver_version']}, "
        f"CUDA {dev['cuda_runtime_version']}, cuBLAS {dev['cublas_version']}")
    say()
    header = f"{'row':<12} {'rooflint':>16} {'peer':>16} {'ratio':>7}  {'rooflint MHz':>12} {'peer MHz':>10}  peer"
    say(header)
    say("-" * len(header))

    def row(key, ours, ours_mhz, unit, target=1.0, peer_key=None):
        p = peer.get(peer_key or key, {})
        if "error" in p:
            say(f"{key:<12} {fmt_rate(ours, unit):>16} {'-':>16} {'-':>7}  {ours_mhz:>12} {'-':>10}  {p['error']}")
            return
        theirs = p.get("rate")
        ratio = ours / theirs if ours and theirs else None
        mark = "" if ratio is None or target is None else ("  ok" if ratio >= target else "  BELOW TARGET")
        say(f"{key:<12} {fmt_rate(ours, unit):>16} {fmt_rate(theirs, unit):>16} "
            f"{(f'{ratio:.3f}' if ratio else '-'):>7}  {ours_mhz:>12} {p.get('clock', '-'):>10}  "
            f"{p.get('what', '')}{mark}")

    clocks = f.get("clocks") or {}
    row("bandwidth", f["bandwidth"]["bytes_per_s"], "-", "B")
    levels = f.get("levels") or {}
    dram_copy = ((levels.get("dram") or {}).get("copy") or {})
    if dram_copy:
        # The DRAM copy roof (best copy kernel or cudaMemcpy) against torch's y.copy_(x): target >= 1.
        row("dram copy", dram_copy["bytes_per_s"], "-", "B", peer_key="bandwidth")
    for level in ("dram", "l2", "l1"):
        for direction in ("read", "write", "copy"):
            roof = ((levels.get(level) or {}).get(direction) or {})
            if roof:
                say(f"  roof {level:<4} {direction:<5} {roof['bytes_per_s'] / 1e12:7.3f} TB/s  ({roof.get('probe', '')})")
    for probe in f["bandwidth"].get("probes", []):
        say(f"  {probe.get('level', 'dram'):<4} {probe['name']:<22} {probe['bytes_per_s'] / 1e12:.3f} TB/s  "
            f"spread {100 * probe['spread']:.1f}%  {probe.get('grid') or ''}")
    compute = f.get("compute", {})
    for key in ("fp32_simt", "tf32_tensor", "fp16_tensor", "bf16_tensor", "fp8_tensor", "int8_tensor", "fp64_tensor"):
        c = compute.get(key)
        unit = "OP" if key == "int8_tensor" else "FLOP"
        if c:
            row(key, c["flops_per_s"], f"{c['sm_mhz']:.0f}", unit,
                target=None if key == "fp32_simt" else 1.0)
        else:
            row(key, None, "-", unit)
    if compute.get("fp64"):
        c = compute["fp64"]
        say(f"{'fp64':<12} {fmt_rate(c['flops_per_s'], 'FLOP'):>16} {'-':>16} {'-':>7}  {c['sm_mhz']:>12.0f} {'-':>10}"
            "  (DFMA SIMT roof; no peer)")
    say("  (fp32_simt: rooflint's FFMA roof against torch's SGEMM, which is not a peak kernel; no target)")
    say()

    c = compute.get("fp32_simt")
    if c and c.get("sm_mhz"):
        lanes = dev["sm_count"] * 128 * 2 * c["sm_mhz"] * 1e6
        ratio = c["flops_per_s"] / lanes
        verdict = "ok" if abs(1 - ratio) <= 0.05 else "MISSED"
        say(f"FP32 SIMT: {c['flops_per_s'] / 1e12:.2f} TFLOP/s vs {dev['sm_count']} SMs x 128 x 2 x {c['sm_mhz']:.0f} MHz"
            f" = {lanes / 1e12:.2f} TFLOP/s: {100 * ratio:.1f}% (target within 5%: {verdict})")
    if clocks:
        say(f"clocks during rooflint: SM {clocks.get('sm_mhz_min', 0):.0f}-{clocks.get('sm_mhz_max', 0):.0f} MHz, "
            f"memory {clocks.get('memory_mhz', 0):.0f} MHz, power up to {clocks.get('power_w_max', 0):.0f} W "
            f"of {clocks.get('power_limit_w', 0):.0f} W, reasons {clocks.get('throttle_reasons')}")

    q = quick["file"]
    if q:
        say()
        say("quick vs thorough:")
        say(f"  bandwidth {q['bandwidth']['bytes_per_s'] / 1e12:.3f} vs {f['bandwidth']['bytes_per_s'] / 1e12:.3f} TB/s")
        for key, c in q.get("compute", {}).items():
            t = compute.get(key)
            if t:
                say(f"  {key:<12} {c['flops_per_s'] / 1e12:8.2f} vs {t['flops_per_s'] / 1e12:8.2f} T/s")

    with open(args.output, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
