package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.BackendException;
import io.skillopt4j.internal.Json;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

import java.io.IOException;
import java.util.Map;

/**
 * Thread-safe (stateless). Posts one JSON body through a client derived from {@link Http#shared()} (over
 * {@link PlainHttp} for a plain {@code http://} server without a proxy, over OkHttp otherwise) and returns the parsed
 * JSON reply, mapping statuses and I/O failures via {@link HttpErrors}.
 */
public final class HttpCall {
    /** Parsed base URLs: a backend posts to one or two URLs, and parsing one costs more than its call's JSON. */
    private static final java.util.concurrent.ConcurrentHashMap<String, HttpUrl> URLS = new java.util.concurrent.ConcurrentHashMap<>();

    private HttpCall() {}

    /** Returns {@code url} parsed (cached, at most 64 of them), or null for anything but http(s) (the builder's own rules). */
    static HttpUrl parsedUrl(String url) {
        HttpUrl u = URLS.get(url);
        if (u != null) return u;
        if (!url.regionMatches(true, 0, "http://", 0, 7) && !url.regionMatches(true, 0, "https://", 0, 8)) return null;
        u = HttpUrl.get(url);
        if (URLS.size() < 64) URLS.put(url, u);
        return u;
    }

    /** POSTs {@code body} as UTF-8 JSON to {@code url} with {@code headers}; retries per {@code policy}. */
    public static JsonNode postJson(OkHttpClient client, String url, Map<String, String> headers, Object body, Http.Policy policy) {
        String backend = policy.backend();
        Request.Builder rb;
        try {
            HttpUrl parsed = parsedUrl(url);
            rb = parsed != null ? new Request.Builder().url(parsed) : new Request.Builder().url(url);
        } catch (IllegalArgumentException e) {
            String msg = HttpErrors.oneLine(io.skillopt4j.internal.Redactor.scrub(backend + ": invalid URL " + url + " (an http:// or https:// base URL is needed)"));
            policy.sink().fault("fast_fails", msg);
            throw new BackendException.NonRetriable(backend, 0, msg, e);
        }
        headers.forEach(rb::header);
        Request req = rb.post(new PlainHttp.JsonBody(Json.line(body))).tag(Http.Policy.class, policy).build();
        try (Response r = PlainHttp.eligible(client, req.url()) ? PlainHttp.execute(client, req) : client.newCall(req).execute()) {
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
