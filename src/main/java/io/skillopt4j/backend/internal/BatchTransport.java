package io.skillopt4j.backend.internal;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

/** Thread-safe. One provider's Batch API: submit requests under custom ids, poll a batch, read its results. */
public interface BatchTransport {
    /** Immutable. A batch's state: {@code done} once the provider will change nothing more. */
    record Status(String id, String state, boolean done, Map<String, String> handles) {
        public Status { handles = handles == null ? Map.of() : Map.copyOf(handles); }
    }

    /** Immutable. One request's result: the reply body, or null with the provider's reason (errored, expired, ...). */
    record Result(JsonNode body, String error) {
        public boolean ok() { return body != null; }
    }

    /** Returns "openai" or "anthropic" (what the run folder's batch state records). */
    String provider();

    /** Submits {@code requests} (custom id → request body, in order) and returns the provider's batch id. */
    String submit(List<Map.Entry<String, Map<String, Object>>> requests);

    Status poll(String batchId);

    /** Returns the results of a finished batch by custom id (ids absent there got no result). */
    Map<String, Result> results(Status finished);
}
