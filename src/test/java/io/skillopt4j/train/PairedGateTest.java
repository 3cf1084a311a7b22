package io.skillopt4j.train;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.DataLoader;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.env.SplitDataLoader;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The honest gate's wiring: both skills evaluated side by side on a noisy target, repeats, the decision. */
class PairedGateTest {
    @TempDir Path tmp;

    static final String BASE = "# Skill\n\n## Rules\n- RULE:alpha\n";

    /**
     * Thread-safe. A target that answers item i right iff the skill holds {@code RULE:<keyword>}, each answer flipped
     * with probability {@code noise}, drawn from (seed, skill, item, how often that request was seen): as the shared
     * fake LLM, a repeated request gets a fresh draw.
     */
    static final class NoisyBench implements Benchmark {
        final SplitDataLoader loader;
        final double noise;
        final long seed;
        final AtomicInteger calls = new AtomicInteger();
        final Map<String, Integer> seen = new ConcurrentHashMap<>();

        NoisyBench(int valN, double noise, long seed) {
            this.loader = SplitDataLoader.of("noisy", TestBench.items("tr", 6, 0), TestBench.items("va", valN, 1), TestBench.items("te", 6, 2));
            this.noise = noise;
            this.seed = seed;
        }

        @Override public String name() { return "noisy"; }
        @Override public int workers() { return 1; }
        @Override public DataLoader data() { return loader; }
        @Override public List<String> taskTypes() { return List.of("even", "odd"); }

        @Override public List<RolloutResult> rollout(RolloutRequest req) {
            List<RolloutResult> out = new ArrayList<>();
            for (Item item : req.batch().items()) {
                calls.incrementAndGet();
                String key = req.skill() + "\u0000" + item.id();
                int n = seen.merge(key, 1, Integer::sum);
                boolean ok = req.skill().contains("RULE:" + item.str("keyword"));
                if (new SplittableRandom(seed * 31 + (key + n).hashCode()).nextDouble() < noise) ok = !ok;
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("task_type", item.str("task_type"));
                RolloutResult r = new RolloutResult(item.id(), ok ? 1 : 0, ok ? 1.0 : 0.0, f);
                AtomicFiles.appendLine(req.outDir().resolve("results.jsonl"), Json.line(r.toJson()));
                out.add(r);
            }
            return out;
        }
    }

    private PairedGate.Comparison compare(NoisyBench b, TrainSettings s, String candidate, String current, String dir) {
        RunState st = new RunState(current, new EditBudgetSchedule("constant", 4, 2, 1));
        SelectionEval sel = new SelectionEval(s, b.data(), new Rollout(b), st);
        return new PairedGate(s, sel, new Gate(s)).compare(candidate, tmp.resolve(dir).resolve("selection_eval"), current,
                tmp.resolve(dir).resolve("selection_eval_current"));
    }

    private static TrainSettings honest(Object... more) {
        List<Object> kv = new ArrayList<>(List.of("gate_test", "paired_bootstrap", "gate_confidence", 0.9, "eval_repeats", 2,
                "adaptive_repeats", true, "max_repeats", 6));
        kv.addAll(List.of(more));
        return Stages.settings(kv.toArray());
    }

    @Test
    void aCandidateBetterOnlyByNoiseIsRejected() {
        // the candidate's extra line changes no answer: any gain it shows is the target's noise
        int accepted = 0;
        for (long seed = 1; seed <= 20; seed++) {
            NoisyBench b = new NoisyBench(24, 0.25, seed);
            if (compare(b, honest(), BASE + "- Read carefully.\n", BASE, "s" + seed).accepted()) accepted++;
        }
        assertTrue(accepted <= 1, "accepted " + accepted + " of 20 noise-only candidates");
    }

    @Test
    void aLargeTrueGainIsAccepted() {
        NoisyBench b = new NoisyBench(24, 0.1, 3);
        PairedGate.Comparison c = compare(b, honest(), BASE + "- RULE:beta\n- RULE:gamma\n", BASE, "gain");
        assertTrue(c.accepted(), c.test().toString());
        assertTrue(c.test().interval().low() > 0);
        assertEquals(0.9, c.test().interval().estimate() / (8.0 / 24), 0.35); // about 8 of 24 items gained, less the noise
        assertEquals("paired_bootstrap", c.fields().get("gate_test"));
        assertEquals(c.repeats(), c.fields().get("gate_repeats"));
    }

    @Test
    void anUnchangedCandidateIsRejectedWithoutAnyEvaluation() {
        NoisyBench b = new NoisyBench(12, 0.3, 5);
        PairedGate.Comparison c = compare(b, honest(), BASE, BASE, "same");
        assertFalse(c.accepted());
        assertTrue(c.unchanged());
        assertEquals(0.0, c.test().interval().high());
        assertEquals(1.0, c.test().pValue());
        assertEquals(0, b.calls.get()); // the same text cannot be better than itself: no call at all
        assertEquals(0, c.repeats());
        assertEquals("unchanged_candidate", c.fields().get("gate_skipped"));
        assertFalse(java.nio.file.Files.exists(tmp.resolve("same")));
        assertTrue(PairedGate.detail(c).contains("rejected without evaluation"), PairedGate.detail(c));
    }

    @Test
    void repeatsAreFreshRequestsInTheirOwnFoldersAndAClearLossStopsAtTheFirstLook() {
        NoisyBench b = new NoisyBench(12, 0.0, 1);
        PairedGate.Comparison c = compare(b, honest(), "# Skill\n", BASE, "loss"); // drops the rule: a sure loss
        assertFalse(c.accepted());
        assertEquals(2, c.repeats());
        assertEquals(48, b.calls.get()); // 12 items x 2 repeats x 2 skills
        assertTrue(java.nio.file.Files.isRegularFile(tmp.resolve("loss/selection_eval_r2/results.jsonl")));
        assertTrue(java.nio.file.Files.isRegularFile(tmp.resolve("loss/selection_eval_current_r2/results.jsonl")));
        assertEquals(24, ScoreIntervals.rowsIn(tmp.resolve("loss/selection_eval")).size());
    }

    @Test
    void anUnclearCandidateGetsMoreRepeatsUpToTheCap() {
        int capped = 0;
        for (long seed = 1; seed <= 5; seed++) {
            NoisyBench b = new NoisyBench(12, 0.3, seed);
            PairedGate.Comparison c = compare(b, honest(), BASE + "- Read carefully.\n", BASE, "u" + seed);
            assertTrue(c.repeats() >= 2 && c.repeats() <= 6);
            if (c.repeats() == 6) capped++;
        }
        assertTrue(capped >= 1, "no noise-only comparison went to the cap");
    }

    @Test
    void badSettingsNameTheKey() {
        ConfigException e = assertThrows(ConfigException.class, () -> GateSettings.from(FlatConfig.of(Map.of("gate_test", "bootstrap"))));
        assertEquals("evaluation.gate_test must be one of none, paired_bootstrap, got \"bootstrap\"", e.getMessage());
        assertThrows(ConfigException.class, () -> GateSettings.from(FlatConfig.of(Map.of("gate_confidence", 1.0))));
        assertThrows(ConfigException.class, () -> GateSettings.from(FlatConfig.of(Map.of("eval_repeats", 0))));
        assertThrows(ConfigException.class, () -> GateSettings.from(FlatConfig.of(Map.of("gate_test", "paired_bootstrap", "adaptive_repeats", true,
                "eval_repeats", 3, "max_repeats", 2))));
        // only the paired test looks again: repeats above the adaptive cap are no error under SkillOpt's comparison
        assertEquals(10, GateSettings.from(FlatConfig.of(Map.of("eval_repeats", 10))).repeats());
        GateSettings paired = GateSettings.from(FlatConfig.of(Map.of("gate_test", "paired_bootstrap", "eval_repeats", 2)));
        assertEquals(0.95, paired.confidence());
        assertTrue(paired.adaptive());
        assertEquals(8, paired.maxRepeats());
        GateSettings d = GateSettings.from(FlatConfig.empty());
        assertEquals(GateSettings.none().test(), d.test());
        assertEquals(1, d.repeats());
        assertEquals(0.98, PairedGate.lookConfidence(new GateSettings("paired_bootstrap", 0.9, 2, true, 6)), 1e-12);
    }
}
