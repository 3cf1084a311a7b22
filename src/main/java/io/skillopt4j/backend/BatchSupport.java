package io.skillopt4j.backend;

import com.fasterxml.jackson.databind.JsonNode;
import io.skillopt4j.backend.internal.BatchTransport;

import java.util.Map;
import java.util.function.Function;

/** Immutable. What a backend needs to send its calls through a provider Batch API. */
record BatchSupport(BatchTransport transport, Function<ChatRequest, Map<String, Object>> body, Function<JsonNode, ChatResponse> parse) {
}
