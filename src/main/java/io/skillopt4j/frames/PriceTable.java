package io.skillopt4j.frames;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Immutable. USD prices per million tokens, keyed by model name or by role ({@code optimizer}, {@code target});
 * a model entry wins over a role entry. Used by {@link RunFrames#tokens(PriceTable)} for the {@code cost_usd}
 * column.
 * <pre>{@code
 * var prices = PriceTable.of("gpt-5.5", 1.25, 10.0).and("target", 0.15, 0.60);
 * }</pre>
 */
public record PriceTable(Map<String, Price> prices) {
    /** Immutable. Input (prompt) and output (completion) USD per million tokens. */
    public record Price(double inputPerMillion, double outputPerMillion) {
        public Price {
            if (inputPerMillion < 0 || outputPerMillion < 0) throw new IllegalArgumentException("prices must be >= 0, got " + inputPerMillion + "/" + outputPerMillion);
        }
    }

    public PriceTable {
        prices = Map.copyOf(Objects.requireNonNull(prices, "prices"));
    }

    /** Returns a table with one entry. */
    public static PriceTable of(String modelOrRole, double inputPerMillion, double outputPerMillion) {
        return new PriceTable(Map.of(modelOrRole, new Price(inputPerMillion, outputPerMillion)));
    }

    /** Returns a copy with one more entry. */
    public PriceTable and(String modelOrRole, double inputPerMillion, double outputPerMillion) {
        Map<String, Price> m = new LinkedHashMap<>(prices);
        m.put(modelOrRole, new Price(inputPerMillion, outputPerMillion));
        return new PriceTable(m);
    }

    /** Returns the cost of the tokens, or null when neither the model nor the role has a price. */
    public Double cost(String model, String role, long promptTokens, long completionTokens) {
        Price p = model == null ? null : prices.get(model);
        if (p == null) p = prices.get(role);
        if (p == null) return null;
        return (promptTokens * p.inputPerMillion() + completionTokens * p.outputPerMillion()) / 1_000_000.0;
    }
}
