#!/usr/bin/env bash
# The honest gate against SkillOpt's on a noisy target (docs/training.md "The honest gate"): runs the shared SearchQA
# workload (../shared/bench) once per noise seed with the default gate and once with the honest one, then sums up
# with true_value.py what each gate accepted, what was truly better, and the TRUE value of the skills it ended with.
# Run from the project checkout after `mvn -B -o -q package -DskipTests`:
#   scripts/gate-noise.sh [SEEDS] [NOISE] [OUT]      (defaults: 30 seeds, noise 0.2, /tmp/gate-noise)
# HONEST="k=v ..." replaces the honest gate's settings; the table is printed at the end and kept in OUT/table.md.
set -euo pipefail
bench="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../shared/bench" 2>/dev/null && pwd)" || { echo "no ../shared/bench next to the checkout" >&2; exit 2; }
seeds=${1:-30}; noise=${2:-0.2}; out=${3:-/tmp/gate-noise}
honest=${HONEST:-"evaluation.gate_test=paired_bootstrap evaluation.gate_confidence=0.95 evaluation.eval_repeats=2 evaluation.adaptive_repeats=true evaluation.max_repeats=8"}
mkdir -p "$out"; data="$out/data"; python3 "$bench/make_data.py" "$data" >/dev/null
for s in $(seq 1 "$seeds"); do
  for mode in default honest; do
    dir="$out/$mode/$s"; mkdir -p "$out/$mode"; [[ -f $dir/summary.json && -f $dir.calls ]] && continue
    extra=""; [[ $mode == honest ]] && extra=$honest
    line=$(KEEP="$dir" FAKE="--noise $noise --noise-seed $s" EXTRA="$extra" "$bench/searchqa-workload.sh" 0 1 1 1 | sed -n 1p)
    python3 -c 'import json,sys; print(json.loads(sys.argv[1])["by_label"].get("target_searchqa", 0), json.loads(sys.argv[1])["calls"])' "$line" > "$dir.calls"
    python3 "$bench/true_value.py" "$dir" --data "$data" --noise "$noise" --json > "$dir.true.json"
  done
done
python3 - "$out" "$seeds" "$noise" <<'PY' | tee "$out/table.md"
import json, os, sys
out, seeds, noise = sys.argv[1], int(sys.argv[2]), sys.argv[3]
print(f"| gate (noise {noise}, {seeds} seeds) | gate decisions | false accepts / accepts | true improvements rejected "
      "| mean TRUE test value: best skill | final skill | target calls / all calls per run |")
print("|---|---|---|---|---|---|---|")
for mode in ("default", "honest"):
    t = {"gate_decisions": 0, "accepts": 0, "false_accepts": 0, "missed_improvements": 0}
    best = final = 0.0; target = calls = 0
    for s in range(1, seeds + 1):
        r = json.load(open(os.path.join(out, mode, f"{s}.true.json")))
        for k in t: t[k] += r[k]
        best += r["best"]; final += r["final"]
        a, b = open(os.path.join(out, mode, f"{s}.calls")).read().split()
        target += int(a); calls += int(b)
    fa = f"{t['false_accepts']}/{t['accepts']} ({100 * t['false_accepts'] / max(1, t['accepts']):.0f} %)"
    print(f"| {mode} | {t['gate_decisions']} | {fa} | {t['missed_improvements']} | {best / seeds:.3f} | {final / seeds:.3f} "
          f"| {target / seeds:.0f} / {calls / seeds:.0f} |")
PY
