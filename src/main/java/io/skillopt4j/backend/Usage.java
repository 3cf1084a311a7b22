package io.skillopt4j.backend;

/**
 * Immutable. Token counts of one call (or a sum of calls). {@code cachedTokens} (read from the prompt cache) and
 * {@code cacheWriteTokens} (written to it) are parts of {@code promptTokens}; 0 when unknown.
 */
public record Usage(long promptTokens, long completionTokens, long totalTokens, long cachedTokens, long cacheWriteTokens) {
    public static final Usage ZERO = new Usage(0, 0, 0, 0, 0);

    public Usage {
        if (totalTokens == 0) totalTokens = promptTokens + completionTokens;
    }

    /** Without cache writes (every provider but Anthropic). */
    public Usage(long promptTokens, long completionTokens, long totalTokens, long cachedTokens) {
        this(promptTokens, completionTokens, totalTokens, cachedTokens, 0);
    }

    public static Usage of(long prompt, long completion) { return new Usage(prompt, completion, prompt + completion, 0, 0); }

    public Usage plus(Usage o) {
        return new Usage(promptTokens + o.promptTokens, completionTokens + o.completionTokens,
                totalTokens + o.totalTokens, cachedTokens + o.cachedTokens, cacheWriteTokens + o.cacheWriteTokens);
    }
}
