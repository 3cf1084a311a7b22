"""Prints CPython random.Random test vectors as JSON (stored as pyrandom_vectors.json).

Regenerate: python3 src/test/resources/env/pyrandom_vectors.py > src/test/resources/env/pyrandom_vectors.json
"""
import json
import random
import sys

SEEDS = [0, 1, 7, 42, 43, 1042, -5, 2**31 - 1, 2**32, 2**32 + 3, 12345678901234, 2**63 - 1, 2**64 - 1]
out = {"python": sys.version.split()[0], "cases": []}
for seed in SEEDS:
    case = {"seed": str(seed)}
    r = random.Random(seed)
    case["random"] = [repr(r.random()) for _ in range(5)]
    r = random.Random(seed)
    case["getrandbits"] = [[k, r.getrandbits(k)] for k in (1, 5, 31, 32, 33, 40, 63)]
    r = random.Random(seed)
    case["randbelow"] = [[n, r._randbelow(n)] for n in (1, 2, 3, 10, 100, 1000, 2**31 - 1, 2**40 + 7)]
    for size in (10, 37, 700):
        r = random.Random(seed)
        xs = list(range(size))
        r.shuffle(xs)
        case["shuffle%d" % size] = xs
    r = random.Random(seed)
    case["choice"] = [r.choice(list(range(n))) for n in (1, 5, 9, 1000)]
    r = random.Random(seed)
    case["sample_10_3"] = r.sample(range(10), 3)
    case["sample_100_10"] = r.sample(range(100), 10)
    case["sample_1000_50"] = r.sample(range(1000), 50)
    out["cases"].append(case)
print(json.dumps(out))
