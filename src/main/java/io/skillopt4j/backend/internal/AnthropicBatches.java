package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import okhttp3.OkHttpClient;
import okhttp3.Request;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Thread-safe. Anthropic's Message Batches API: {@code POST .../messages/batches}, {@code GET .../batches/{id}} polls
 * {@code processing_status} until {@code ended}, and the batch's {@code results_url} streams JSONL results.
 */
public final class AnthropicBatches implements BatchTransport {
    private final BatchLines http;
    private final String batchesUrl;

    /** @param messagesUrl the Messages endpoint, e.g. {@code https://api.anthropic.com/v1/messages} */
    public AnthropicBatches(OkHttpClient client, String messagesUrl, Map<String, String> headers, Http.Policy policy) {
        this.http = new BatchLines(client, headers, policy);
        this.batchesUrl = messagesUrl + "/batches";
    }

    @Override public String provider() { return "anthropic"; }

    @Override public String submit(List<Map.Entry<String, Map<String, Object>>> requests) {
        List<Object> rs = requests.stream().<Object>map(r -> Map.of("custom_id", r.getKey(), "params", r.getValue())).toList();
        return http.id(http.post(batchesUrl, Map.of("requests", rs)), "batch create");
    }

    @Override public Status poll(String batchId) {
        JsonNode b = http.send(new Request.Builder().url(batchesUrl + "/" + batchId).get());
        String state = b.path("processing_status").asText("");
        String url = b.path("results_url").asText("");
        String results = url.isEmpty() ? batchesUrl + "/" + batchId + "/results" : url;
        return new Status(batchId, state, state.equals("ended"), Map.of("results_url", results));
    }

    @Override public Map<String, Result> results(Status finished) {
        Map<String, Result> out = new LinkedHashMap<>();
        for (JsonNode line : http.download(finished.handles().get("results_url"))) {
            JsonNode res = line.path("result");
            String type = res.path("type").asText("");
            String id = line.path("custom_id").asText("");
            if (type.equals("succeeded") && res.path("message").isObject()) {
                out.put(id, new Result(res.path("message"), ""));
            } else {
                JsonNode err = res.path("error").path("error");
                String why = type.equals("errored") ? "errored: " + err.path("type").asText("") + ": " + err.path("message").asText("") : type;
                out.put(id, new Result(null, HttpErrors.oneLine(why)));
            }
        }
        return out;
    }
}
