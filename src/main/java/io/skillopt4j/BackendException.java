package io.skillopt4j;

/**
 * A model call failed. {@link Retriable} failures (rate limits, 5xx, timeouts, resets) may succeed when
 * tried again; {@link NonRetriable} ones (bad request, auth, not found, unusable reply) will not. Messages
 * name the backend and, for HTTP, the status and the provider's own message, never a secret.
 */
public class BackendException extends SkillOptException {
    private final String backend;
    private final int status;

    public BackendException(String backend, int status, String message, Throwable cause) {
        super(message, cause);
        this.backend = backend;
        this.status = status;
    }

    /** Returns the backend name, e.g. {@code openai_compatible}. */
    public String backend() { return backend; }

    /** Returns the HTTP status, or 0 when the failure did not come from an HTTP response. */
    public int status() { return status; }

    /** A failure worth retrying: 408, 409, 429, 5xx, timeouts, connection resets. */
    public static class Retriable extends BackendException {
        public Retriable(String backend, int status, String message, Throwable cause) { super(backend, status, message, cause); }
    }

    /** A failure that retrying cannot fix: 400, 401, 403, 404, a malformed reply, a missing CLI. */
    public static class NonRetriable extends BackendException {
        public NonRetriable(String backend, int status, String message, Throwable cause) { super(backend, status, message, cause); }
    }
}
