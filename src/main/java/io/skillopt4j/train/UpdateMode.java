package io.skillopt4j.train;

import java.util.Locale;

/** Immutable. Upstream's skill update modes, with their payload key, prompt suffix and ranking label. */
public enum UpdateMode {
    PATCH("patch", "edits", "", "edits"),
    REWRITE("rewrite_from_suggestions", "revise_suggestions", "_rewrite", "suggestions"),
    FULL_REWRITE("full_rewrite_minibatch", "skill_candidates", "_full_rewrite", "skill candidates");

    private final String configName;
    private final String payloadKey;
    private final String promptSuffix;
    private final String label;

    UpdateMode(String configName, String payloadKey, String promptSuffix, String label) {
        this.configName = configName;
        this.payloadKey = payloadKey;
        this.promptSuffix = promptSuffix;
        this.label = label;
    }

    public String configName() { return configName; }
    public String payloadKey() { return payloadKey; }
    public String promptSuffix() { return promptSuffix; }
    public String label() { return label; }

    /** Upstream's {@code normalize_update_mode}: known aliases, anything else silently becomes patch. */
    public static UpdateMode parse(String s) {
        String v = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "rewrite", "rewrite_from_suggestions", "suggestions", "rewrite_suggestions" -> REWRITE;
            case "full_rewrite", "full_rewrite_minibatch", "minibatch_full_rewrite", "skill_rewrite_minibatch" -> FULL_REWRITE;
            default -> PATCH;
        };
    }
}
