package io.skillopt4j.temporal;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.skillopt4j.internal.Json;

import java.util.List;

/** Immutable. What a {@link StageWorkflow} runs: activities of one type and queue, each with its JSON input. */
record StageSpec(@JsonProperty("type") String activityType, @JsonProperty("queue") String taskQueue,
                 @JsonProperty("start_to_close_s") long startToCloseSeconds, @JsonProperty("heartbeat_s") long heartbeatSeconds,
                 @JsonProperty("attempts") int maxAttempts, List<String> inputs) {
    StageSpec {
        inputs = List.copyOf(inputs);
    }

    /** The workflow's argument: the components in order, under the names above. */
    String toJson() { return Json.compact(this); }

    static StageSpec parse(String json) {
        try {
            return Json.mapper().readValue(json, StageSpec.class);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("not a stage spec: " + e.getMessage(), e);
        }
    }
}
