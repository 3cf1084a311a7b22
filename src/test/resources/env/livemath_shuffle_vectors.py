"""Prints LiveMathematicianBench choice-shuffle vectors: Random(int(sha256(f"{seed}:{id}")[:16], 16)).shuffle(labels).

Regenerate: python3 src/test/resources/env/livemath_shuffle_vectors.py > src/test/resources/env/livemath_shuffle_vectors.json
"""
import hashlib
import json
import random

out = []
for seed in (42, 1043, 2001, 7):
    for item_id in ("202511:1", "202512:17", "202601:3", "202602:40"):
        for n in (4, 5, 7):
            labels = [chr(ord("A") + i) for i in range(n)]
            rng = random.Random(int(hashlib.sha256(f"{seed}:{item_id}".encode("utf-8")).hexdigest()[:16], 16))
            rng.shuffle(labels)
            out.append({"seed": seed, "id": item_id, "n": n, "order": labels})
print(json.dumps(out))
