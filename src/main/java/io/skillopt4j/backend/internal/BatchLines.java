package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.internal.Json;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Immutable (static). Downloads a JSONL results file: one JSON object per line, blank and torn lines skipped. */
final class BatchLines {
    private BatchLines() {}

    /**
     * GETs {@code req} (without the retry interceptor, which expects one JSON document) and parses its lines;
     * transient failures are retried here per {@code policy}.
     */
    static List<JsonNode> download(OkHttpClient client, Request req, Http.Policy policy) {
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
