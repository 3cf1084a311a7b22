package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.BackendException;
import io.skillopt4j.internal.Json;
import io.skillopt4j.internal.Redactor;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;

/**
 * Thread-safe (stateless). The one place where HTTP statuses and I/O failures become retriable or non-retriable
 * {@link BackendException}s, with one-line, scrubbed messages naming the backend, status and provider's message.
 */
public final class HttpErrors {
    private HttpErrors() {}

    /** Statuses worth retrying: 408, 409, 429 and every 5xx. */
    public static boolean retriable(int status) {
        return status == 408 || status == 409 || status == 429 || status >= 500;
    }

    /** The exception for an HTTP error {@code status} with response {@code body}. */
    public static BackendException forStatus(String backend, int status, String body) {
        return failure(backend, status, backend + ": HTTP " + status + ": " + providerMessage(body), retriable(status), null);
    }

    /** The exception for a transport failure (timeout, reset; an unreachable server is non-retriable). */
    public static BackendException forIo(String backend, IOException e) {
        if (e instanceof Http.Unreachable) return failure(backend, 0, e.getMessage(), false, e);
        String what = e instanceof SocketTimeoutException || e instanceof InterruptedIOException ? "timed out" : "request failed";
        return failure(backend, 0, backend + ": " + what + ": " + e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : " " + e.getMessage()), true, e);
    }

    /** {@code msg} on one scrubbed line, as a retriable or non-retriable failure. */
    static BackendException failure(String backend, int status, String msg, boolean retriable, Throwable cause) {
        String line = oneLine(Redactor.scrub(msg));
        return retriable ? new BackendException.Retriable(backend, status, line, cause)
                : new BackendException.NonRetriable(backend, status, line, cause);
    }

    /** Extracts {@code error.message} (OpenAI, Anthropic, Azure shapes) or the first 300 chars of the body. */
    public static String providerMessage(String body) {
        if (body == null || body.isBlank()) return "(empty body)";
        try {
            JsonNode n = Json.mapper().readTree(body);
            JsonNode err = n.path("error");
            if (err.isTextual()) return err.asText();
            if (err.path("message").isTextual()) return err.path("message").asText();
            if (n.path("message").isTextual()) return n.path("message").asText();
            if (n.path("detail").isTextual()) return n.path("detail").asText();
        } catch (IOException | RuntimeException ignored) {
            // not JSON: fall through to the raw text
        }
        return body.length() > 300 ? body.substring(0, 300) + "..." : body;
    }

    /** Collapses whitespace runs with newlines into single spaces. */
    public static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s*[\\r\\n]+\\s*", " ").trim();
    }
}
