package io.skillopt4j.backend.internal;

import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.internal.Hashes;

import java.util.Locale;

/**
 * Immutable (static). Provider prompt-caching hints. Requests already put the stable part first (system
 * prompt, then the skill inside it) and the task last, so the providers' prefix caches can hit; this adds
 * OpenAI's {@code prompt_cache_key} (a routing hint: requests sharing a key and prefix land on the same cache)
 * and decides where Anthropic's {@code cache_control} goes. Mode {@code prompt_cache}: {@code auto} sends hints
 * only to the providers' own endpoints, {@code on} to every endpoint of these wire formats, {@code off} never.
 */
public final class PromptCaching {
    private PromptCaching() {}

    /** Returns whether hints go to {@code url} under {@code mode} (auto, on, off). */
    public static boolean enabled(String mode, String url, String providerHost) {
        String m = mode == null || mode.isBlank() ? "auto" : mode.trim().toLowerCase(Locale.ROOT);
        return switch (m) {
            case "on", "true" -> true;   // YAML 1.1 reads a bare on/off as a boolean
            case "off", "false" -> false;
            case "auto" -> url != null && url.contains("://" + providerHost);
            default -> throw ConfigException.badValue("", "prompt_cache", mode, "one of auto, on, off");
        };
    }

    /**
     * Returns the {@code prompt_cache_key} of a request: model and system prompt hashed, so every rollout of one
     * skill (same system prompt) shares a key and different skills do not compete for one cache entry.
     */
    public static String key(String model, ChatRequest r) {
        return "skillopt-" + Hashes.sha256Hex(model + "\u0000" + r.systemText()).substring(0, 24);
    }
}
