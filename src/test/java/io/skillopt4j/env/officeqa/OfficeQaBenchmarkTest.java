package io.skillopt4j.env.officeqa;

import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.ChatMessage;
import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.ToolCall;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.env.EnvFixtures;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OfficeQaBenchmarkTest {
    @TempDir Path tmp;

    @Test
    void normalisation_drops_commas_units_and_most_punctuation() {
        assertEquals("165877", OfficeQaScore.normalize(" 165,877 Million Dollars"));
        assertEquals("1.98%", OfficeQaScore.normalize("1.98%"));
        assertEquals("-3.5 -ish", OfficeQaScore.normalize("-3.5 (billion-ish)!"), "- is a word boundary, so the unit word inside billion-ish goes too");
    }

    @Test
    void exact_match_and_f1_are_hand_checked() {
        assertEquals(1, OfficeQaScore.exactMatch("$165,877 million", "165877"));
        assertEquals(0, OfficeQaScore.exactMatch("1.98 percent", "1.98%"));
        assertEquals(2.0 / 3.0, OfficeQaScore.f1("1.98 percent", "1.98"), 1e-12, "p=1/2 r=1: f1 = 2·0.5·1/1.5");
        assertEquals(1.0, OfficeQaScore.f1("million", "dollars"), "both normalise to empty");
    }

    @Test
    void tools_stay_inside_the_roots_and_candidate_files() throws Exception {
        Path docs = EnvFixtures.resource("officeqa_docs");
        DocTools t = new DocTools(List.of(docs), Set.of("treasury_bulletin_1944_01.txt"));
        assertTrue(t.grep("PUBLIC DEBT", "treasury_bulletin_1944_01.txt").startsWith("2: Table 1. Public debt outstanding\n3: Total"));
        assertEquals("2: Table 1. Public debt outstanding\n", t.read("treasury_bulletin_1944_01.txt", 2, 1));
        assertTrue(t.read("treasury_bulletin_1950_06.txt", 1, 5).startsWith("error: path not allowed"));
        assertTrue(t.read("../officeqa/train/officeqa.csv", 1, 5).startsWith("error: path not allowed"));
        assertTrue(t.glob("*.txt").endsWith("treasury_bulletin_1944_01.txt"));
        java.util.Map<String, Object> args = new java.util.LinkedHashMap<>();
        args.put("path", "a.txt");
        args.put("start", 1);
        assertEquals("read(path='a.txt', start=1)", DocTools.render("read", args));
    }

    @Test
    void the_tool_loop_runs_end_to_end_with_oracle_pages_and_scores() throws Exception {
        List<ChatRequest> seen = new CopyOnWriteArrayList<>();
        ChatModel model = req -> {
            seen.add(req);
            String q = req.messages().get(1).content();
            boolean toolDone = req.messages().stream().anyMatch(m -> m.role().equals("tool"));
            if (q.contains("bulletin month")) return ChatResponse.of("I think it is June.", null);
            if (!toolDone) {
                String pattern = q.contains("total public debt") ? "Total public debt" : q.contains("gross receipts") ? "Gross receipts"
                        : q.contains("savings bond") ? "Savings bonds" : q.contains("interest rate") ? "interest rate" : "Interest-bearing";
                String file = q.contains("1950") ? "treasury_bulletin_1950_06.txt" : "treasury_bulletin_1944_01.txt";
                return new ChatResponse("", List.of(new ToolCall("c1", "grep", Json.compact(Map.of("pattern", pattern, "path", file)))), null, Duration.ZERO, "", "");
            }
            String obs = req.messages().get(req.messages().size() - 1).content();
            String number = obs.replaceAll("(?s)^\\d+: [^:]*: ([0-9.,]+).*$", "$1");
            return ChatResponse.of("Found it.\n<answer>" + number + "</answer><answer>ignored</answer>", null);
        };
        Path res = EnvFixtures.resource("officeqa");
        Benchmark b = Benchmarks.create("officeqa", EnvFixtures.context(Map.of("split_dir", res.toString(),
                "data_dirs", List.of(EnvFixtures.resource("officeqa_docs").toString()), "max_tool_turns", 4), model, tmp));
        assertEquals(List.of("easy", "hard"), b.taskTypes());
        List<RolloutResult> rs = b.rollout(new RolloutRequest(EnvFixtures.all(b), "", tmp.resolve("r"), false));
        assertEquals(List.of("UID0001", "UID0002", "UID0003", "UID0004", "UID0005", "UID0006"), rs.stream().map(RolloutResult::id).toList());
        assertEquals(List.of(1.0, 1.0, 1.0, 0.0, 1.0, 0.0), rs.stream().map(RolloutResult::hard).toList());
        assertEquals("Model neither produced a tool request nor a final answer", rs.get(5).failReason());
        assertEquals(false, rs.get(5).fields().get("agent_ok"));
        assertEquals(true, rs.get(0).fields().get("oracle_parsed_pages_included"));
        String user0 = seen.stream().filter(r -> r.messages().get(1).content().contains("December 31, 1943")).findFirst().orElseThrow().messages().get(1).content();
        assertTrue(user0.contains("## Oracle Parsed Pages\n"), user0);
        assertTrue(user0.contains("| Item | Amount |\n| --- | --- |\n| Total public debt | 165,877 |"), user0);
        assertTrue(user0.contains("Footnote & notes") && !user0.contains("Other page"));
        assertTrue(user0.contains("## Candidate Files\n- /") && user0.contains("## Source Hints\n- https://fraser"));
        assertEquals(3, seen.get(0).tools().size());
        List<?> conv = (List<?>) Json.read(tmp.resolve("r/predictions/UID0001/conversation.json"));
        Map<?, ?> tool = (Map<?, ?>) conv.stream().filter(o -> "tool_call".equals(((Map<?, ?>) o).get("type"))).findFirst().orElseThrow();
        assertEquals("grep(pattern='Total public debt', path='treasury_bulletin_1944_01.txt')".length(), String.valueOf(tool.get("cmd")).length());
    }

    @Test
    void a_missing_document_folder_fails_before_any_model_call() {
        ConfigException e = assertThrows(ConfigException.class, () -> Benchmarks.create("officeqa", EnvFixtures.context(Map.of(
                "split_dir", EnvFixtures.resource("officeqa").toString(), "data_dirs", tmp.resolve("none").toString()),
                new EnvFixtures.Scripted(r -> { throw new AssertionError("no model call expected"); }), tmp)));
        assertTrue(e.getMessage().startsWith("officeqa: no document folder found"), e.getMessage());
    }
}
