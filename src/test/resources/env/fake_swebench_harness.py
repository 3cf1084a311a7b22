"""A fake SWE-bench harness CLI for tests: same flags and output files as swebench.harness.run_evaluation.
An instance is resolved when its patch adds the line "+FIXED"; a patch adding "+HALF" passes 1 of 2 FAIL_TO_PASS tests."""
import argparse
import json
import os
import sys

p = argparse.ArgumentParser()
p.add_argument("--dataset_name")
p.add_argument("--split")
p.add_argument("--predictions_path")
p.add_argument("--instance_ids", nargs="+")
p.add_argument("--max_workers")
p.add_argument("--run_id")
a = p.parse_args()
resolved = []
for line in open(a.predictions_path):
    pred = json.loads(line)
    iid, patch = pred["instance_id"], pred["model_patch"]
    if "+CRASH" in patch:
        sys.stderr.write("Error building image for %s\n" % iid)
        sys.exit(1)
    ok = "\n+FIXED" in patch
    half = "\n+HALF" in patch
    if ok:
        resolved.append(iid)
    d = os.path.join("logs", "run_evaluation", a.run_id, pred["model_name_or_path"], iid)
    os.makedirs(d, exist_ok=True)
    status = {"FAIL_TO_PASS": {"success": ["t1", "t2"] if ok else (["t1"] if half else []),
                               "failure": [] if ok else (["t2"] if half else ["t1", "t2"])}}
    json.dump({iid: {"resolved": ok, "tests_status": status}}, open(os.path.join(d, "report.json"), "w"))
json.dump({"resolved_ids": resolved, "submitted_ids": a.instance_ids}, open("%s.%s.json" % ("skillopt4j", a.run_id), "w"))
