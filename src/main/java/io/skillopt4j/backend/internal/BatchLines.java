package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.BackendException;
import io.skillopt4j.internal.Json;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Immutable. The Batch APIs' HTTP through one client: JSON replies, and JSONL files (blank and torn lines skipped). */
record BatchLines(OkHttpClient client, Map<String, String> headers, Http.Policy policy) {
    BatchLines { headers = Map.copyOf(headers); }

    /** Sends {@code rb} with {@code headers} through the retry interceptor and returns its JSON reply. */
    JsonNode send(Request.Builder rb) {
        headers.forEach(rb::header);
        try (Response r = client.newCall(rb.tag(Http.Policy.class, policy).build()).execute()) {
            String text = r.body() == null ? "" : r.body().string();
            if (!r.isSuccessful()) throw HttpErrors.forStatus(policy.backend(), r.code(), text);
            return Json.mapper().readTree(text);
        } catch (IOException e) {
            throw HttpErrors.forIo(policy.backend(), e);
        }
    }

    /** The batch id of a create reply; a reply without one is a non-retriable failure named by {@code what}. */
    String id(JsonNode reply, String what) {
        String id = reply.path("id").asText("");
        if (id.isEmpty()) {
            String msg = policy.backend() + ": " + what + " returned no id";
            throw new BackendException.NonRetriable(policy.backend(), 0, msg, null);
        }
        return id;
    }

    /** POSTs {@code body} as JSON to {@code url} ({@link HttpCall#postJson}). */
    JsonNode post(String url, Object body) {
        return HttpCall.postJson(client, url, headers, body, policy);
    }

    /** GETs {@code url} and parses its lines, retried here per {@code policy} (not by the JSON retry interceptor). */
    List<JsonNode> download(String url) {
        Request.Builder rb = new Request.Builder().url(url).get();
        headers.forEach(rb::header);
        Request req = rb.build();
        RuntimeException last = null;
        for (int a = 0; a < policy.attempts(); a++) {
            if (a > 0) io.skillopt4j.backend.Backoff.sleep(policy.backoff().delay(a - 1, null));
            try (Response r = client.newCall(req).execute()) {
                String text = r.body() == null ? "" : r.body().string();
                if (!r.isSuccessful()) {
                    last = HttpErrors.forStatus(policy.backend(), r.code(), text);
                    if (r.code() < 500 && r.code() != 429 && r.code() != 408) throw last;
                    continue;
                }
                List<JsonNode> out = new ArrayList<>();
                for (String line : text.split("\n")) {
                    if (line.isBlank()) continue;
                    try {
                        out.add(Json.mapper().readTree(line));
                    } catch (IOException torn) {
                        // a line we cannot read is a request without a result: it is retried as a direct call
                    }
                }
                return out;
            } catch (IOException e) {
                last = HttpErrors.forIo(policy.backend(), e);
            }
        }
        throw last;
    }
}
