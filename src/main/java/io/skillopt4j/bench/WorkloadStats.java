package io.skillopt4j.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Immutable. The timing of one cold training run from its server's call log, as {@code ../shared/bench/workload_stats.py}
 * computes it, with the time no call was in flight by stage transition (last reply → next call).
 */
record WorkloadStats(int calls, double wallS, double startupS, double spanS, double idleS, int gaps, double largestGapMs,
                     Map<String, double[]> idleByTransition) {
    /** Immutable. One call: the stage label, request start and reply end (epoch seconds). */
    record Call(String label, double start, double end) {}

    /** Returns the per-call cost in the loop: first call → last reply over the number of calls, in ms. */
    double perCallMs() { return calls == 0 ? 0 : spanS * 1000 / calls; }

    /** The median of {@code values} (the middle two's mean for an even count). */
    static double median(double[] values) {
        double[] v = java.util.Arrays.stream(values).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    static WorkloadStats of(List<Call> log, double launch, double wall) {
        if (log.isEmpty()) return new WorkloadStats(0, wall, 0, 0, 0, 0, 0, Map.of());
        List<Call> rows = log.stream().sorted(Comparator.comparingDouble(Call::start)).toList();
        double first = rows.get(0).start(), last = rows.stream().mapToDouble(Call::end).max().orElse(first);
        // events sorted by time, ends before starts at the same instant (as the Python script sorts (t, -1) first)
        record Event(double t, int d, Call call) {}
        List<Event> ev = new ArrayList<>();
        for (Call c : rows) {
            ev.add(new Event(c.start(), 1, c));
            ev.add(new Event(c.end(), -1, c));
        }
        ev.sort(Comparator.comparingDouble(Event::t).thenComparingInt(Event::d));
        int inflight = 0, gaps = 0;
        double prev = Double.NaN, idle = 0, largest = 0;
        Call lastDone = null;
        Map<String, double[]> by = new LinkedHashMap<>();
        for (Event e : ev) {
            if (e.d() == 1 && inflight == 0 && !Double.isNaN(prev) && lastDone != null) {
                double g = e.t() - prev;
                double[] agg = by.computeIfAbsent(lastDone.label() + " -> " + e.call().label(), k -> new double[3]);
                agg[0]++;
                agg[1] += g * 1000;
                agg[2] = Math.max(agg[2], g * 1000);
                idle += g;
                gaps++;
                largest = Math.max(largest, g * 1000);
            }
            if (e.d() == -1) lastDone = e.call();
            inflight += e.d();
            prev = e.t();
        }
        Map<String, double[]> sorted = new LinkedHashMap<>();
        by.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue()[1], a.getValue()[1]))
                .forEach(x -> sorted.put(x.getKey(), x.getValue()));
        return new WorkloadStats(rows.size(), wall, first - launch, last - first, idle, gaps, largest, sorted);
    }
}
