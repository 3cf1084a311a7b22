package io.skillopt4j.backend.internal;

import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.internal.Hashes;

import java.util.Locale;

/**
 * Immutable (static). Provider prompt-caching hints: OpenAI's {@code prompt_cache_key} and whether Anthropic's
 * {@code cache_control} is sent. {@code prompt_cache: auto} sends them only to the providers' own endpoints.
 */
public final class PromptCaching {
    private PromptCaching() {}

    /** Whether hints go to {@code url} under {@code mode} (auto, on, off). */
    public static boolean enabled(String mode, String url, String providerHost) {
        String m = mode == null || mode.isBlank() ? "auto" : mode.trim().toLowerCase(Locale.ROOT);
        return switch (m) {
            case "on", "true" -> true;   // YAML 1.1 reads a bare on/off as a boolean
            case "off", "false" -> false;
            case "auto" -> url != null && url.contains("://" + providerHost);
            default -> throw ConfigException.badValue("", "prompt_cache", mode, "one of auto, on, off");
        };
    }

    /** The {@code prompt_cache_key}: model and system prompt hashed, so the rollouts of one skill share a key. */
    public static String key(String model, ChatRequest r) {
        return "skillopt-" + Hashes.sha256Hex(model + "\u0000" + r.systemText()).substring(0, 24);
    }
}
