package io.skillopt4j.backend;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Immutable. USD prices per one million tokens per model ({@code prompt}, {@code completion}, {@code cached}),
 * loaded from YAML or JSON (flat key {@code price_table}: a file path or an inline map):
 * <pre>{@code
 * gpt-4o: {prompt: 2.50, completion: 10.00, cached: 1.25}
 * }</pre>
 * A model matches its exact entry, else the longest entry it starts with ({@code gpt-4o} prices
 * {@code gpt-4o-2024-08-06}). Cached prompt tokens cost {@code cached} (default: the prompt price).
 */
public final class PriceTable {
    /** Immutable. Prices of one model in USD per 1M tokens. */
    public record Price(double prompt, double completion, double cached) {}

    private final Map<String, Price> prices;

    private PriceTable(Map<String, Price> prices) { this.prices = Map.copyOf(prices); }

    /** Returns an empty table (every cost is 0). */
    public static PriceTable empty() { return new PriceTable(Map.of()); }

    /** Returns a table from {@code model -> {prompt, completion, cached}} maps; {@code source} names where it came from. */
    public static PriceTable of(Map<?, ?> raw, String source) {
        Map<String, Price> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : raw.entrySet()) {
            String model = String.valueOf(e.getKey());
            if (!(e.getValue() instanceof Map<?, ?> m)) {
                throw ConfigException.badValue(source, model, e.getValue(), "a map {prompt, completion, cached} of USD per 1M tokens");
            }
            double p = num(m, source, model, "prompt", "input");
            double c = num(m, source, model, "completion", "output");
            double cached = m.containsKey("cached") || m.containsKey("cached_input") ? num(m, source, model, "cached", "cached_input") : p;
            out.put(model, new Price(p, c, cached));
        }
        return new PriceTable(out);
    }

    /** Loads a YAML or JSON file (JSON is YAML). */
    public static PriceTable load(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read price table " + file, e);
        }
        Object raw = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
        if (raw == null) return empty();
        if (!(raw instanceof Map<?, ?> m)) throw ConfigException.badValue(file.toString(), "price_table", "(not a map)", "a map of model -> prices");
        return of(m, file.toString());
    }

    /** Returns the table named by flat key {@code price_table} (path or inline map), or an empty one. */
    public static PriceTable from(FlatConfig cfg) {
        Object v = cfg.get("price_table");
        if (v == null || (v instanceof String s && s.isBlank())) return empty();
        if (v instanceof Map<?, ?> m) return of(m, "price_table");
        Path p = Path.of(String.valueOf(v).trim());
        if (!Files.isRegularFile(p)) throw ConfigException.badValue("", "price_table", String.valueOf(v), "a readable YAML/JSON file or an inline map");
        return load(p);
    }

    private static double num(Map<?, ?> m, String source, String model, String key, String alt) {
        Object v = m.containsKey(key) ? m.get(key) : m.get(alt);
        if (v instanceof Number n && n.doubleValue() >= 0) return n.doubleValue();
        try {
            double d = Double.parseDouble(String.valueOf(v));
            if (d >= 0) return d;
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw ConfigException.badValue(source, model + "." + key, v, "a number >= 0 (USD per 1M tokens)");
    }

    /** Returns the price of {@code model}, or null when the table has no entry for it. */
    public Price find(String model) {
        if (model == null) return null;
        Price p = prices.get(model);
        if (p != null) return p;
        String best = null;
        for (String k : prices.keySet()) if (model.startsWith(k) && (best == null || k.length() > best.length())) best = k;
        return best == null ? null : prices.get(best);
    }

    /** Returns the USD cost of {@code usage} on {@code model}; 0 when the model is not priced. */
    public double cost(String model, Usage usage) {
        Price p = find(model);
        if (p == null) return 0;
        long cached = Math.min(usage.cachedTokens(), usage.promptTokens());
        return ((usage.promptTokens() - cached) * p.prompt() + cached * p.cached() + usage.completionTokens() * p.completion()) / 1e6;
    }

    /** Returns cost in USD per "role/stage" plus "_total", from what {@code meter} recorded per model. */
    public Map<String, Double> costs(UsageMeter meter) {
        Map<String, Double> out = new TreeMap<>();
        double total = 0;
        for (Map.Entry<String, UsageMeter.Counts> e : meter.byRoleStageAndModel().entrySet()) {
            String[] parts = e.getKey().split("/", 3);
            UsageMeter.Counts c = e.getValue();
            double usd = cost(parts.length > 2 ? parts[2] : "", new Usage(c.promptTokens(), c.completionTokens(), c.totalTokens(), c.cachedTokens()));
            out.merge(parts[0] + "/" + parts[1], usd, Double::sum);
            total += usd;
        }
        out.put("_total", total);
        return out;
    }

    /** Returns the priced models. */
    public Map<String, Price> asMap() { return prices; }

    @Override public String toString() { return "PriceTable" + new TreeMap<>(prices); }
}
