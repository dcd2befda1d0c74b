#!/usr/bin/env python3
"""Parse-and-crash sweep of the analyzer over public CUDA sources.

For each snapshot (a bare git directory, e.g. what the `fetch` tool brings: /work/.mirror/OWNER+NAME/repo)
the sweep writes the repository's source files (no binaries) into a scratch directory under /tmp, picks a
deterministic sample of its .cu files (ordered by the SHA-1 of their path), and runs on each
  nvcc --cuda -arch=compute_90 -code=compute_90 -std=STD FLAGS file.cu -o /dev/null
                                       (nvcc's front end and host pass; PTX only, no ptxas)
and, on the files nvcc accepts, rooflint with the same flags:
  rooflint file.cu -- -std=STD FLAGS
A file "parses" when rooflint reports no clang error; a crash is a signal or the analyzer's crash message.
It prints per repository: sampled, accepted by nvcc, parsed by rooflint, crashes, CPU seconds; then the
parse rate over the accepted files and the first error of every file that did not parse.

  scripts/parse-sweep-analyzer.py --rooflint build/analyzer/rooflint \\
      --snapshot /work/.mirror/NVIDIA+cutlass/repo:12 --snapshot /work/.mirror/karpathy+llm.c/repo:28 \\
      --snapshot /work/.mirror/NVIDIA+cccl/repo:0:thrust/examples ...

--nvcc-cache FILE keeps nvcc's answer per file (keyed by the SHA-1 of its command and its text), so that a
second sweep after a change to rooflint runs only rooflint. Exit status 1 on a crash or a parse rate under
--target (default 0.95). The sources are read, never
copied into this repository; the scratch directory is removed at the end (--keep keeps it).
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time

SOURCE_EXTENSIONS = ('.cu', '.cuh', '.h', '.hpp', '.hxx', '.inl', '.inc', '.cpp', '.cc', '.c', '.cxx', '.ipp',
                     '.tcc', '.def')

# Include directories and nvcc flags as each project's own build passes them (its CMake or Makefile), so
# that nvcc and rooflint see the same command. Keys match the snapshot's directory name.
PROJECT_FLAGS = {
    'cuda-samples': {'include': ['Common'], 'flags': []},
    'llm.c': {'include': ['.', 'dev/cuda'], 'flags': []},
    'cutlass': {'include': ['include', 'tools/util/include', 'examples/common', 'test/unit/common', 'test/unit',
                            'tools/library/include', 'tools/profiler/include'],
                'flags': ['--expt-relaxed-constexpr']},
    'flash-attention': {'include': ['csrc/flash_attn', 'csrc/flash_attn/src', 'csrc/cutlass/include', 'hopper'],
                        'flags': ['--expt-relaxed-constexpr', '--expt-extended-lambda']},
    'cccl': {'include': ['libcudacxx/include', 'cub', 'thrust', '.', 'thrust/testing', 'cub/test', 'c2h/include',
                         'libcudacxx/test/support'],
             'flags': ['--extended-lambda', '--expt-relaxed-constexpr']},
}


def project_of(name):
    for key in PROJECT_FLAGS:
        if name.lower().endswith(key):
            return key
    return None


def extract(gitdir, dest):
    """Writes the snapshot's source files (by extension; skips absent and large objects) under dest."""
    tree = subprocess.run(['git', '--git-dir', gitdir, 'ls-tree', '-r', '-z', 'HEAD'], capture_output=True,
                          check=True).stdout
    entries = []
    for rec in tree.split(b'\0'):
        if not rec:
            continue
        meta, path = rec.split(b'\t', 1)
        mode, kind, sha = meta.split()
        p = path.decode('utf-8', 'replace')
        if kind == b'blob' and mode != b'120000' and (p.endswith(SOURCE_EXTENSIONS) or '.' not in os.path.basename(p)):
            entries.append((sha.decode(), p))
    proc = subprocess.Popen(['git', '--git-dir', gitdir, 'cat-file', '--batch'], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    for sha, p in entries:
        proc.stdin.write((sha + '\n').encode())
        proc.stdin.flush()
        header = proc.stdout.readline().split()
        if len(header) < 3 or header[1] == b'missing':
            continue
        size = int(header[2])
        data = proc.stdout.read(size)
        proc.stdout.read(1)
        if size > (4 << 20) or '..' in p.split('/'):
            continue
        out = os.path.join(dest, p)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, 'wb') as f:
            f.write(data)
    proc.stdin.close()
    proc.wait()
    commit = subprocess.run(['git', '--git-dir', gitdir, 'log', '-1', '--format=%h %cs'], capture_output=True,
                            text=True).stdout.strip()
    return commit


def sample(root, count, prefix=''):
    files = []
    for d, _, names in os.walk(os.path.join(root, prefix)):
        for n in names:
            if n.endswith('.cu'):
                files.append(os.path.relpath(os.path.join(d, n), root))
    files.sort(key=lambda p: hashlib.sha1(p.encode()).hexdigest())
    return files[:count] if count > 0 else files, len(files)


def run(cmd, cwd, timeout):
    """@return (status, output); status 'timeout' past the limit."""
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, errors='replace', timeout=timeout)
        status, out = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        status, out = 'timeout', (e.stdout or b'').decode(errors='replace') if isinstance(e.stdout, bytes) else ''
    return status, out


def first_error(out):
    for line in out.splitlines():
        if ' error: ' in line or line.startswith('error:'):
            return line.strip()[:300]
    return out.strip().splitlines()[-1][:300] if out.strip() else ''


def remember(args, key, answer):
    """Keeps nvcc's answer; written after each file, so that an interrupted sweep keeps what it learnt."""
    with args.cache_lock:
        args.cache[key] = answer
        if not args.nvcc_cache:
            return
        with open(args.nvcc_cache + '.tmp', 'w') as f:
            json.dump(args.cache, f)
        os.replace(args.nvcc_cache + '.tmp', args.nvcc_cache)


def check_file(args, root, project, rel):
    conf = PROJECT_FLAGS.get(project, {'include': [], 'flags': []})
    flags = ['-std=' + args.std] + ['-I' + os.path.join(root, i) for i in conf['include']] + conf['flags']
    # CUTLASS's examples build with their own directory on the include path (cutlass_example_add_executable):
    # 13_two_tensor_op_fusion's device/ headers include "kernel/...", 77_blackwell_fmha's "collective/...".
    parts = rel.split('/')
    if project == 'cutlass' and len(parts) > 2 and parts[0] == 'examples':
        flags.append('-I' + os.path.join(root, parts[0], parts[1]))
    path = os.path.join(root, rel)
    result = {'file': rel}
    # PTX for one architecture only: nvcc --cuda runs the device compiler too, and ptxas for the default
    # architecture would cost minutes per file without changing what the host pass accepts.
    nvcc = ['nvcc', '--cuda', '-arch=compute_90', '-code=compute_90'] + flags + [path, '-o', os.devnull]
    with open(path, 'rb') as f:
        key = hashlib.sha1(' '.join(nvcc).replace(root, '').encode() + b'\0' + f.read()).hexdigest()
    if key in args.cache and args.cache[key][1] != 'timeout':  # a timeout is asked again (a longer --timeout)
        result['accepted'], result['nvcc_error'] = args.cache[key]
    else:
        status, out = run(nvcc, root, args.timeout)
        result['accepted'] = status == 0
        result['nvcc_error'] = '' if status == 0 else first_error(out) if status != 'timeout' else 'timeout'
        remember(args, key, (result['accepted'], result['nvcc_error']))
    if not result['accepted']:
        return result
    status, out = run([args.rooflint, path, '--'] + flags, root, args.timeout)
    crashed = status == 'timeout' or (isinstance(status, int) and status < 0) or \
        'the analyzer crashed' in out or 'PLEASE submit a bug report' in out
    result['crashed'] = crashed
    result['parsed'] = not crashed and 'did not parse' not in out and not re.search(r'(^|: )error: ', out, re.M)
    if not result['parsed']:
        result['error'] = 'timeout' if status == 'timeout' else first_error(out)
    if args.progress:
        print(f"  {rel}: {'crashed' if crashed else 'parsed' if result['parsed'] else 'did not parse'}", flush=True)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--rooflint', default='build/analyzer/rooflint')
    ap.add_argument('--snapshot', action='append', required=True,
                    help='GITDIR[:COUNT[:DIR]] of a snapshot; COUNT .cu files (under DIR, a path in the '
                         'repository) are sampled (0 or none: all)')
    ap.add_argument('--std', default='c++17')
    ap.add_argument('--timeout', type=int, default=300, help='seconds per command')
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--target', type=float, default=0.95)
    ap.add_argument('--keep', action='store_true')
    ap.add_argument('--nvcc-cache', help="JSON file of nvcc's answers, read and written (see above)")
    ap.add_argument('--progress', action='store_true', help='a line per file nvcc accepts, as it is done')
    args = ap.parse_args()
    args.cache = {}
    args.cache_lock = threading.Lock()
    if args.nvcc_cache and os.path.exists(args.nvcc_cache):
        with open(args.nvcc_cache) as f:
            args.cache = {k: tuple(v) for k, v in json.load(f).items()}
    args.rooflint = os.path.abspath(args.rooflint)
    if not os.access(args.rooflint, os.X_OK):
        sys.exit(f'parse sweep: no rooflint at {args.rooflint}')
    if not shutil.which('nvcc'):
        sys.exit('parse sweep: nvcc is not on PATH (the accept set is what nvcc accepts)')
    scratch = tempfile.mkdtemp(prefix='rooflint-parse-sweep-')
    start = time.time()
    # CPU time of the children (nvcc and rooflint, with every process they start), per repository.
    totals = {'sampled': 0, 'accepted': 0, 'nvcc_timeouts': 0, 'parsed': 0, 'crashed': 0, 'cpu': 0.0}
    failures = []
    extracted = {}
    try:
        for spec in args.snapshot:
            gitdir, _, rest = spec.partition(':')
            count, _, prefix = rest.partition(':')
            gitdir = gitdir.rstrip('/')
            name = os.path.basename(os.path.dirname(gitdir)) if os.path.basename(gitdir) == 'repo' else \
                os.path.basename(gitdir)
            project = project_of(name)
            root = os.path.join(scratch, name)
            if root not in extracted:  # a snapshot named twice (two directories of it) is written once
                extracted[root] = extract(gitdir, root)
            commit = extracted[root]
            files, available = sample(root, int(count or 0), prefix)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
                results = list(pool.map(lambda f: check_file(args, root, project, f), files))
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            row = {'sampled': len(files), 'accepted': sum(r['accepted'] for r in results),
                   'nvcc_timeouts': sum(r.get('nvcc_error') == 'timeout' for r in results),
                   'parsed': sum(r.get('parsed', False) for r in results),
                   'crashed': sum(r.get('crashed', False) for r in results),
                   'cpu': cpu}
            for k in totals:
                totals[k] += row[k]
            where = f" under {prefix}" if prefix else ''
            # A file nvcc did not finish within --timeout is neither accepted nor rejected: counted apart.
            print(f"{name}{where} ({commit}): {row['sampled']} of {available} .cu files sampled, {row['accepted']} accepted "
                  f"by nvcc ({row['nvcc_timeouts']} not decided: nvcc ran past {args.timeout} s), {row['parsed']} parsed "
                  f"by rooflint, {row['crashed']} crashed; CPU {row['cpu']:.0f} s", flush=True)
            for r in results:
                if r['accepted'] and not r['parsed']:
                    failures.append(f"  {name}/{r['file']}: {r['error']}")
                elif not r['accepted'] and os.environ.get('SWEEP_SHOW_REJECTED'):
                    print(f"  (nvcc rejects {r['file']}: {r['nvcc_error']})")
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    rate = totals['parsed'] / totals['accepted'] if totals['accepted'] else 0.0
    print(f"parse sweep: {totals['parsed']} of {totals['accepted']} nvcc-accepted files parse ({100 * rate:.1f}%), "
          f"{totals['sampled']} sampled ({totals['nvcc_timeouts']} past nvcc's timeout), {totals['crashed']} crashes; CPU {totals['cpu']:.0f} s (nvcc and rooflint); "
          f"wall {time.time() - start:.0f} s")
    if failures:
        print('did not parse:')
        print('\n'.join(failures))
    return 1 if totals['crashed'] or rate < args.target else 0


if __name__ == '__main__':
    sys.exit(main())
