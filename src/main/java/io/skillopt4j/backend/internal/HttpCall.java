package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.BackendException;
import io.skillopt4j.internal.Json;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Thread-safe (stateless). Posts one JSON body and returns the parsed reply, mapping failures via {@link HttpErrors};
 * a policy with hedging may race a duplicate of a slow call ({@link Hedging#execute}).
 */
public final class HttpCall {
    private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

    private HttpCall() {}

    /** POSTs {@code body} as UTF-8 JSON to {@code url} with {@code headers}; retries per {@code policy}. */
    public static JsonNode postJson(OkHttpClient client, String url, Map<String, String> headers, Object body, Http.Policy policy) {
        String backend = policy.backend();
        Request.Builder rb;
        try {
            rb = new Request.Builder().url(url);
        } catch (IllegalArgumentException e) {
            String msg = HttpErrors.oneLine(io.skillopt4j.internal.Redactor.scrub(backend + ": invalid URL " + url + " (an http:// or https:// base URL is needed)"));
            policy.sink().fault("fast_fails", msg);
            throw new BackendException.NonRetriable(backend, 0, msg, e);
        }
        headers.forEach(rb::header);
        Request req = rb.post(RequestBody.create(Json.line(body).getBytes(StandardCharsets.UTF_8), JSON)).tag(Http.Policy.class, policy).build();
        try (Response r = policy.hedge() == null ? client.newCall(req).execute() : Hedging.execute(client, req, policy.hedge())) {
            ResponseBody rbody = r.body();
            if (r.isSuccessful() && rbody instanceof Http.ParsedJson parsedBody) return parsedBody.tree(); // parsed in the retry loop
            String text = rbody == null ? "" : rbody.string();
            if (!r.isSuccessful()) throw HttpErrors.forStatus(backend, r.code(), text);
            try {
                return Json.tree(text);
            } catch (IllegalArgumentException e) {
                String head = text.length() > 300 ? text.substring(0, 300) + "..." : text;
                throw new BackendException.NonRetriable(backend, r.code(), HttpErrors.oneLine(backend + ": reply is not JSON: " + head), e);
            }
        } catch (IOException e) {
            throw HttpErrors.forIo(backend, e);
        }
    }
}
