package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.env.RolloutResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Immutable lists of mutable maps. A step's reflect results in batch order. */
record StepPatches(List<RolloutResult> all, List<Map<String, Object>> raws, List<Map<String, Object>> failures,
                   List<Map<String, Object>> successes) {
    /** Immutable. One batch's raw patches (minibatch order) and how long its reflect took. */
    record Reflected(List<Map<String, Object>> patches, long millis) {}

    /** Immutable lists. The step's rollouts, their reflects and each reflect's failure patches on their own. */
    record Rolled(List<Rollout.Outcome> outcomes, List<CompletableFuture<Reflected>> reflects,
                  List<CompletableFuture<List<Map<String, Object>>>> failureParts, long rolloutMillis) {}

    /** Immutable. The failure group's merge started before the success analysts were done, and the patches it merged. */
    record EarlyMerge(List<Map<String, Object>> failures, Map<String, Object> merged) {}

    /** The normalised failure patches of {@code parts} in batch order, as {@link #collect} sorts them. */
    static List<Map<String, Object>> failures(List<CompletableFuture<List<Map<String, Object>>>> parts, String key) {
        List<Map<String, Object>> out = new ArrayList<>(), successes = new ArrayList<>();
        for (CompletableFuture<List<Map<String, Object>>> part : parts) sort(part.join(), key, out, successes);
        return out;
    }

    /** Normalises {@code raws} (dropping those without a payload) into {@code failures} and {@code successes}, in order. */
    private static void sort(List<Map<String, Object>> raws, String key, List<Map<String, Object>> failures,
                             List<Map<String, Object>> successes) {
        for (Map<String, Object> raw : raws) {
            Map<String, Object> inner = Aggregate.normalise(raw, key);
            if (inner != null) ("success".equals(raw.get("source_type")) ? successes : failures).add(inner);
        }
    }

    /** Receives a finished stage's name, duration and detail line, and may throw {@link StopRequested} between batches. */
    interface StageSink {
        void finished(String name, long millis, String detail);
    }

    boolean isEmpty() { return failures.isEmpty() && successes.isEmpty(); }

    /** Waits for each batch's reflect in order, sorts its patches, fills the record's rollout and patch fields. */
    static StepPatches collect(StepContext c, Rolled rolled, TrainSettings s, StageSink sink) {
        String key = s.updateMode().payloadKey();
        List<RolloutResult> all = new ArrayList<>();
        List<Map<String, Object>> raws = new ArrayList<>(), failures = new ArrayList<>(), successes = new ArrayList<>();
        List<Map<String, Object>> batches = new ArrayList<>();
        long reflMs = 0;
        double hardSum = 0, softSum = 0;
        for (int a = 0; a < s.accumulation(); a++) {
            Rollout.Outcome out = rolled.outcomes().get(a);
            Reflected rf = Reflect.join(rolled.reflects().get(a));
            reflMs += rf.millis();
            int f0 = failures.size(), s0 = successes.size();
            sort(rf.patches(), key, failures, successes);
            int nf = failures.size() - f0, ns = successes.size() - s0;
            sink.finished("reflect", rf.millis(), nf + " failure + " + ns + " success patches");
            raws.addAll(rf.patches());
            all.addAll(out.results());
            hardSum += out.hard() * out.results().size();
            softSum += out.soft() * out.results().size();
            batches.add(Json.obj("batch_idx", a, // index inside the accumulation group, as upstream
                    "batch_seed", c.batch(a, s.accumulation()).seed(), "n_envs", out.results().size(),
                    "hard", out.hard(), "soft", out.soft(), "n_failure_patches", nf, "n_success_patches", ns));
        }
        int n = all.size();
        StepRecord rec = c.rec();
        rec.time("rollout_s", rolled.rolloutMillis());
        rec.time("reflect_s", reflMs);
        rec.putAll("rollout_hard", StepRecord.round(n == 0 ? 0 : hardSum / n, 6),
                "rollout_soft", StepRecord.round(n == 0 ? 0 : softSum / n, 6), "rollout_n", n, "accumulation_batches", batches,
                "n_patches", failures.size() + successes.size(), "n_failure_patches", failures.size(),
                "n_success_patches", successes.size());
        return new StepPatches(all, raws, failures, successes);
    }
}
