package io.skillopt4j.backend;

/**
 * Immutable. Token counts of one call (or a sum of calls). {@code cachedTokens} is the provider-reported
 * cached part of the prompt (0 when unknown).
 */
public record Usage(long promptTokens, long completionTokens, long totalTokens, long cachedTokens) {
    public static final Usage ZERO = new Usage(0, 0, 0, 0);

    public Usage {
        if (totalTokens == 0) totalTokens = promptTokens + completionTokens;
    }

    public static Usage of(long prompt, long completion) { return new Usage(prompt, completion, prompt + completion, 0); }

    /** Returns the element-wise sum, leaving both operands unchanged. */
    public Usage plus(Usage o) {
        return new Usage(promptTokens + o.promptTokens, completionTokens + o.completionTokens,
                totalTokens + o.totalTokens, cachedTokens + o.cachedTokens);
    }
}
