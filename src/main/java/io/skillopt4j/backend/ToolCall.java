package io.skillopt4j.backend;

import java.util.Objects;

/** Immutable. A function call requested by the model; {@code argumentsJson} is the raw JSON string it sent. */
public record ToolCall(String id, String name, String argumentsJson) {
    public ToolCall {
        Objects.requireNonNull(name, "name");
        id = id == null ? "" : id;
        argumentsJson = argumentsJson == null ? "{}" : argumentsJson;
    }
}
