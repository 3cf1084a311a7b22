#!/usr/bin/python3
"""Checks an executed notebook: every code cell ran, no error outputs, and each MIME type listed in
metadata.skillopt.expect occurs in some output. With --like SAVED, each code cell must also show the same
rich MIME kinds (text/html, image/png, text/markdown, ...; text/plain aside) as that cell's outputs in
SAVED, the notebook as committed from the SkillOpt4J kernel: so a kernel (JJava) that runs the cells but
prints a table as text fails. Prints a one-line summary; exits 1 on a problem.
  check_notebook.py EXECUTED [--like SAVED]"""
import json
import sys
from collections import Counter


def code_cells(path):
    nb = json.load(open(path, encoding="utf-8"))
    return nb, [c for c in nb["cells"] if c["cell_type"] == "code"]


def rich(cell):
    return sorted({m for o in cell.get("outputs", []) for m in o.get("data", {}) if m != "text/plain"})


args = sys.argv[1:]
like = None
if "--like" in args:
    i = args.index("--like")
    like = args[i + 1]
    del args[i:i + 2]
path = args[0]
nb, cells = code_cells(path)
problems, mimes = [], Counter()
for i, cell in enumerate(cells, 1):
    if cell.get("execution_count") is None:
        problems.append(f"code cell {i} did not run")
    for out in cell.get("outputs", []):
        if out["output_type"] == "error":
            problems.append(f"code cell {i}: {out['ename']}: {out['evalue']}")
        for mime in out.get("data", {}):
            mimes[mime] += 1
expect = nb.get("metadata", {}).get("skillopt", {}).get("expect", [])
for mime in expect:
    if mimes[mime] == 0:
        problems.append(f"no {mime} output (metadata.skillopt.expect)")
compared = ""
if like:
    _, saved = code_cells(like)
    if len(saved) != len(cells):
        problems.append(f"{len(cells)} code cells but {like} has {len(saved)}")
    else:
        differ = [f"code cell {i}: {' '.join(rich(c)) or 'text only'} (saved: {' '.join(rich(s)) or 'text only'})"
                  for i, (c, s) in enumerate(zip(cells, saved), 1) if rich(c) != rich(s)]
        problems += differ
        compared = f", rich MIME kinds per cell {'match' if not differ else 'DIFFER from'} the saved notebook"
errors = sum(1 for p in problems if p.startswith("code cell") and ": " in p and "saved" not in p)
kinds = ", ".join(f"{m} x{n}" for m, n in sorted(mimes.items()) if m != "text/plain")
print(f"{len(cells)} code cells, {errors} errors, rich outputs: {kinds or 'none'}{compared}")
if problems:
    print("; ".join(problems))
    sys.exit(1)
