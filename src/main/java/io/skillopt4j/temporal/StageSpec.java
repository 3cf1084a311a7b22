package io.skillopt4j.temporal;

import io.skillopt4j.internal.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Immutable. What a {@link StageWorkflow} runs: activities of one type on one task queue, with their timeouts and
 * attempts, each with its (small, reference-carrying) JSON input.
 */
record StageSpec(String activityType, String taskQueue, long startToCloseSeconds, long heartbeatSeconds, int maxAttempts,
                 List<String> inputs) {
    StageSpec {
        inputs = List.copyOf(inputs);
    }

    String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", activityType);
        m.put("queue", taskQueue);
        m.put("start_to_close_s", startToCloseSeconds);
        m.put("heartbeat_s", heartbeatSeconds);
        m.put("attempts", maxAttempts);
        m.put("inputs", inputs);
        return Json.compact(m);
    }

    static StageSpec parse(String json) {
        Map<String, Object> m = Json.parseObject(json);
        List<String> in = new ArrayList<>();
        for (Object o : (List<?>) m.get("inputs")) in.add(String.valueOf(o));
        return new StageSpec(String.valueOf(m.get("type")), String.valueOf(m.get("queue")), Codec.lng(m.get("start_to_close_s")),
                Codec.lng(m.get("heartbeat_s")), Codec.num(m.get("attempts")), in);
    }
}
