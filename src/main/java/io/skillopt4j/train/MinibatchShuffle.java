package io.skillopt4j.train;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Not thread-safe; one per shuffle. CPython's {@code random.Random(seed).shuffle} (MT19937 seeded through
 * {@code init_by_array} with the 32-bit words of |seed|), so reflect's minibatches match upstream's.
 */
final class MinibatchShuffle {
    private static final int N = 624;
    private final int[] mt = new int[N];
    private int mti;

    MinibatchShuffle(long seed) {
        BigInteger v = BigInteger.valueOf(seed).abs();
        List<Integer> key = new ArrayList<>();
        BigInteger mask = BigInteger.valueOf(0xffffffffL);
        do {
            key.add(v.and(mask).intValue());
            v = v.shiftRight(32);
        } while (v.signum() > 0);
        initByArray(key);
    }

    /** Returns a shuffled copy of {@code items}. */
    static <T> List<T> shuffled(List<T> items, long seed) {
        List<T> out = new ArrayList<>(items);
        MinibatchShuffle r = new MinibatchShuffle(seed);
        for (int i = out.size() - 1; i > 0; i--) Collections.swap(out, i, r.below(i + 1));
        return out;
    }

    private void initGenrand(int s) {
        mt[0] = s;
        for (mti = 1; mti < N; mti++) mt[mti] = 1812433253 * (mt[mti - 1] ^ (mt[mti - 1] >>> 30)) + mti;
    }

    private void initByArray(List<Integer> key) {
        initGenrand(19650218);
        int i = 1, j = 0;
        for (int k = Math.max(N, key.size()); k > 0; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1664525)) + key.get(j) + j;
            i++; j++;
            if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
            if (j >= key.size()) j = 0;
        }
        for (int k = N - 1; k > 0; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1566083941)) - i;
            i++;
            if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
        }
        mt[0] = 0x80000000;
    }

    private int next32() {
        if (mti >= N) {
            for (int kk = 0; kk < N; kk++) {
                int y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % N] & 0x7fffffff);
                mt[kk] = mt[(kk + 397) % N] ^ (y >>> 1) ^ ((y & 1) != 0 ? 0x9908b0df : 0);
            }
            mti = 0;
        }
        int y = mt[mti++];
        y ^= y >>> 11;
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        y ^= y >>> 18;
        return y;
    }

    /** CPython's {@code _randbelow}: rejection sampling on getrandbits(bit_length(n)). */
    int below(int n) {
        int k = 32 - Integer.numberOfLeadingZeros(n);
        long r;
        do { r = (next32() & 0xffffffffL) >>> (32 - k); } while (r >= n);
        return (int) r;
    }
}
