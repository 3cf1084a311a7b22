package io.skillopt4j.env;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.backend.Backends;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.internal.Json;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each text and image benchmark rolls out its fixture through the real OpenAI-compatible backend against MockWebServer. */
class RealBackendRolloutTest {
    @TempDir Path tmp;
    MockWebServer server;
    final List<JsonNode> bodies = new CopyOnWriteArrayList<>();
    volatile Function<JsonNode, Map<String, Object>> answer = b -> message("<answer>?</answer>");

    @BeforeEach void start() throws Exception {
        server = new MockWebServer();
        server.setDispatcher(new Dispatcher() {
            @Override public MockResponse dispatch(RecordedRequest request) {
                JsonNode body = Json.tree(request.getBody().readUtf8());
                bodies.add(body);
                Map<String, Object> msg = answer.apply(body);
                return new MockResponse().setHeader("Content-Type", "application/json").setBody(Json.compact(Map.of(
                        "choices", List.of(Map.of("index", 0, "message", msg, "finish_reason", msg.containsKey("tool_calls") ? "tool_calls" : "stop")),
                        "usage", Map.of("prompt_tokens", 10, "completion_tokens", 2, "total_tokens", 12))));
            }
        });
        server.start();
    }

    @AfterEach void stop() throws Exception { server.shutdown(); }

    static Map<String, Object> message(String text) { return Map.of("role", "assistant", "content", text); }

    /** The text of the last user message (string content or the text parts). */
    static String lastUser(JsonNode body) {
        JsonNode msgs = body.path("messages");
        for (int i = msgs.size() - 1; i >= 0; i--) {
            JsonNode m = msgs.get(i);
            if (!m.path("role").asText().equals("user")) continue;
            JsonNode c = m.path("content");
            if (c.isTextual()) return c.asText();
            StringBuilder sb = new StringBuilder();
            c.forEach(p -> { if (p.path("type").asText().equals("text")) sb.append(p.path("text").asText()); });
            return sb.toString();
        }
        return "";
    }

    private Benchmark bench(String name, Map<String, Object> extra) {
        Map<String, Object> cfg = new HashMap<>(Map.of("optimizer_backend", "openai_compatible", "target_backend", "openai_compatible",
                "optimizer_model", "judge-sim", "target_model", "target-sim", "openai_compatible_base_url", server.url("/v1/").toString(),
                "split_mode", "split_dir"));
        cfg.putAll(extra);
        FlatConfig fc = FlatConfig.of(cfg);
        ModelRoles roles = Backends.roles(fc, Map.of());
        return Benchmarks.create(name, new BenchmarkContext(fc, roles, tmp.resolve(name)));
    }

    private List<Double> run(Benchmark b) {
        return b.rollout(new RolloutRequest(EnvFixtures.all(b), "Check your work.", tmp.resolve(b.name() + "-rollout"), false))
                .stream().map(RolloutResult::hard).toList();
    }

    @Test
    void searchqa_and_livemath_roll_out_over_http() {
        answer = b -> message(lastUser(b).contains("Ishmael") || lastUser(b).contains("Danish") ? "<answer>Moby Dick</answer>" : "<answer>Euclid</answer>");
        assertEquals(List.of(1.0, 0.0, 1.0, 0.0, 0.0, 0.0), run(bench("searchqa", Map.of("split_dir", EnvFixtures.resource("searchqa").toString()))));
        assertEquals("target-sim", bodies.get(0).path("model").asText());
        assertTrue(bodies.get(0).path("messages").get(0).path("content").asText().contains("## Skill\nCheck your work."));
        bodies.clear();
        answer = b -> message("<answer>" + (lastUser(b).contains(". n!") ? lastUser(b).replaceAll("(?s).*\\n([A-D])\\. n!\\n.*", "$1") : "A") + "</answer>");
        List<Double> lm = run(bench("livemathematicianbench", Map.of("split_dir", EnvFixtures.resource("livemath").toString())));
        assertEquals(6, lm.size());
        assertEquals(1.0, lm.get(0), "the n! option is found wherever the shuffle put it");
    }

    @Test
    void officeqa_tool_calls_round_trip_over_http() {
        answer = b -> {
            boolean toolDone = false;
            for (JsonNode m : b.path("messages")) if (m.path("role").asText().equals("tool")) toolDone = true;
            if (!toolDone) {
                return Map.of("role", "assistant", "content", "", "tool_calls", List.of(Map.of("id", "call_1", "type", "function",
                        "function", Map.of("name", "grep", "arguments", Json.compact(Map.of("pattern", "debt", "path", "treasury_bulletin_1944_01.txt"))))));
            }
            return message("<answer>165,877</answer>");
        };
        List<Double> hard = run(bench("officeqa", Map.of("split_dir", EnvFixtures.resource("officeqa").toString(),
                "data_dirs", List.of(EnvFixtures.resource("officeqa_docs").toString()), "max_tool_turns", 3)));
        assertEquals(List.of(1.0, 0.0, 0.0, 0.0, 0.0, 0.0), hard);
        JsonNode second = bodies.stream().filter(b -> b.path("messages").size() > 2).findFirst().orElseThrow();
        assertEquals(3, second.path("tools").size());
        assertTrue(second.toString().contains("\"tool_call_id\":\"call_1\""), second.toString());
    }

    @Test
    void sealqa_uses_the_judge_model_over_http() {
        answer = b -> {
            String u = lastUser(b);
            if (u.startsWith("Grade a predicted answer")) return message(u.contains("Gold target: 274\n") ? "A" : "B");
            return message("<answer>274</answer>");
        };
        assertEquals(List.of(1.0, 0.0, 0.0, 0.0, 0.0, 0.0), run(bench("sealqa", Map.of("split_dir", EnvFixtures.resource("sealqa").toString(),
                "judge_model", "grader-x"))));
        assertTrue(bodies.stream().anyMatch(b -> b.path("model").asText().equals("grader-x")), "judge_model is sent as the model");
    }

    @Test
    void image_benchmarks_send_data_urls_with_image_detail_over_http() {
        String root = EnvFixtures.resource("images").getParent().toString();
        answer = b -> message(lastUser(b).contains("invoice") ? "<answer>INV-2041</answer>" : "<answer>B</answer>");
        assertEquals(List.of(1.0, 0.0, 0.0, 0.0, 0.0, 0.0), run(bench("docvqa", Map.of("split_dir", EnvFixtures.resource("docvqa").toString(),
                "data_root", root, "image_detail", "high"))));
        JsonNode image = bodies.get(0).path("messages").get(1).path("content").get(1);
        assertTrue(image.path("image_url").path("url").asText().startsWith("data:image/png;base64,"));
        assertEquals("high", image.path("image_url").path("detail").asText());
        for (String name : List.of("mathverse", "mmrb", "babyvision")) {
            bodies.clear();
            answer = b -> message(lastUser(b).startsWith("Grade a predicted answer") ? "B" : "<answer>B</answer>");
            List<Double> hard = run(bench(name, Map.of("split_dir", EnvFixtures.resource(name).toString(), "data_root", root)));
            assertEquals(6, hard.size(), name);
            assertTrue(hard.contains(1.0) && hard.contains(0.0), name + " " + hard);
            assertTrue(bodies.stream().anyMatch(b -> b.toString().contains("data:image/png;base64,")), name);
        }
    }
}
