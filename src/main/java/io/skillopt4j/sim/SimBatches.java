package io.skillopt4j.sim;

import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;


/**
 * Thread-safe. The simulator's OpenAI (Files + Batches) and Anthropic (Message Batches) Batch APIs, so
 * {@code evaluation.batch_api} runs offline. A batch is in progress until its delay has passed; its replies are
 * computed then, exactly as the direct endpoint would answer each request.
 */
final class SimBatches {
    /** Immutable. One batch: its provider, request lines (custom id → body) and when it completes. */
    private record Batch(String id, boolean anthropic, String inputFileId, List<Map.Entry<String, Map<String, Object>>> requests,
                         long createdAt, long readyAtNanos) {}

    private final Function<Map<String, Object>, String> chatCompletion;
    private final Function<Map<String, Object>, Map<String, Object>> message;
    private final Duration delay;
    private final java.util.function.Supplier<String> origin;
    private final Map<String, String> files = new ConcurrentHashMap<>();
    private final Map<String, Batch> batches = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Object>> finished = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    /** {@code chatCompletion} answers a chat-completions body with JSON; {@code message} an Anthropic Messages one. */
    SimBatches(Function<Map<String, Object>, String> chatCompletion, Function<Map<String, Object>, Map<String, Object>> message, Duration delay,
               java.util.function.Supplier<String> origin) {
        this.chatCompletion = chatCompletion;
        this.message = message;
        this.delay = delay;
        this.origin = origin;
    }

    static boolean routes(String path) { return path.contains("/files") || path.contains("/batches"); }

    void handle(JdkSimHttp.Exchange ex, String path) throws IOException {
        String m = ex.method();
        try {
            if (m.equals("POST") && path.endsWith("/messages/batches")) {
                ex.respond(200, Json.compact(anthropicView(createAnthropic(Json.parseObject(ex.body())))), Map.of());
            } else if (m.equals("GET") && path.contains("/messages/batches/") && path.endsWith("/results")) {
                String id = path.substring(path.indexOf("/messages/batches/") + 18, path.length() - "/results".length());
                Batch b = batches.get(id);
                if (b == null || !done(b)) { notFound(ex, "no results for batch " + id); return; }
                ex.respond(200, (String) results(b).get("jsonl"), Map.of());
            } else if (m.equals("GET") && path.contains("/messages/batches/")) {
                Batch b = batches.get(path.substring(path.lastIndexOf('/') + 1));
                if (b == null) { notFound(ex, "no such batch"); return; }
                ex.respond(200, Json.compact(anthropicView(b)), Map.of());
            } else if (m.equals("POST") && path.endsWith("/files")) {
                ex.respond(200, Json.compact(upload(ex.body())), Map.of());
            } else if (m.equals("GET") && path.contains("/files/") && path.endsWith("/content")) {
                String content = files.get(path.substring(path.indexOf("/files/") + 7, path.length() - "/content".length()));
                if (content == null) { notFound(ex, "no such file"); return; }
                ex.respond(200, content, Map.of());
            } else if (m.equals("POST") && path.endsWith("/batches")) {
                ex.respond(200, Json.compact(openAiView(createOpenAi(Json.parseObject(ex.body())))), Map.of());
            } else if (m.equals("GET") && path.contains("/batches/")) {
                Batch b = batches.get(path.substring(path.lastIndexOf('/') + 1));
                if (b == null) { notFound(ex, "no such batch"); return; }
                ex.respond(200, Json.compact(openAiView(b)), Map.of());
            } else {
                notFound(ex, "no route for " + m + " " + path);
            }
        } catch (IllegalArgumentException e) {
            ex.respond(400, SimProtocol.error(e.getMessage(), "invalid_request_error"), Map.of());
        }
    }

    private static void notFound(JdkSimHttp.Exchange ex, String why) throws IOException {
        ex.respond(404, SimProtocol.error(why, "not_found"), Map.of());
    }

    /** Reads the {@code file} part of a multipart/form-data body (the boundary is its first line). */
    private Map<String, Object> upload(String body) {
        int eol = body.indexOf("\r\n");
        if (!body.startsWith("--") || eol < 0) throw new IllegalArgumentException("expected a multipart/form-data body");
        String boundary = body.substring(0, eol);
        String content = null, purpose = "";
        for (String part : body.split(java.util.regex.Pattern.quote(boundary))) {
            int head = part.indexOf("\r\n\r\n");
            if (head < 0) continue;
            String headers = part.substring(0, head), value = part.substring(head + 4);
            if (value.endsWith("\r\n")) value = value.substring(0, value.length() - 2);
            if (headers.contains("name=\"file\"")) content = value;
            if (headers.contains("name=\"purpose\"")) purpose = value.trim();
        }
        if (content == null) throw new IllegalArgumentException("multipart body has no 'file' part");
        if (!purpose.equals("batch")) throw new IllegalArgumentException("purpose must be 'batch', got '" + purpose + "'");
        String id = "file-sim" + ids.incrementAndGet();
        files.put(id, content);
        return Json.obj("id", id, "object", "file", "bytes", content.length(), "created_at", Instant.now().getEpochSecond(),
                "filename", "batch.jsonl", "purpose", "batch");
    }

    @SuppressWarnings("unchecked")
    private Batch createOpenAi(Map<String, Object> req) {
        String fileId = String.valueOf(req.get("input_file_id"));
        String content = files.get(fileId);
        if (content == null) throw new IllegalArgumentException("input_file_id " + fileId + " does not exist");
        if (!"24h".equals(req.get("completion_window"))) throw new IllegalArgumentException("completion_window must be 24h");
        List<Map.Entry<String, Map<String, Object>>> rs = new ArrayList<>();
        for (String line : content.split("\n")) {
            if (line.isBlank()) continue;
            Map<String, Object> l = Json.parseObject(line);
            if (!(l.get("body") instanceof Map<?, ?> b) || !"POST".equals(l.get("method")) || !String.valueOf(req.get("endpoint")).equals(l.get("url")))
                throw new IllegalArgumentException("every line needs method POST, url = the batch endpoint and a body");
            rs.add(Map.entry(String.valueOf(l.get("custom_id")), (Map<String, Object>) b));
        }
        return add("batch_sim" + ids.incrementAndGet(), false, fileId, rs);
    }

    @SuppressWarnings("unchecked")
    private Batch createAnthropic(Map<String, Object> req) {
        if (!(req.get("requests") instanceof List<?> list) || list.isEmpty()) throw new IllegalArgumentException("'requests' must be a non-empty array");
        List<Map.Entry<String, Map<String, Object>>> rs = new ArrayList<>();
        for (Object o : list) {
            if (!(o instanceof Map<?, ?> r) || !(r.get("params") instanceof Map<?, ?> p) || !(r.get("custom_id") instanceof String id)
                    || !id.matches("[a-zA-Z0-9_-]{1,64}"))
                throw new IllegalArgumentException("every request needs a custom_id matching ^[a-zA-Z0-9_-]{1,64}$ and params");
            rs.add(Map.entry(id, (Map<String, Object>) p));
        }
        return add("msgbatch_sim" + ids.incrementAndGet(), true, "", rs);
    }

    private Batch add(String id, boolean anthropic, String fileId, List<Map.Entry<String, Map<String, Object>>> rs) {
        Batch b = new Batch(id, anthropic, fileId, List.copyOf(rs), Instant.now().getEpochSecond(), System.nanoTime() + delay.toNanos());
        batches.put(id, b);
        return b;
    }

    private static boolean done(Batch b) { return System.nanoTime() >= b.readyAtNanos(); }

    /** Answers every request once, when the batch is first seen done; later reads see the same files. */
    private Map<String, Object> results(Batch b) {
        return finished.computeIfAbsent(b.id(), k -> {
            StringBuilder out = new StringBuilder();
            int n = 0;
            for (Map.Entry<String, Map<String, Object>> r : b.requests()) {
                Map<String, Object> line = Json.obj("custom_id", r.getKey());
                if (b.anthropic()) {
                    line.put("result", Map.of("type", "succeeded", "message", message.apply(r.getValue())));
                } else {
                    line.put("id", "batch_req_sim" + (++n));
                    line.put("response", Map.of("status_code", 200, "request_id", "req_sim" + n, "body", Json.parseObject(chatCompletion.apply(r.getValue()))));
                    line.put("error", null);
                }
                out.append(Json.compact(line)).append('\n');
            }
            String fileId = "file-sim" + ids.incrementAndGet();
            files.put(fileId, out.toString());
            return Map.of("jsonl", out.toString(), "output_file_id", fileId);
        });
    }

    private Map<String, Object> openAiView(Batch b) {
        boolean done = done(b);
        int n = b.requests().size();
        return Json.obj("id", b.id(), "object", "batch", "endpoint", "/v1/chat/completions", "input_file_id", b.inputFileId(),
                "completion_window", "24h", "status", done ? "completed" : "in_progress",
                "output_file_id", done ? results(b).get("output_file_id") : null, "error_file_id", null, "created_at", b.createdAt(),
                "request_counts", Map.of("total", n, "completed", done ? n : 0, "failed", 0));
    }

    private Map<String, Object> anthropicView(Batch b) {
        boolean done = done(b);
        if (done) results(b);
        int n = b.requests().size();
        return Json.obj("id", b.id(), "type", "message_batch", "processing_status", done ? "ended" : "in_progress",
                "request_counts", Map.of("processing", done ? 0 : n, "succeeded", done ? n : 0, "errored", 0, "canceled", 0, "expired", 0),
                "results_url", done ? origin.get() + "/v1/messages/batches/" + b.id() + "/results" : null,
                "created_at", Instant.ofEpochSecond(b.createdAt()).toString());
    }
}
