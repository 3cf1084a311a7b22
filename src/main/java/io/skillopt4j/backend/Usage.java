package io.skillopt4j.backend;

/**
 * Immutable. Token counts of one call (or a sum of calls). {@code cachedTokens} is the provider-reported
 * part of the prompt read from the prompt cache (OpenAI {@code prompt_tokens_details.cached_tokens},
 * Anthropic {@code cache_read_input_tokens}); {@code cacheWriteTokens} the part written to it (Anthropic
 * {@code cache_creation_input_tokens}). Both are included in {@code promptTokens}; 0 when unknown.
 */
public record Usage(long promptTokens, long completionTokens, long totalTokens, long cachedTokens, long cacheWriteTokens) {
    public static final Usage ZERO = new Usage(0, 0, 0, 0, 0);

    public Usage {
        if (totalTokens == 0) totalTokens = promptTokens + completionTokens;
    }

    /** Usage without cache writes (every provider but Anthropic). */
    public Usage(long promptTokens, long completionTokens, long totalTokens, long cachedTokens) {
        this(promptTokens, completionTokens, totalTokens, cachedTokens, 0);
    }

    public static Usage of(long prompt, long completion) { return new Usage(prompt, completion, prompt + completion, 0, 0); }

    /** Returns the element-wise sum, leaving both operands unchanged. */
    public Usage plus(Usage o) {
        return new Usage(promptTokens + o.promptTokens, completionTokens + o.completionTokens,
                totalTokens + o.totalTokens, cachedTokens + o.cachedTokens, cacheWriteTokens + o.cacheWriteTokens);
    }
}
