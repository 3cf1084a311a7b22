package io.skillopt4j.env;

import io.skillopt4j.internal.Json;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Thread-safe. An item's prediction files kept in memory; {@link #file} returns what reading them back would. */
public final class ItemTrace {
    static final String CONVERSATION = "conversation.json";
    static final String SYSTEM_PROMPT = "target_system_prompt.txt";
    static final String USER_PROMPT = "target_user_prompt.txt";

    private final RolloutRunner.Outcome outcome;
    private String conversationJson; // guarded by this: rendered once, by the writer or the first reader

    ItemTrace(RolloutRunner.Outcome outcome) { this.outcome = outcome; }

    synchronized String conversationJson() {
        if (conversationJson == null) conversationJson = Json.pretty(outcome.conversation());
        return conversationJson;
    }

    /** The text of the item's file {@code name} as read back, or null when the item writes no such file. */
    public String file(String name) {
        Map<String, String> extra = outcome.files();
        if (extra.containsKey(name)) return readBack(extra.get(name)); // written last, so it wins
        if (name.equals(USER_PROMPT) && !outcome.userPrompt().isEmpty()) return readBack(outcome.userPrompt());
        if (name.equals(SYSTEM_PROMPT) && !outcome.systemPrompt().isEmpty()) return readBack(outcome.systemPrompt());
        if (name.equals(CONVERSATION)) return readBack(conversationJson());
        return null;
    }

    /** The writer's order: conversation, system prompt, user prompt, then the extra files. */
    RolloutRunner.Outcome outcome() { return outcome; }

    /** {@code s} as written in UTF-8 and read back: the encoder turns an unpaired surrogate into '?'. */
    private static String readBack(String s) {
        boolean surrogates = s.chars().anyMatch(c -> Character.isSurrogate((char) c));
        return surrogates ? new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8) : s;
    }
}
