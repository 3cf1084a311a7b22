"""Re-implements upstream SkillOpt's split logic (skillopt/datasets/base.py, SplitDataLoader) in a few lines and
prints expected ratio splits, train batches and epoch plans as JSON (stored as split_vectors.json).

Regenerate: python3 src/test/resources/env/split_vectors.py > src/test/resources/env/split_vectors.json
"""
import json
import math
import random


def ratio_counts(total, weights):
    s = float(sum(weights))
    raw = [total * w / s for w in weights]
    counts = [int(math.floor(r)) for r in raw]
    remaining = total - sum(counts)
    order = sorted(range(len(weights)), key=lambda i: (-(raw[i] - math.floor(raw[i])), -weights[i]))
    for i in order[:remaining]:
        counts[i] += 1
    return counts


def ratio_split(items, weights, seed):
    shuffled = list(items)
    random.Random(seed).shuffle(shuffled)
    a, b, c = ratio_counts(len(shuffled), weights)
    return shuffled[:a], shuffled[a:a + b], shuffled[a + b:a + b + c]


def build_train_batch(train, batch_size, seed):
    items = list(train)
    random.Random(seed).shuffle(items)
    return items[:batch_size]


def plan_train_epoch(train, epoch, steps, accum, batch_size, seed):
    base = seed + epoch * 1000
    items = list(train)
    random.Random(base).shuffle(items)
    out = []
    for idx in range(steps * max(1, accum)):
        chunk = items[idx * batch_size:(idx + 1) * batch_size]
        batch_seed = base + idx + 1
        if not chunk:
            refill = list(train)
            random.Random(batch_seed).shuffle(refill)
            chunk = refill[:batch_size]
        out.append({"seed": batch_seed, "ids": chunk})
    return out


out = {"counts": [], "ratio": [], "train_batch": [], "epochs": []}
for total, w in [(177, [2, 1, 7]), (10, [2, 1, 7]), (2000, [2, 1, 7]), (534, [2, 1, 7]), (7, [1, 1, 1]),
                 (5, [1, 1, 1]), (4, [1, 2, 1]), (1, [2, 1, 7]), (0, [2, 1, 7]), (246, [2, 1, 7]), (400, [3, 1, 1]),
                 (13, [5, 3, 2]), (11, [1, 1, 1])]:
    out["counts"].append({"total": total, "weights": w, "counts": ratio_counts(total, w)})
for n, w, seed in [(10, [2, 1, 7], 42), (10, [2, 1, 7], 7), (25, [3, 1, 1], 5), (177, [2, 1, 7], 42), (50, [1, 1, 1], 123),
                   (30, [2, 1, 7], 2**40 + 1)]:
    ids = ["q%d" % i for i in range(n)]
    tr, va, te = ratio_split(ids, w, seed)
    out["ratio"].append({"n": n, "weights": w, "seed": seed, "train": tr, "val": va, "test": te})
train = ["t%d" % i for i in range(23)]
for bs, seed in [(5, 42), (20, 2042), (40, 3042), (3, 7)]:
    out["train_batch"].append({"n": 23, "batch_size": bs, "seed": seed, "ids": build_train_batch(train, bs, seed)})
for epoch, steps, accum, bs, seed in [(1, 3, 1, 8, 42), (2, 3, 1, 8, 42), (1, 2, 2, 5, 7), (3, 4, 2, 4, 42), (1, 5, 1, 10, 42)]:
    out["epochs"].append({"n": 23, "epoch": epoch, "steps": steps, "accum": accum, "batch_size": bs, "seed": seed,
                          "batches": plan_train_epoch(train, epoch, steps, accum, bs, seed)})
print(json.dumps(out))
