package io.skillopt4j.backend;

/**
 * Thread-safe. A model that answers chat requests: every SkillOpt backend is one. Failures surface as
 * {@link io.skillopt4j.BackendException}.
 *
 * <pre>{@code
 * ChatModel m = roles.optimizer();
 * String hello = m.chat("Say hi");                         // quick cell use
 * ChatResponse r = m.chat(ChatRequest.of(system, user));   // full control
 * }</pre>
 */
public interface ChatModel {
    ChatResponse chat(ChatRequest request);

    /** The SkillOpt backend name, e.g. {@code openai_compatible}. */
    default String backend() { return "custom"; }

    default String model() { return ""; }

    /** One user message; the reply text. */
    default String chat(String userMessage) {
        return chat(ChatRequest.builder().user(userMessage).stage("chat").build()).text();
    }
}
