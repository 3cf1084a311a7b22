package io.skillopt4j.backend;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Immutable. One chat call. {@code stage} names the pipeline stage for usage accounting; {@code jsonRequired} asks for
 * a JSON object reply (re-asked otherwise); {@code timeout} null means the backend's default; {@code retries} is the
 * number of attempts for retriable failures.
 */
public record ChatRequest(List<ChatMessage> messages, int maxCompletionTokens, String reasoningEffort,
                          boolean jsonRequired, String stage, List<ToolSpec> tools, String toolChoice,
                          Duration timeout, int retries) {
    public ChatRequest {
        messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
        if (messages.isEmpty()) throw new IllegalArgumentException("messages must not be empty");
        tools = tools == null ? List.of() : List.copyOf(tools);
        stage = stage == null || stage.isEmpty() ? "target" : stage;
        if (maxCompletionTokens <= 0) maxCompletionTokens = 16384;
        if (retries < 1) retries = 1;
    }

    /** One system and one user message (the common optimizer shape). */
    public static ChatRequest of(String system, String user) {
        return builder().system(system).user(user).build();
    }

    public static Builder builder() { return new Builder(); }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.messages.addAll(messages);
        return b.maxCompletionTokens(maxCompletionTokens).reasoningEffort(reasoningEffort).jsonRequired(jsonRequired)
                .stage(stage).tools(tools).toolChoice(toolChoice).timeout(timeout).retries(retries);
    }

    /** The text of the first system message, or "". */
    public String systemText() {
        return messages.stream().filter(m -> m.role().equals("system")).map(ChatMessage::content).findFirst().orElse("");
    }

    /** The text of the last user message, or "". */
    public String lastUserText() {
        for (int i = messages.size() - 1; i >= 0; i--) if (messages.get(i).role().equals("user")) return messages.get(i).content();
        return "";
    }

    /** Not thread-safe; use once. */
    public static final class Builder {
        private final List<ChatMessage> messages = new ArrayList<>();
        private int maxCompletionTokens = 16384;
        private String reasoningEffort;
        private boolean jsonRequired;
        private String stage = "target";
        private List<ToolSpec> tools = List.of();
        private String toolChoice;
        private Duration timeout;
        private int retries = 3;

        public Builder system(String text) { messages.add(ChatMessage.system(text)); return this; }
        public Builder user(String text) { messages.add(ChatMessage.user(text)); return this; }
        public Builder message(ChatMessage m) { messages.add(m); return this; }
        public Builder messages(List<ChatMessage> ms) { messages.addAll(ms); return this; }
        public Builder maxCompletionTokens(int n) { this.maxCompletionTokens = n; return this; }
        public Builder reasoningEffort(String e) { this.reasoningEffort = e; return this; }
        public Builder jsonRequired(boolean b) { this.jsonRequired = b; return this; }
        public Builder stage(String s) { this.stage = s; return this; }
        public Builder tools(List<ToolSpec> t) { this.tools = t; return this; }
        public Builder toolChoice(String c) { this.toolChoice = c; return this; }
        public Builder timeout(Duration t) { this.timeout = t; return this; }
        public Builder retries(int r) { this.retries = r; return this; }

        public ChatRequest build() {
            return new ChatRequest(messages, maxCompletionTokens, reasoningEffort, jsonRequired, stage, tools, toolChoice, timeout, retries);
        }
    }
}
