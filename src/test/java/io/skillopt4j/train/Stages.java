package io.skillopt4j.train;

import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.Usage;
import io.skillopt4j.config.FlatConfig;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Test helpers: settings from a few keys and a scripted model that records its requests. */
final class Stages {
    private Stages() {}

    static TrainSettings settings(Object... kv) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return TrainSettings.from(FlatConfig.of(m));
    }

    /** Thread-safe. Replies with {@code script.apply(request)} and keeps every request. */
    static final class Recording implements ChatModel {
        final List<ChatRequest> requests = Collections.synchronizedList(new ArrayList<>());
        private final Function<ChatRequest, String> script;

        Recording(Function<ChatRequest, String> script) { this.script = script; }

        @Override public ChatResponse chat(ChatRequest r) {
            requests.add(r);
            return ChatResponse.of(script.apply(r), Usage.of(1, 1));
        }

        List<ChatRequest> stage(String s) { return requests.stream().filter(r -> r.stage().equals(s)).toList(); }
    }
}
