package io.skillopt4j.env.docvqa;

import io.skillopt4j.ConfigException;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.env.EnvFixtures;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DocVqaBenchmarkTest {
    @TempDir Path tmp;

    @Test
    void anls_matches_hand_computed_values() {
        assertEquals(1.0, Anls.score("  ACME   corp ", List.of("acme corp")));
        assertEquals(1 - 1.0 / 9, Anls.score("INV-2O41x", List.of("INV-2041x")), 1e-12, "one substitution in 9 chars");
        assertEquals(1 - 2.0 / 8, Anls.score("12500.00", List.of("1,250.00")), 1e-12, "insert + delete: d=2/8");
        assertEquals(0.0, Anls.score("abcd", List.of("wxyz")), "d = 1 ≥ 0.5");
        assertEquals(0.0, Anls.score("abcd", List.of("abzz")), "d = 0.5 is not < τ");
        assertEquals(1.0, Anls.score("", List.of("")));
        assertEquals(0.0, Anls.score("", List.of("x")));
        assertEquals(0.75, Anls.score("abcd", List.of("zzzz", "abcz")), 1e-12, "max over golds");
        assertEquals(3, Anls.levenshtein("kitten", "sitting"));
    }

    @Test
    void a_fixture_rollout_sends_the_page_as_a_data_url_and_scores_anls() throws Exception {
        EnvFixtures.Scripted model = new EnvFixtures.Scripted(req -> {
            String u = req.lastUserText();
            if (u.contains("invoice")) return "<answer>INV-2041</answer>";
            if (u.contains("signed")) return "<answer>R. ONeil</answer>";
            if (u.contains("heading")) return "The heading reads\nAnnual Reports";
            return "<answer>unknown</answer> <answer>nothing</answer>";
        });
        Path root = EnvFixtures.resource("docvqa").getParent();
        Benchmark b = Benchmarks.create("docvqa", EnvFixtures.context(Map.of("split_dir", root.resolve("docvqa").toString(),
                "data_root", root.toString(), "image_detail", "high"), model, tmp));
        assertEquals(List.of("form", "free_text", "handwritten|form", "layout", "table/list"), b.taskTypes());
        List<RolloutResult> rs = b.rollout(new RolloutRequest(EnvFixtures.all(b), "Read carefully.", tmp.resolve("r"), false));
        assertEquals(6, rs.size());
        assertEquals(1.0, rs.get(0).hard());
        assertEquals(0.0, rs.get(2).hard());
        assertEquals(1 - 1.0 / 9, rs.get(2).soft(), 1e-12);
        assertEquals(1 - 1.0 / 14, rs.get(4).soft(), 1e-12, "question's document_path gives the image; last-line fallback");
        assertEquals("form", rs.get(0).taskType());
        String url = model.requests.get(0).messages().get(1).imageUrls().get(0);
        assertTrue(url.startsWith("data:image/png;base64,iVBOR"), url.substring(0, 40));
        assertTrue(model.requests.get(0).lastUserText().endsWith("Return the final answer inside <answer>...</answer>."));
    }

    @Test
    void an_exec_target_gets_the_page_image_file_and_a_blind_one_is_refused_at_start() throws Exception {
        java.util.List<io.skillopt4j.backend.ExecTask> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        io.skillopt4j.backend.ExecAgent agent = new io.skillopt4j.backend.ExecAgent() {
            @Override public io.skillopt4j.backend.ExecResult run(io.skillopt4j.backend.ExecTask t) {
                seen.add(t);
                return new io.skillopt4j.backend.ExecResult("x", "<answer>x</answer>", List.of(), io.skillopt4j.backend.Usage.ZERO,
                        java.time.Duration.ZERO, true, "");
            }
            @Override public String backend() { return "codex_exec"; }
        };
        EnvFixtures.Scripted chat = new EnvFixtures.Scripted(r -> "unused");
        Path root = EnvFixtures.resource("docvqa").getParent();
        Map<String, Object> cfg = Map.of("split_dir", root.resolve("docvqa").toString(), "data_root", root.toString());
        io.skillopt4j.env.BenchmarkContext ctx = new io.skillopt4j.env.BenchmarkContext(io.skillopt4j.config.FlatConfig.of(cfg),
                new io.skillopt4j.backend.ModelRoles(chat, chat, java.util.Optional.of(agent), null), tmp);
        Benchmark b = Benchmarks.create("docvqa", ctx);
        b.rollout(new RolloutRequest(EnvFixtures.all(b), "Read carefully.", tmp.resolve("r"), false));
        assertEquals(6, seen.size());
        for (io.skillopt4j.backend.ExecTask t : seen) {
            assertEquals(1, t.images().size());
            assertTrue(Files.isRegularFile(t.images().get(0)), t.images().toString());
            assertTrue(t.prompt().contains("attached in this workspace (see ATTACHMENTS.md)"), t.prompt());
        }
        assertTrue(chat.requests.isEmpty(), "nothing went to the chat model");

        io.skillopt4j.backend.ExecAgent blind = new io.skillopt4j.backend.ExecAgent() {
            @Override public io.skillopt4j.backend.ExecResult run(io.skillopt4j.backend.ExecTask t) { throw new AssertionError("never runs"); }
            @Override public String backend() { return "claude_code_exec"; }
            @Override public void requireInputs(boolean images, boolean dataDirs) {
                if (images) throw new ConfigException("claude_code_exec cannot see this benchmark's images without the Read tool");
            }
        };
        io.skillopt4j.env.BenchmarkContext blindCtx = new io.skillopt4j.env.BenchmarkContext(io.skillopt4j.config.FlatConfig.of(cfg),
                new io.skillopt4j.backend.ModelRoles(chat, chat, java.util.Optional.of(blind), null), tmp);
        assertThrows(ConfigException.class, () -> Benchmarks.create("docvqa", blindCtx));
    }

    @Test
    void a_missing_image_is_reported_with_file_index_and_field() throws Exception {
        Path dir = tmp.resolve("d");
        for (String s : List.of("train", "val", "test")) {
            Files.createDirectories(dir.resolve(s));
            Files.writeString(dir.resolve(s).resolve("x.csv"), "questionId,question,answer,image_path\n1,q,['a'],nope.png\n");
        }
        ConfigException e = assertThrows(ConfigException.class, () -> Benchmarks.create("docvqa", EnvFixtures.context(
                Map.of("split_dir", dir.toString(), "data_root", tmp.toString()), new EnvFixtures.Scripted(r -> ""), tmp)));
        assertTrue(e.getMessage().startsWith(dir.resolve("test/x.csv") + ": item 0: field \"image_path\" must be an existing image file")
                || e.getMessage().startsWith(dir.resolve("train/x.csv") + ": item 0: field \"image_path\""), e.getMessage());
    }
}
