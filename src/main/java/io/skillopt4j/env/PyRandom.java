package io.skillopt4j.env;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Not thread-safe; one instance per shuffle, as upstream uses {@code random.Random(seed)}. An exact port of CPython's
 * MT19937 {@code random.Random}, so a seed gives the same splits and shuffles as Python SkillOpt.
 */
public final class PyRandom {
    private static final int N = 624;
    private static final int M = 397;
    private final int[] mt = new int[N];
    private int mti = N + 1;

    /** Seeds like {@code random.Random(seed)}. */
    public PyRandom(long seed) {
        this(BigInteger.valueOf(seed));
    }

    /** Seeds like {@code random.Random(seed)}: {@code init_by_array} over the 32-bit words of {@code abs(seed)}. */
    public PyRandom(BigInteger seed) {
        BigInteger n = seed.abs();
        int words = Math.max(1, (n.bitLength() + 31) / 32);
        int[] key = new int[words];
        for (int i = 0; i < words; i++) key[i] = n.shiftRight(32 * i).intValue();
        initByArray(key);
    }

    /** MT19937's init_genrand(19650218), where every init_by_array starts: computed once, copied per seed. */
    private static final int[] GENRAND_19650218 = genrand(19650218);

    private static int[] genrand(int s) {
        int[] state = new int[N];
        state[0] = s;
        for (int i = 1; i < N; i++) state[i] = 1812433253 * (state[i - 1] ^ (state[i - 1] >>> 30)) + i;
        return state;
    }

    private void initByArray(int[] key) {
        System.arraycopy(GENRAND_19650218, 0, mt, 0, N);
        mti = N;
        int i = 1;
        int j = 0;
        int k = Math.max(N, key.length);
        for (; k > 0; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1664525)) + key[j] + j;
            i++;
            j++;
            if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
            if (j >= key.length) j = 0;
        }
        for (k = N - 1; k > 0; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1566083941)) - i;
            i++;
            if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
        }
        mt[0] = 0x80000000;
    }

    /** Returns the next raw 32-bit output of MT19937 (as an unsigned value in a long). */
    long genrand() {
        int y;
        if (mti >= N) {
            int kk;
            for (kk = 0; kk < N - M; kk++) {
                y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7fffffff);
                mt[kk] = mt[kk + M] ^ (y >>> 1) ^ ((y & 1) != 0 ? 0x9908b0df : 0);
            }
            for (; kk < N - 1; kk++) {
                y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7fffffff);
                mt[kk] = mt[kk + (M - N)] ^ (y >>> 1) ^ ((y & 1) != 0 ? 0x9908b0df : 0);
            }
            y = (mt[N - 1] & 0x80000000) | (mt[0] & 0x7fffffff);
            mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ ((y & 1) != 0 ? 0x9908b0df : 0);
            mti = 0;
        }
        y = mt[mti++];
        y ^= (y >>> 11);
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        y ^= (y >>> 18);
        return y & 0xffffffffL;
    }

    /** {@code random.random()}: a double in [0, 1) with 53 random bits. */
    public double random() {
        long a = genrand() >>> 5;
        long b = genrand() >>> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }

    /** {@code random.getrandbits(k)} for k ≤ 63. */
    public long getrandbits(int k) {
        if (k < 0 || k > 63) throw new IllegalArgumentException("k must be in 0..63, got " + k);
        if (k == 0) return 0;
        if (k <= 32) return genrand() >>> (32 - k);
        long lo = genrand();
        long hi = genrand() >>> (64 - k);
        return (hi << 32) | lo;
    }

    /** {@code random._randbelow(n)}: uniform in [0, n) by rejection on {@code getrandbits(n.bit_length())}. */
    public long randbelow(long n) {
        if (n <= 0) throw new IllegalArgumentException("n must be positive, got " + n);
        int k = 64 - Long.numberOfLeadingZeros(n);
        long r = getrandbits(k);
        while (r >= n) r = getrandbits(k);
        return r;
    }

    /** {@code random.randrange(start, stop)} for a step of 1. */
    public long randrange(long start, long stop) {
        if (stop <= start) throw new IllegalArgumentException("empty range for randrange(" + start + ", " + stop + ")");
        return start + randbelow(stop - start);
    }

    /** {@code random.shuffle(list)}: Fisher–Yates from the end, in place. */
    public <T> void shuffle(List<T> list) {
        for (int i = list.size() - 1; i >= 1; i--) {
            Collections.swap(list, i, (int) randbelow(i + 1));
        }
    }

    /** Returns a shuffled copy (the original is untouched), as upstream's {@code items = list(x); rng.shuffle(items)}. */
    public <T> List<T> shuffled(List<T> list) {
        List<T> copy = new ArrayList<>(list);
        shuffle(copy);
        return copy;
    }

    /** {@code random.choice(seq)}. */
    public <T> T choice(List<T> seq) {
        if (seq.isEmpty()) throw new IndexError("Cannot choose from an empty sequence");
        return seq.get((int) randbelow(seq.size()));
    }

    /** {@code random.sample(population, k)} (both the pool and the set strategies, chosen as CPython does). */
    public <T> List<T> sample(List<T> population, int k) {
        int n = population.size();
        if (k < 0 || k > n) throw new IllegalArgumentException("Sample larger than population or is negative");
        List<T> result = new ArrayList<>(k);
        long setsize = 21;
        if (k > 5) setsize += (long) Math.pow(4, Math.ceil(Math.log(k * 3.0) / Math.log(4)));
        if (n <= setsize) {
            List<T> pool = new ArrayList<>(population);
            for (int i = 0; i < k; i++) {
                int j = (int) randbelow(n - i);
                result.add(pool.get(j));
                pool.set(j, pool.get(n - i - 1));
            }
        } else {
            Set<Integer> selected = new HashSet<>();
            for (int i = 0; i < k; i++) {
                int j = (int) randbelow(n);
                while (!selected.add(j)) j = (int) randbelow(n);
                result.add(population.get(j));
            }
        }
        return result;
    }

    /** Raised by {@link #choice} on an empty list, as Python's IndexError. */
    public static final class IndexError extends IllegalArgumentException {
        IndexError(String msg) { super(msg); }
    }
}
