"""SkillOpt4J SpreadsheetBench sidecar: workbook previews and typed cell dumps (openpyxl), one JSON reply on stdout.

  python3 sheet_tool.py preview WORKBOOK
  python3 sheet_tool.py cells WORKBOOK RANGES_JSON     # RANGES_JSON: [[sheet or null, "A1:B9"], ...]
  python3 sheet_tool.py compare GOLDEN PRED RANGES_JSON # both dumps; bare ranges use the golden's first sheet

Cells are read with cached values (data_only=True), as the official evaluator does; Java compares them.
"""
import datetime
import json
import sys

import openpyxl
from openpyxl.utils import range_boundaries, get_column_letter


def preview(path):
    wb = openpyxl.load_workbook(path, data_only=False)
    out = []
    for ws in wb.worksheets:
        out.append("## Sheet: %s  (dim=%s, max_row=%d, max_col=%d)" % (ws.title, ws.dimensions, ws.max_row, ws.max_column))
        for r in range(1, min(ws.max_row, 5) + 1):
            cells = []
            for c in range(1, min(ws.max_column, 20) + 1):
                v = ws.cell(row=r, column=c).value
                s = "" if v is None else str(v)
                if len(s) > 40:
                    s = s[:37] + "..."
                cells.append("%s%d=%s" % (get_column_letter(c), r, s))
            out.append(" | ".join(cells))
        if ws.max_row > 5:
            out.append("... (%d more rows)" % (ws.max_row - 5))
    return {"preview": "\n".join(out)}


def typed(v):
    if v is None:
        return ["none", None]
    if isinstance(v, bool):
        return ["bool", v]
    if isinstance(v, int):
        return ["int", v]
    if isinstance(v, float):
        return ["float", v]
    if isinstance(v, datetime.datetime):
        delta = v - datetime.datetime(1899, 12, 30)
        return ["datetime", delta.days + delta.seconds / 86400.0]
    if isinstance(v, datetime.date):
        return ["datetime", float((v - datetime.date(1899, 12, 30)).days)]
    if isinstance(v, datetime.time):
        return ["time", str(v)]
    return ["str", str(v)]


def cells(path, ranges):
    wb = openpyxl.load_workbook(path, data_only=True)
    out = {"sheets": wb.sheetnames, "missing_sheets": [], "cells": []}
    for sheet, rng in ranges:
        name = sheet if sheet is not None else wb.sheetnames[0]
        if name not in wb.sheetnames:
            out["missing_sheets"].append(name)
            continue
        ws = wb[name]
        min_col, min_row, max_col, max_row = range_boundaries(rng)
        for col in range(min_col, max_col + 1):
            for row in range(min_row, max_row + 1):
                ref = "%s%d" % (get_column_letter(col), row)
                out["cells"].append([name, ref] + typed(ws[ref].value))
    return out


def main():
    cmd = sys.argv[1]
    if cmd == "preview":
        res = preview(sys.argv[2])
    elif cmd == "cells":
        res = cells(sys.argv[2], json.loads(sys.argv[3]))
    elif cmd == "compare":
        ranges = json.loads(sys.argv[4])
        gold = cells(sys.argv[2], ranges)
        first = gold["sheets"][0]
        pred = cells(sys.argv[3], [[sh if sh is not None else first, rng] for sh, rng in ranges])
        res = {"gold": gold, "pred": pred}
    elif cmd == "check":
        res = {"openpyxl": openpyxl.__version__}
    else:
        raise SystemExit("unknown command " + cmd)
    sys.stdout.write(json.dumps(res, ensure_ascii=False))


if __name__ == "__main__":
    main()
