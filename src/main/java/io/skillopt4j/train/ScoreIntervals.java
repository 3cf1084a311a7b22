package io.skillopt4j.train;

import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.internal.Json;
import io.skillopt4j.train.stats.Interval;
import io.skillopt4j.train.stats.PairedBootstrap;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Stateless. 95 % intervals of mean hard scores and paired gains; a fixed seed makes them the same each time. */
public final class ScoreIntervals {
    /** Each bound's one-sided confidence: together a two-sided 95 % interval. */
    public static final double CONFIDENCE = 0.975;
    private static final long SEED = 20_240_601L;

    private ScoreIntervals() {}

    /** The interval of the mean hard score of {@code rows} (several rows of one item id are its repeats). */
    public static Interval hard(List<RolloutResult> rows) {
        return PairedBootstrap.seeded(SEED).score(byItem(rows).values().toArray(double[][]::new), CONFIDENCE);
    }

    /** The paired interval of mean hard {@code after} − {@code before}, over the item ids both scored. */
    public static Interval gain(List<RolloutResult> after, List<RolloutResult> before) {
        Map<String, double[]> a = byItem(after), b = byItem(before);
        List<double[]> d = new ArrayList<>();
        a.forEach((id, v) -> { if (b.containsKey(id)) d.add(new double[] {mean(v) - mean(b.get(id))}); });
        return PairedBootstrap.seeded(SEED).score(d.toArray(double[][]::new), CONFIDENCE);
    }

    /** The scored rows of an evaluation folder and of its repeat folders ({@code <dir>_r2}, ...); empty when none. */
    public static List<RolloutResult> rowsIn(Path dir) {
        List<RolloutResult> out = new ArrayList<>();
        for (int r = 1; ; r++) {
            Path f = SelectionEval.repeatDir(dir, r).resolve("results.jsonl");
            if (!Files.isRegularFile(f)) break;
            try {
                for (Map<String, Object> m : Json.readObjectLines(f)) {
                    RolloutResult x = RolloutResult.fromJson(m);
                    if (!x.isErrored()) out.add(x);
                }
            } catch (RuntimeException e) {
                break; // an unreadable file shows no interval rather than a wrong one
            }
        }
        return out;
    }

    /** A map of a score's interval for JSON: {estimate, interval: [low, high], items, repeats}; null when unknown. */
    public static Map<String, Object> json(Interval ci) {
        if (ci == null || !ci.known()) return null;
        return Json.obj("estimate", StepRecord.round(ci.estimate(), 6), "interval", ci.bounds(),
                "items", ci.items(), "repeats", ci.repeats());
    }

    // by item id, not by row order: rows land in completion order, which differs between runs of the same items
    private static Map<String, double[]> byItem(List<RolloutResult> rows) {
        Map<String, List<Double>> m = new java.util.TreeMap<>();
        for (RolloutResult r : rows) if (!r.isErrored()) m.computeIfAbsent(r.id(), k -> new ArrayList<>()).add(r.hard());
        Map<String, double[]> out = new java.util.TreeMap<>();
        m.forEach((id, l) -> out.put(id, l.stream().mapToDouble(Double::doubleValue).toArray()));
        return out;
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) s += x;
        return s / v.length;
    }
}
