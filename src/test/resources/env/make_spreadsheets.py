"""Builds the SpreadsheetBench test workbooks (verified_400 naming: <no>_<id>_init.xlsx / <no>_<id>_golden.xlsx).

Usage: python3 make_spreadsheets.py DATA_ROOT    (needs openpyxl; the test runs it into a temp folder)
"""
import datetime
import os
import sys

import openpyxl

root = sys.argv[1]


def book(path, rows, title="Sheet1"):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = title
    for r in rows:
        ws.append(r)
    wb.save(path)


def task(tid, cases):
    d = os.path.join(root, "spreadsheet", tid)
    os.makedirs(d, exist_ok=True)
    for no, (init, golden) in enumerate(cases, start=1):
        book(os.path.join(d, "%d_%s_init.xlsx" % (no, tid)), init)
        book(os.path.join(d, "%d_%s_golden.xlsx" % (no, tid)), golden)


# sum1: put A+B into C (two cases)
task("sum1", [([["a", "b", "sum"], [1, 2, None], [3, 4.5, None]], [["a", "b", "sum"], [1, 2, 3], [3, 4.5, 7.5]]),
              ([["a", "b", "sum"], [10, 20, None]], [["a", "b", "sum"], [10, 20, 30]])])
# upper2: upper-case names in B
task("upper2", [([["name", "upper"], ["ann", None], ["bob", None]], [["name", "upper"], ["ann", "ANN"], ["bob", "BOB"]])])
# date3: write a date into A2
task("date3", [([["when"], [None]], [["when"], [datetime.datetime(2024, 1, 31)]])])
# formula4: expects values; a formula reads as empty (cached values)
task("formula4", [([["x", "double"], [2, None]], [["x", "double"], [2, 4]])])
# nocase5: folder without test cases
os.makedirs(os.path.join(root, "spreadsheet", "nocase5"), exist_ok=True)
