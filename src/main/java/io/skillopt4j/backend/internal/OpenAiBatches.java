package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.internal.Json;
import okhttp3.MediaType;
import okhttp3.MultipartBody;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Thread-safe. The OpenAI Batch API: the requests go up as one JSONL file, {@code POST /batches} starts the batch,
 * {@code GET /batches/{id}} polls it, and a finished batch's output and error files are read as JSONL.
 */
public final class OpenAiBatches implements BatchTransport {
    private static final MediaType JSONL = MediaType.get("application/jsonl");
    private static final Set<String> TERMINAL = Set.of("completed", "failed", "expired", "cancelled");

    private final BatchLines http;
    private final String base;
    private final String endpoint;

    /**
     * @param base     API base, e.g. {@code https://api.openai.com/v1}
     * @param endpoint the endpoint each line targets, e.g. {@code /v1/chat/completions}
     */
    public OpenAiBatches(OkHttpClient client, String base, String endpoint, Map<String, String> headers, Http.Policy policy) {
        this.http = new BatchLines(client, headers, policy);
        this.base = base;
        this.endpoint = endpoint;
    }

    @Override public String provider() { return "openai"; }

    @Override public String submit(List<Map.Entry<String, Map<String, Object>>> requests) {
        String jsonl = requests.stream().map(r -> Json.compact(Json.obj("custom_id", r.getKey(), "method", "POST", "url", endpoint,
                "body", r.getValue())) + "\n").collect(Collectors.joining());
        RequestBody form = new MultipartBody.Builder().setType(MultipartBody.FORM)
                .addFormDataPart("purpose", "batch")
                .addFormDataPart("file", "skillopt-batch.jsonl", RequestBody.create(jsonl, JSONL))
                .build();
        String fileId = http.id(http.send(new Request.Builder().url(base + "/files").post(form)), "file upload");
        Map<String, Object> create = Json.obj("input_file_id", fileId, "endpoint", endpoint, "completion_window", "24h",
                "metadata", Map.of("source", "skillopt4j"));
        return http.id(http.post(base + "/batches", create), "batch create");
    }

    @Override public Status poll(String batchId) {
        JsonNode b = http.send(new Request.Builder().url(base + "/batches/" + batchId).get());
        String state = b.path("status").asText("");
        Map<String, String> handles = new LinkedHashMap<>();
        for (String k : List.of("output_file_id", "error_file_id")) if (b.path(k).isTextual()) handles.put(k, b.path(k).asText());
        return new Status(batchId, state, TERMINAL.contains(state), handles);
    }

    @Override public Map<String, Result> results(Status finished) {
        Map<String, Result> out = new LinkedHashMap<>();
        // errors first, so a request that somehow appears in both keeps its successful output
        for (JsonNode line : lines(finished.handles().get("error_file_id"))) {
            JsonNode e = line.path("error");
            String why = e.isObject() ? e.path("code").asText("error") + ": " + e.path("message").asText("")
                    : "HTTP " + line.path("response").path("status_code").asInt(0) + ": "
                    + line.path("response").path("body").path("error").path("message").asText("");
            out.put(line.path("custom_id").asText(""), new Result(null, HttpErrors.oneLine(why)));
        }
        for (JsonNode line : lines(finished.handles().get("output_file_id"))) {
            JsonNode resp = line.path("response");
            int status = resp.path("status_code").asInt(0);
            String id = line.path("custom_id").asText("");
            if (status == 200 && resp.path("body").isObject()) out.put(id, new Result(resp.path("body"), ""));
            else out.putIfAbsent(id, new Result(null, "HTTP " + status + ": " + resp.path("body").path("error").path("message").asText("")));
        }
        return out;
    }

    /** The lines of a batch file; none when the batch has no such file (a null id). */
    private List<JsonNode> lines(String fileId) {
        if (fileId == null) return List.of();
        return http.download(base + "/files/" + fileId + "/content");
    }
}
