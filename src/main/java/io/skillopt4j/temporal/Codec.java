package io.skillopt4j.temporal;

import io.skillopt4j.backend.ChatMessage;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.Usage;
import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.internal.Json;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Stateless. JSON shapes of what crosses the engine: chat requests and replies, items, batches, settled items. */
final class Codec {
    private Codec() {}

    /** True when {@code r} can run on a worker (plain messages, no tools: every optimizer call). */
    static boolean portable(ChatRequest r) {
        return r.tools().isEmpty() && r.messages().stream().allMatch(m -> m.toolCalls().isEmpty());
    }

    static Map<String, Object> request(ChatRequest r) {
        List<Object> msgs = new ArrayList<>();
        for (ChatMessage c : r.messages()) {
            Map<String, Object> x = Json.obj("role", c.role(), "content", c.content());
            if (!c.imageUrls().isEmpty()) x.put("image_urls", c.imageUrls());
            if (c.toolCallId() != null) x.put("tool_call_id", c.toolCallId());
            msgs.add(x);
        }
        return Json.obj("messages", msgs, "max_completion_tokens", r.maxCompletionTokens(),
                "reasoning_effort", r.reasoningEffort(), "json_required", r.jsonRequired(), "stage", r.stage(),
                "tool_choice", r.toolChoice(), "timeout_ms", r.timeout() == null ? null : r.timeout().toMillis(),
                "retries", r.retries());
    }

    @SuppressWarnings("unchecked")
    static ChatRequest request(Map<String, Object> m) {
        ChatRequest.Builder b = ChatRequest.builder();
        for (Object o : (List<Object>) m.get("messages")) {
            Map<String, Object> x = (Map<String, Object>) o;
            b.message(new ChatMessage(str(x.get("role")), str(x.get("content")), (List<String>) x.get("image_urls"), null,
                    (String) x.get("tool_call_id")));
        }
        Object timeout = m.get("timeout_ms");
        return b.maxCompletionTokens(num(m.get("max_completion_tokens"))).reasoningEffort((String) m.get("reasoning_effort"))
                .jsonRequired(Boolean.TRUE.equals(m.get("json_required"))).stage(str(m.get("stage")))
                .toolChoice((String) m.get("tool_choice")).timeout(timeout instanceof Number n ? Duration.ofMillis(n.longValue()) : null)
                .retries(num(m.get("retries"))).build();
    }

    static Map<String, Object> response(ChatResponse r) {
        Usage u = r.usage();
        return Json.obj("text", r.text(), "usage",
                List.of(u.promptTokens(), u.completionTokens(), u.totalTokens(), u.cachedTokens()),
                "latency_ms", r.latency().toMillis(), "model", r.model(), "reasoning", r.reasoning());
    }

    static ChatResponse response(Map<String, Object> m) {
        List<?> u = (List<?>) m.get("usage");
        Usage usage = new Usage(lng(u.get(0)), lng(u.get(1)), lng(u.get(2)), lng(u.get(3)));
        return new ChatResponse(str(m.get("text")), List.of(), usage, Duration.ofMillis(lng(m.get("latency_ms"))), str(m.get("model")),
                str(m.get("reasoning")));
    }

    static Map<String, Object> item(Item i) { return Json.obj("id", i.id(), "fields", i.fields()); }

    @SuppressWarnings("unchecked")
    static Item item(Map<String, Object> m) { return new Item(str(m.get("id")), (Map<String, Object>) m.get("fields")); }

    static BatchSpec batch(Map<String, Object> m) {
        return new BatchSpec(str(m.get("phase")), str(m.get("split")), lng(m.get("seed")), List.of());
    }

    static Map<String, Object> batch(BatchSpec b) {
        return Json.obj("phase", b.phase(), "split", b.split(), "seed", b.seed());
    }

    /** A settled item: its row and, when it left any, its prediction files. */
    static Map<String, Object> settled(RolloutResult row, RolloutRunner.Outcome o) {
        Map<String, Object> m = Json.obj("row", row.toJson());
        return o == null ? m : Json.put(m, "conversation", o.conversation(), "system_prompt", o.systemPrompt(),
                "user_prompt", o.userPrompt(), "files", o.files());
    }

    @SuppressWarnings("unchecked")
    static RolloutRunner.Outcome outcome(Map<String, Object> m) {
        RolloutResult row = row(m);
        if (!m.containsKey("conversation")) return null;
        return new RolloutRunner.Outcome(row, (List<?>) m.get("conversation"), str(m.get("system_prompt")), str(m.get("user_prompt")),
                (Map<String, String>) m.get("files"));
    }

    @SuppressWarnings("unchecked")
    static RolloutResult row(Map<String, Object> m) { return RolloutResult.fromJson((Map<String, Object>) m.get("row")); }

    /** {@code o} if it is a map, else an empty one. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) { return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of(); }

    static String str(Object o) { return o == null ? "" : String.valueOf(o); }

    static int num(Object o) { return o instanceof Number n ? n.intValue() : 0; }

    static long lng(Object o) { return o instanceof Number n ? n.longValue() : 0; }
}
