package io.skillopt4j.env.searchqa;

import io.skillopt4j.ConfigException;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.env.EnvFixtures;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SearchQaBenchmarkTest {
    @TempDir Path tmp;

    @Test
    void gradeIsTheThreeMeasuresTogether() {
        List<String> preds = List.of("Marta Ilves", "the Marta  Ilves!", "Ilves", "", "a", "Osk and Corvin", "Tomas Reed");
        List<List<String>> goldSets = List.of(List.of("Marta Ilves"), List.of("Osk", "Corvin"), List.of(), List.of(""), List.of("An Ilves", "reed"));
        for (String p : preds) for (List<String> g : goldSets) {
            SquadScore.Grade grade = SquadScore.grade(p, g);
            assertEquals(SquadScore.exactMatch(p, g), grade.em(), p + " / " + g);
            assertEquals(SquadScore.f1(p, g), grade.f1(), p + " / " + g);
            assertEquals(SquadScore.subExactMatch(p, g), grade.subEm(), p + " / " + g);
        }
    }

    @Test
    void squad_normalisation_handles_case_punctuation_articles_and_whitespace() {
        assertEquals("nileriver", SquadScore.normalize("The  Nile-River!"), "punctuation is deleted, not spaced");
        assertEquals("mobydick", SquadScore.normalize("Moby-Dick"));
        assertEquals("moby dick", SquadScore.normalize("Moby\tDick"));
        assertEquals("theater", SquadScore.normalize("the Theater"));
        assertEquals("", SquadScore.normalize(" A an THE "));
        assertEquals("café", SquadScore.normalize("Café."));
    }

    @Test
    void exact_match_f1_and_sub_em_follow_squad() {
        assertEquals(1, SquadScore.exactMatch("the nile", List.of("Nile River", "Nile")));
        assertEquals(0, SquadScore.exactMatch("Nile", List.of("Nile River")));
        assertEquals(2.0 / 3.0, SquadScore.f1("Nile", List.of("Nile River")), 1e-12);
        assertEquals(1.0, SquadScore.f1("nile river", List.of("x", "The Nile River")), 1e-12);
        assertEquals(0.5, SquadScore.f1("a b c d", List.of("a b")), 1e-12, "'a' is an article: pred [b c d], gold [b]: p=1/3 r=1");
        assertEquals(0.0, SquadScore.f1("", List.of("Nile")));
        assertEquals(1.0, SquadScore.f1("the", List.of("an")), "both normalise to empty");
        assertEquals(6.0 / 7.0, SquadScore.f1("go go go gone", List.of("go go gone")), 1e-12, "multiset overlap 3: p=3/4 r=1");
        assertEquals(1, SquadScore.subExactMatch("river nile delta", List.of("Nile")));
        assertEquals(0, SquadScore.subExactMatch("", List.of("Nile")));
    }

    @Test
    void long_contexts_keep_whole_doc_chunks_or_hard_cut() {
        String chunk = "[DOC] " + "x".repeat(2500);
        assertEquals(chunk + chunk, SearchQaBenchmark.truncateContext(chunk + chunk + chunk));
        String huge = "[DOC] " + "y".repeat(7000);
        String cut = SearchQaBenchmark.truncateContext(huge);
        assertEquals(6000 + "...[truncated]".length(), cut.length());
        assertEquals("short", SearchQaBenchmark.truncateContext("short"));
    }

    @Test
    void a_fixture_rollout_scores_answers_and_writes_the_evaluation_block() throws Exception {
        EnvFixtures.Scripted model = new EnvFixtures.Scripted(req -> {
            String u = req.lastUserText();
            if (u.contains("Ishmael")) return "It is the Melville novel.\n<answer>Moby Dick</answer>";
            if (u.contains("Cairo")) return "Nile";
            return "<answer>no idea</answer>";
        });
        Benchmark b = Benchmarks.create("searchqa", EnvFixtures.context(
                Map.of("split_mode", "split_dir", "split_dir", EnvFixtures.resource("searchqa").toString()), model, tmp));
        List<RolloutResult> rs = b.rollout(new RolloutRequest(EnvFixtures.all(b), "Be brief.", tmp.resolve("r"), false));
        assertEquals(6, rs.size());
        RolloutResult moby = rs.get(2);
        assertEquals("c3d5", moby.id());
        assertEquals(1.0, moby.hard());
        assertEquals(1.0, moby.soft());
        RolloutResult nile = rs.get(4);
        assertEquals(1.0, nile.hard(), "last line fallback + article removal");
        RolloutResult euclid = rs.get(0);
        assertEquals(0.0, euclid.hard());
        assertEquals("EM=0: predicted 'no idea' but expected ['Euclid']", euclid.failReason());
        assertTrue(model.requests.get(0).systemText().contains("## Skill\nBe brief.\n\n"));
        assertTrue(model.requests.get(0).lastUserText().startsWith("## Context\n"));
        List<?> conv = (List<?>) Json.read(tmp.resolve("r/predictions/c3d5/conversation.json"));
        assertTrue(String.valueOf(((Map<?, ?>) conv.get(conv.size() - 1)).get("content")).startsWith("[EVALUATION RESULT]"));
        assertTrue(Files.readString(tmp.resolve("r/predictions/c3d5/target_user_prompt.txt")).contains("Call me Ishmael"));
    }

    @Test
    void analyst_prompts_add_the_domain_and_failure_taxonomy_to_the_generic_ones() {
        Benchmark b = Benchmarks.create("searchqa", EnvFixtures.context(
                Map.of("split_mode", "split_dir", "split_dir", EnvFixtures.resource("searchqa").toString()), new EnvFixtures.Scripted(r -> ""), tmp));
        String error = b.prompt("analyst_error").orElseThrow();
        assertTrue(error.startsWith("You are the error analyst"), error);
        assertTrue(error.contains("## Benchmark\nThe tasks are Jeopardy-style trivia clues"));
        assertTrue(error.contains("Use these failure types in failure_summary: rule_missing, rule_wrong, rule_ignored, answer_format, other."));
        assertTrue(b.prompt("analyst_success").orElseThrow().contains("## Benchmark\n"));
        assertTrue(b.prompt("merge").isEmpty());
    }

    @Test
    void a_row_without_answers_is_reported_with_file_index_and_field() throws Exception {
        Path dir = tmp.resolve("bad");
        for (String s : List.of("train", "val", "test")) {
            Files.createDirectories(dir.resolve(s));
            Files.writeString(dir.resolve(s).resolve("items.json"), "[{\"id\": \"x\", \"question\": \"q\", \"context\": \"c\", \"answers\": [\"a\"]}]");
        }
        Files.writeString(dir.resolve("val/items.json"), "[{\"id\": \"x\", \"question\": \"q\", \"context\": \"c\", \"answers\": [\"a\"]}, {\"id\": \"y\", \"question\": \"q\"}]");
        ConfigException e = assertThrows(ConfigException.class, () -> Benchmarks.create("searchqa",
                EnvFixtures.context(Map.of("split_mode", "split_dir", "split_dir", dir.toString()), new EnvFixtures.Scripted(r -> ""), tmp)));
        assertEquals(dir.resolve("val/items.json") + ": item 1: field \"answer\" missing (expected a list of strings)", e.getMessage());
    }
}
