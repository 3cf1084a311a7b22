package io.skillopt4j.backend;

import io.skillopt4j.config.Setting;
import io.skillopt4j.ConfigException;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.config.Yaml11;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Immutable. USD prices per one million tokens per model, loaded from YAML or JSON:
 * <pre>{@code
 * gpt-4o: {prompt: 2.50, completion: 10.00, cached: 1.25, batch: 0.5}
 * }</pre>
 * A model matches its exact entry, else the longest entry it starts with ({@code gpt-4o} prices
 * {@code gpt-4o-2024-08-06}); one without an entry is <em>unpriced</em>: {@link #usd} returns null.
 */
public final class PriceTable {
    /** Immutable. Prices of one model in USD per 1M tokens; {@code batch} multiplies every rate of a batch call. */
    public record Price(double prompt, double completion, double cached, double cacheWrite, double batch) {}

    private static final PriceTable DEFAULTS = bundled();

    private final Map<String, Price> prices;
    // model -> its prefix match (or NONE), so the scan over every entry runs once per model
    private final java.util.concurrent.ConcurrentHashMap<String, Price> byPrefix = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Price NONE = new Price(0, 0, 0, 0, 0);

    private PriceTable(Map<String, Price> prices) { this.prices = Map.copyOf(prices); }

    public static PriceTable empty() { return new PriceTable(Map.of()); }

    /** A table from {@code model -> {prompt, completion, cached}} maps; {@code source} names where it came from. */
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
            double write = m.containsKey("cache_write") ? num(m, source, model, "cache_write", "cache_write") : p;
            double batch = m.containsKey("batch") ? num(m, source, model, "batch", "batch") : 1.0;
            if (batch > 1) throw ConfigException.badValue(source, model + ".batch", batch, "a multiplier in [0, 1] (0.5 = half price)");
            out.put(model, new Price(p, c, cached, write, batch));
        }
        return new PriceTable(out);
    }

    /** Loads a YAML or JSON file. */
    public static PriceTable load(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read price table " + file, e);
        }
        Object raw = Yaml11.parse(text, file.toString());
        if (raw == null) return empty();
        if (!(raw instanceof Map<?, ?> m)) throw ConfigException.badValue(file.toString(), "price_table", "(not a map)", "a map of model -> prices");
        return of(m, file.toString());
    }

    /** The bundled table: real providers' list prices and the simulator's model. */
    public static PriceTable defaults() { return DEFAULTS; }

    public static final String BUNDLED = "/io/skillopt4j/backend/prices.yaml";

    private static PriceTable bundled() {
        Object raw = Yaml11.parse(io.skillopt4j.internal.Resources.find(BUNDLED).orElse(""), "prices.yaml");
        return raw instanceof Map<?, ?> m ? of(m, "prices.yaml") : empty();
    }

    /** The bundled table with the entries of flat key {@code price_table} (path or inline map) replacing or adding to it. */
    public static PriceTable from(FlatConfig cfg) {
        Object v = Setting.value("price_table").in(cfg).orElse(null);
        if (v == null || (v instanceof String s && s.isBlank())) return DEFAULTS;
        PriceTable own;
        if (v instanceof Map<?, ?> m) {
            own = of(m, "price_table");
        } else {
            Path p = Path.of(String.valueOf(v).trim());
            if (!Files.isRegularFile(p)) throw ConfigException.badValue("", "price_table", String.valueOf(v), "a readable YAML/JSON file or an inline map");
            own = load(p);
        }
        Map<String, Price> m = new LinkedHashMap<>(DEFAULTS.prices);
        m.putAll(own.prices);
        return new PriceTable(m);
    }

    private static double num(Map<?, ?> m, String source, String model, String key, String alt) {
        Object v = m.containsKey(key) ? m.get(key) : m.get(alt);
        double d;
        try {
            d = v instanceof Number n ? n.doubleValue() : Double.parseDouble(String.valueOf(v));
        } catch (NumberFormatException notANumber) {
            d = -1;
        }
        if (d >= 0) return d;
        throw ConfigException.badValue(source, model + "." + key, v, "a number >= 0 (USD per 1M tokens)");
    }

    /** The price of {@code model}, or null when it has none. */
    public Price find(String model) {
        if (model == null) return null;
        Price p = prices.get(model);
        if (p != null) return p;
        p = byPrefix.get(model);
        if (p == null) {
            p = prices.keySet().stream().filter(model::startsWith).max(java.util.Comparator.comparingInt(String::length))
                    .map(prices::get).orElse(NONE);
            if (byPrefix.size() < 256) byPrefix.put(model, p);
        }
        return p == NONE ? null : p;
    }

    /** As {@link #usd}, but 0 when the model is not priced. */
    public double cost(String model, Usage usage) {
        return java.util.Objects.requireNonNullElse(usd(model, usage, false), 0.0);
    }

    /** The USD cost of {@code usage} on {@code model}, null when unpriced. Cache reads and writes are priced at their own rates. */
    public Double usd(String model, Usage usage, boolean batch) {
        Price p = find(model);
        if (p == null) return null;
        long cached = Math.min(usage.cachedTokens(), usage.promptTokens());
        long written = Math.min(usage.cacheWriteTokens(), usage.promptTokens() - cached);
        double d = ((usage.promptTokens() - cached - written) * p.prompt() + cached * p.cached() + written * p.cacheWrite()
                + usage.completionTokens() * p.completion()) / 1e6;
        return batch ? d * p.batch() : d;
    }

    /** The most a call can cost (null when unpriced): every prompt token at the highest input rate, and full output. */
    public Double worstCase(String model, long promptTokens, long maxCompletionTokens) {
        Price p = find(model);
        if (p == null) return null;
        double in = Math.max(p.prompt(), Math.max(p.cached(), p.cacheWrite()));
        return (promptTokens * in + maxCompletionTokens * p.completion()) / 1e6;
    }

    /** USD per "role/stage" plus "_total", from what {@code meter} recorded per model. */
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

    public Map<String, Price> asMap() { return prices; }

    @Override public String toString() { return "PriceTable" + new TreeMap<>(prices); }
}
