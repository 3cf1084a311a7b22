package io.skillopt4j.env;

import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PyRandomTest {

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> cases() throws Exception {
        try (InputStream in = PyRandomTest.class.getResourceAsStream("/env/pyrandom_vectors.json")) {
            Map<String, Object> root = Json.parseObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            return (List<Map<String, Object>>) root.get("cases");
        }
    }

    private static PyRandom rng(Map<String, Object> c) { return new PyRandom(new BigInteger((String) c.get("seed"))); }

    private static List<Integer> range(int n) { return new ArrayList<>(IntStream.range(0, n).boxed().toList()); }

    private static List<Long> longs(Object o) {
        List<Long> out = new ArrayList<>();
        for (Object x : (List<?>) o) out.add(((Number) x).longValue());
        return out;
    }

    @Test
    void shuffle_of_range_ten_with_seed_42_matches_the_reference_order() {
        List<Integer> xs = range(10);
        new PyRandom(42).shuffle(xs);
        assertEquals(List.of(7, 3, 2, 8, 5, 6, 9, 4, 0, 1), xs);
        List<Integer> ys = range(10);
        new PyRandom(7).shuffle(ys);
        assertEquals(List.of(8, 3, 1, 4, 7, 0, 9, 6, 2, 5), ys);
    }

    @Test
    void random_doubles_equal_cpython_bit_for_bit() throws Exception {
        for (Map<String, Object> c : cases()) {
            PyRandom r = rng(c);
            for (Object expected : (List<?>) c.get("random")) {
                assertEquals(Double.parseDouble((String) expected), r.random(), 0.0, "seed " + c.get("seed"));
            }
        }
    }

    @Test
    void getrandbits_and_randbelow_equal_cpython() throws Exception {
        for (Map<String, Object> c : cases()) {
            PyRandom r = rng(c);
            for (Object pair : (List<?>) c.get("getrandbits")) {
                List<Long> p = longs(pair);
                assertEquals(p.get(1), r.getrandbits(p.get(0).intValue()), "seed " + c.get("seed") + " k=" + p.get(0));
            }
            PyRandom r2 = rng(c);
            for (Object pair : (List<?>) c.get("randbelow")) {
                List<Long> p = longs(pair);
                assertEquals(p.get(1), r2.randbelow(p.get(0)), "seed " + c.get("seed") + " n=" + p.get(0));
            }
        }
    }

    @Test
    void shuffles_of_several_sizes_equal_cpython_for_every_seed() throws Exception {
        for (Map<String, Object> c : cases()) {
            for (int size : new int[] {10, 37, 700}) {
                List<Integer> xs = range(size);
                rng(c).shuffle(xs);
                List<Long> got = xs.stream().map(Integer::longValue).toList();
                assertEquals(longs(c.get("shuffle" + size)), got, "seed " + c.get("seed") + " size " + size);
            }
        }
    }

    @Test
    void choice_and_sample_equal_cpython() throws Exception {
        for (Map<String, Object> c : cases()) {
            PyRandom r = rng(c);
            List<Long> choices = new ArrayList<>();
            for (int n : new int[] {1, 5, 9, 1000}) choices.add((long) r.choice(range(n)));
            assertEquals(longs(c.get("choice")), choices);
            PyRandom s = rng(c);
            assertEquals(longs(c.get("sample_10_3")), s.sample(range(10), 3).stream().map(Integer::longValue).toList());
            assertEquals(longs(c.get("sample_100_10")), s.sample(range(100), 10).stream().map(Integer::longValue).toList());
            assertEquals(longs(c.get("sample_1000_50")), s.sample(range(1000), 50).stream().map(Integer::longValue).toList());
        }
    }

    @Test
    void choice_from_an_empty_list_fails_like_python() {
        assertThrows(PyRandom.IndexError.class, () -> new PyRandom(1).choice(List.of()));
    }
}
