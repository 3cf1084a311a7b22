package io.skillopt4j.train;

import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.backend.Usage;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.*;

/** History-record fields that must read as upstream writes them (issue #13, run-folder fields). */
class StepRecordFieldsTest {
    @TempDir Path tmp;
    private int runs;

    /** Runs one epoch with the scripted optimizer, letting {@code edit} rewrite each reply of a stage. */
    private List<Map<String, Object>> run(String stage, UnaryOperator<String> edit, Object... kv) throws Exception {
        Map<String, Object> c = TrainerEndToEndTest.baseConfig(TrainerEndToEndTest.initialSkill(tmp), 1);
        c.put("num_epochs", 1);
        c.put("use_slow_update", false);
        c.put("use_meta_skill", false);
        for (int i = 0; i < kv.length; i += 2) c.put((String) kv[i], kv[i + 1]);
        UsageMeter meter = new UsageMeter();
        ScriptedOptimizer scripted = new ScriptedOptimizer(meter);
        ChatModel opt = req -> {
            String text = scripted.chat(req).text();
            return ChatResponse.of(req.stage().equals(stage) ? edit.apply(text) : text, Usage.of(1, 1));
        };
        Path run = tmp.resolve("run" + (runs++ == 0 ? "" : String.valueOf(runs)));
        Trainer.builder().config(io.skillopt4j.config.RunConfig.from(FlatConfig.of(c), "")).roles(new ModelRoles(opt, opt, Optional.empty(), meter))
                .benchmark(new TestBench(12, 6, 6, 1, meter)).outRoot(run).build().train();
        @SuppressWarnings("unchecked") List<Map<String, Object>> h = (List<Map<String, Object>>) Json.read(run.resolve("history.json"));
        return h;
    }

    @Test
    void skipNoRewriteRecordsStillCarryTheCurrentSkillsHashAndLength() throws Exception {
        List<Map<String, Object>> h = run("rewrite", t -> "{\"reasoning\": \"nothing to say\"}", "skill_update_mode", "rewrite");
        Map<String, Object> first = h.get(0);
        assertEquals("skip_no_rewrite", first.get("action"));
        String skill = Files.readString(tmp.resolve("run/steps/step_0001/candidate_skill.md"));
        assertEquals(SkillDocument.hash(skill), first.get("candidate_hash"));
        assertEquals(SkillDocument.length(skill), first.get("candidate_skill_len"));
        assertEquals(Files.readString(tmp.resolve("init_skill.md")), skill, "the unchanged current skill");
    }

    @Test
    void supportCountsKeepTheReplysRawValuesAndSkipNonDictItems() throws Exception {
        // the merge reply gives support counts as a string, a float and not at all, plus a non-dict item
        List<Map<String, Object>> h = run("merge", t -> {
            Map<String, Object> m = Json.parseObject(t);
            Map<String, Object> a = new LinkedHashMap<>(Map.of("op", "append", "content", "- RULE:alpha", "support_count", "3"));
            Map<String, Object> b = new LinkedHashMap<>(Map.of("op", "append", "content", "- RULE:beta", "support_count", 2.0));
            Map<String, Object> d = new LinkedHashMap<>(Map.of("op", "append", "content", "- RULE:gamma"));
            m.put("edits", List.of(a, b, d));
            return Json.pretty(m);
        }, "edit_budget", 10, "lr_scheduler", "constant");
        Map<String, Object> rec = h.stream().filter(r -> r.containsKey("support_counts")).findFirst().orElseThrow();
        assertEquals(List.of("3", 2.0, 0), rec.get("support_counts"));
    }

    @Test
    void rewriteResultStoresTheNormalisedSkillAndAListChangeSummary() throws Exception {
        run("rewrite", t -> {
            Map<String, Object> m = Json.parseObject(t);
            m.put("new_skill", m.get("new_skill") + "\n\n   ");
            m.put("change_summary", Map.of("not", "a list"));
            return Json.pretty(m);
        }, "skill_update_mode", "rewrite");
        Map<?, ?> rr = (Map<?, ?>) Json.read(tmp.resolve("run/steps/step_0001/rewrite_result.json"));
        String ns = (String) rr.get("new_skill");
        assertTrue(ns.endsWith("\n") && !ns.endsWith("\n\n"), ns);
        assertEquals(List.of(), rr.get("change_summary"));
    }

    @Test
    void autonomousRawLearningRateIsTheCoercedDecision() throws Exception {
        List<Map<String, Object>> h = run("lr_autonomous", t -> "{\"learning_rate\": \"about 3\", \"reasoning\": \"r\"}",
                "lr_control_mode", "autonomous");
        Map<?, ?> d = (Map<?, ?>) h.get(0).get("lr_decision");
        assertEquals(3, d.get("raw_learning_rate"));
        List<Map<String, Object>> fb = run("lr_autonomous", t -> "{\"learning_rate\": true}", "lr_control_mode", "autonomous");
        Map<?, ?> f = (Map<?, ?>) fb.get(0).get("lr_decision");
        assertEquals(0, f.get("raw_learning_rate"));
        assertEquals(true, f.get("fallback"));
    }

    @Test
    void aPatchValueThatIsNotADictYieldsNoPatch() {
        assertNull(Aggregate.normalise(Map.of("patch", "oops", "edits", List.of(Map.of("op", "append"))), "edits"));
        Map<String, Object> inner = Aggregate.normalise(Map.of("batch_size", 3, "source_type", "success",
                "patch", Map.of("edits", List.of(Map.of("op", "append", "content", "x")))), "edits");
        assertEquals(List.of(Map.of("op", "append", "content", "x", "source_type", "success", "support_count", 3)), inner.get("edits"));
    }
}
