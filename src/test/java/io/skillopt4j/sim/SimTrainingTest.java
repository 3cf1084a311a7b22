package io.skillopt4j.sim;

import io.skillopt4j.internal.Json;
import io.skillopt4j.train.TrainingResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/** The whole loop on the simulator: real trainer, real openai_compatible backend over HTTP, house-rules benchmark. */
class SimTrainingTest {
    private static double num(Map<String, Object> m, String k) { return ((Number) m.get(k)).doubleValue(); }

    @Test void demoConfigLearnsTheHouseRulesAndTheBestSkillBeatsTheInitialOneOnTest(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            TrainingResult r = SimEndToEnd.train(sim, SimEndToEnd.demoConfig(out), out);
            Map<String, Object> s = r.summary();
            assertTrue(num(s, "baseline_test_hard") < 0.35, "baseline " + s.get("baseline_test_hard"));
            assertTrue(num(s, "test_hard") > num(s, "baseline_test_hard") + 0.5, "test " + s.get("test_hard"));
            assertTrue(num(s, "best_selection_hard") > num(s, "baseline_selection_hard") + 0.5);
            assertTrue(num(s, "total_rejects") >= 1, "the gate should reject some candidates");
            assertTrue(num(s, "total_accepts") >= 3);
            String best = Files.readString(out.resolve("best_skill.md"));
            assertTrue(best.contains("YYYY-MM-DD") || best.contains("24-hour"), best);
            assertTrue(sim.requestsByStage().keySet().containsAll(List.of("target", "analyst_error", "analyst_success", "slow_update", "meta_skill")),
                    sim.requestsByStage().toString());
            // analysts see gold vs answer in the verification entry of training rollouts
            Path conv;
            try (Stream<Path> files = Files.walk(out.resolve("steps/step_0001/rollout/predictions"))) {
                conv = files.filter(p -> p.getFileName().toString().equals("conversation.json")).findFirst().orElseThrow();
            }
            assertTrue(Files.readString(conv).contains("Gold answer:"));
        }
    }

    @Test void sameSeedGivesTheSameRunFolderAtAnyConcurrency(@TempDir Path dir) throws Exception {
        Path a = dir.resolve("a"), b = dir.resolve("b");
        String[] small = {"env.limit=20", "train.batch_size=10"};
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            var serial = SimEndToEnd.demoConfig(a, concat(small, "env.workers=1", "gradient.analyst_workers=1"));
            SimEndToEnd.train(sim, serial, a);
        }
        try (SimServer sim = SimServer.builder().seed(7).latency(Latency.parse("0-3")).start()) {
            var parallel = SimEndToEnd.demoConfig(b, concat(small, "env.workers=8", "gradient.analyst_workers=4"));
            SimEndToEnd.train(sim, parallel, b);
        }
        Map<String, String> fa = snapshot(a), fb = snapshot(b);
        assertEquals(fa.keySet(), fb.keySet());
        for (String k : fa.keySet()) assertEquals(fa.get(k), fb.get(k), k);
        assertTrue(fa.size() > 50, "run folder has " + fa.size() + " files");
    }

    private static String[] concat(String[] a, String... b) {
        List<String> l = new ArrayList<>(List.of(a));
        l.addAll(List.of(b));
        return l.toArray(String[]::new);
    }

    /** Every file of a run folder, with timings, timestamps, concurrency knobs and the folder's own path removed. */
    static Map<String, String> snapshot(Path root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String rel = root.relativize(f).toString();
                if (rel.startsWith(".cache")) continue;
                // its attempts name sessions and item runs; summary.json's token_summary holds what it adds up to
                if (rel.equals(io.skillopt4j.backend.UsageJournal.FILE)) continue;
                String text = Files.readString(f).replace(root.toString(), "<ROOT>");
                if (rel.endsWith(".json")) text = Json.pretty(scrub(Json.parse(text)));
                else if (rel.endsWith(".jsonl")) {
                    List<String> lines = new ArrayList<>();
                    for (String line : text.split("\n")) if (!line.isBlank()) lines.add(Json.line(scrub(Json.parse(line))));
                    lines.sort(null); // results.jsonl is appended in completion order
                    text = String.join("\n", lines);
                }
                out.put(rel, text);
            }
        }
        return out;
    }

    private static Object scrub(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> o = new LinkedHashMap<>();
            m.forEach((k, x) -> {
                String key = String.valueOf(k);
                if (!key.matches("(?i).*(time|elapsed|wall|stamp|latency|duration|_s|_ms|workers).*")) o.put(key, scrub(x));
            });
            return o;
        }
        if (v instanceof List<?> l) return l.stream().map(SimTrainingTest::scrub).toList();
        return v;
    }
}
