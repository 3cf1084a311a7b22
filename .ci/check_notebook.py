#!/usr/bin/python3
"""Checks an executed notebook: every code cell ran, no error outputs, and each MIME type listed in
metadata.skillopt.expect occurs in some output. Prints a one-line summary; exits 1 on a problem."""
import json
import sys
from collections import Counter

path = sys.argv[1]
nb = json.load(open(path, encoding="utf-8"))
problems, mimes = [], Counter()
cells = [c for c in nb["cells"] if c["cell_type"] == "code"]
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
errors = sum(1 for p in problems if ": " in p and "cell" in p)
rich = ", ".join(f"{m} x{n}" for m, n in sorted(mimes.items()) if m != "text/plain")
print(f"{len(cells)} code cells, {errors} errors, rich outputs: {rich or 'none'}")
if problems:
    print("; ".join(problems))
    sys.exit(1)
