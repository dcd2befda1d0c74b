#!/usr/bin/env python3
"""Links in the installed documentation: every relative link of every Markdown file under DOCDIR
(share/doc/rooflint: README.md, CHANGELOG.md, CONTRIBUTING.md, docs/, the example files the pages link
to) names a file or directory that is installed there too, and every #anchor a heading of that page.
Links to a URL (https:, mailto:) are not followed. Code (fenced blocks, `inline`) is not read.

Usage: installed_links_test.py DOCDIR
       installed_links_test.py --install CMAKE BUILD_DIR SCRATCH DOCDIR
         the second installs the rooflint_tools component of BUILD_DIR under SCRATCH (DESTDIR, prefix /,
         SCRATCH emptied first) and checks SCRATCH/DOCDIR (CMAKE_INSTALL_DOCDIR, relative or absolute)"""
import os
import re
import shutil
import subprocess
import sys
import unicodedata

if sys.argv[1] == "--install":
    cmake, build, scratch, docdir = sys.argv[2:6]
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    result = subprocess.run([cmake, "--install", build, "--prefix", "/", "--component", "rooflint_tools"],
                            env=dict(os.environ, DESTDIR=scratch), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        print(result.stdout)
        print(f"cmake --install {build} failed ({result.returncode})")
        sys.exit(1)
    root = os.path.join(scratch, docdir.lstrip("/"))
else:
    root = sys.argv[1]
if not os.path.isfile(os.path.join(root, "README.md")):
    print(f"no README.md under {root}: the docs are not installed")
    sys.exit(1)

link_re = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
ref_re = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$")
html_re = re.compile(r"""<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*["']([^"']+)["']""", re.I)


def text_lines(path):
    """The file's lines outside fenced code blocks, with inline code removed."""
    fence = None
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        stripped = line.lstrip()
        m = re.match(r"(`{3,}|~{3,})", stripped)
        if m:
            if fence is None:
                fence = m.group(1)
                continue
            if stripped.startswith(fence) and not stripped[len(fence):].strip():
                fence = None
                continue
        if fence is None:
            yield number, re.sub(r"(`+)(?:(?!\1).)+?\1", "", line)


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    heading = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading: its text
    heading = heading.replace("`", "").strip().lower()
    out = []
    for ch in heading:
        if ch in " -":
            out.append("-")
        elif ch == "_" or unicodedata.category(ch)[0] in "LN":
            out.append(ch)
    return "".join(out)


anchors_of = {}


def anchors(path):
    if path not in anchors_of:
        seen = {}
        names = set()
        fence = None
        for line in open(path, encoding="utf-8"):
            stripped = line.lstrip()
            m = re.match(r"(`{3,}|~{3,})", stripped)
            if m:
                fence = None if fence and stripped.startswith(fence) else (fence or m.group(1))
                continue
            if fence:
                continue
            h = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if h:
                base = slug(h.group(1))
                n = seen.get(base, 0)
                seen[base] = n + 1
                names.add(base if n == 0 else f"{base}-{n}")
            for a in re.findall(r"""<a\s+(?:name|id)\s*=\s*["']([^"']+)["']""", line):
                names.add(a)
        anchors_of[path] = names
    return anchors_of[path]


failures = []
checked = 0
pages = 0
for directory, _, files in os.walk(root):
    for name in sorted(files):
        if not name.endswith(".md"):
            continue
        page = os.path.join(directory, name)
        pages += 1
        for number, line in text_lines(page):
            targets = [m.group(1) for m in link_re.finditer(line)]
            targets += [m.group(1) for m in html_re.finditer(line)]
            ref = ref_re.match(line)
            if ref:
                targets.append(ref.group(1))
            for target in targets:
                if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                    continue  # https:, mailto:
                checked += 1
                file_part, _, anchor = target.partition("#")
                where = f"{os.path.relpath(page, root)}:{number}: {target}"
                resolved = os.path.normpath(os.path.join(directory, file_part)) if file_part else page
                if os.path.relpath(resolved, root).split(os.sep)[0] == "..":
                    failures.append(f"{where}: points outside the installed docs")
                elif not os.path.exists(resolved):
                    failures.append(f"{where}: not installed")
                elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                    failures.append(f"{where}: no heading #{anchor} in {os.path.relpath(resolved, root)}")

for f in failures:
    print(f)
print(f"{pages} pages, {checked} relative links, {len(failures)} broken")
sys.exit(1 if failures else 0)
