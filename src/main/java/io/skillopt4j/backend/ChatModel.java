package io.skillopt4j.backend;

/**
 * Thread-safe. A model that answers chat requests: every SkillOpt backend (HTTP, CLI in print mode, an
 * exec agent used as optimizer) is one of these. Implementations retry retriable failures, meter usage and
 * consult the response cache inside {@link #chat(ChatRequest)}; failures surface as
 * {@link io.skillopt4j.BackendException}.
 *
 * <pre>{@code
 * ChatModel m = roles.optimizer();
 * String hello = m.chat("Say hi");                         // quick cell use
 * ChatResponse r = m.chat(ChatRequest.of(system, user));   // full control
 * }</pre>
 */
public interface ChatModel {
    /** Sends one request and returns the reply. */
    ChatResponse chat(ChatRequest request);

    /** Returns the SkillOpt backend name, e.g. {@code openai_compatible}. */
    default String backend() { return "custom"; }

    /** Returns the model (deployment) name. */
    default String model() { return ""; }

    /** Sends one user message and returns the reply text. */
    default String chat(String userMessage) {
        return chat(ChatRequest.builder().user(userMessage).stage("chat").build()).text();
    }
}
