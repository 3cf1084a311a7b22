package io.skillopt4j.frames;

import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.config.Setting;
import io.skillopt4j.internal.Json;
import io.skillopt4j.run.RunPaths;
import io.skillopt4j.run.RunSnapshot;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Stateless. The cost frame of a run, from its {@code cost_ledger.jsonl}: one row per phase, role and stage and a
 * {@code _total} row. An unpriced call adds to {@code unpriced_calls}, never to {@code usd}.
 */
final class CostFrames {
    private CostFrames() {}

    private static final class Cell {
        long calls, batched, prompt, cached, completion, unpriced;
        double usd;
        boolean priced;

        void add(Map<String, Object> e) {
            long n = e.get("calls") instanceof Number c ? c.longValue() : 1;
            calls += n;
            if (Boolean.TRUE.equals(e.get("batch"))) batched += n;
            prompt += num(e, "prompt_tokens");
            cached += num(e, "cached_tokens");
            completion += num(e, "completion_tokens");
            if (e.get("usd") instanceof Number u) {
                usd += u.doubleValue();
                priced = true;
            } else {
                unpriced += n;
            }
        }

        void add(Cell o) {
            calls += o.calls; batched += o.batched; prompt += o.prompt; cached += o.cached; completion += o.completion;
            unpriced += o.unpriced; usd += o.usd; priced |= o.priced;
        }
    }

    static Frame cost(RunSnapshot run) {
        Map<String, Cell> cells = new TreeMap<>();
        for (Map<String, Object> e : read(run.dir().resolve(RunPaths.COST_LEDGER))) {
            cells.computeIfAbsent(e.get("phase") + "\u0000" + e.get("role") + "\u0000" + e.get("stage"), k -> new Cell()).add(e);
        }
        RowBuilder b = new RowBuilder().strings("phase", "role", "stage").longs("calls", "prompt_tokens", "cached_tokens", "completion_tokens")
                .doubles("usd", "batch_share", "cached_share").longs("unpriced_calls");
        Cell total = new Cell();
        cells.forEach((k, c) -> {
            String[] p = k.split("\u0000", 3);
            row(b, p[0], p[1], p[2], c);
            total.add(c);
        });
        if (!cells.isEmpty()) row(b, "_total", "", "", total);
        return b.build("cost", footer(run, total, cells.isEmpty()));
    }

    private static void row(RowBuilder b, String phase, String role, String stage, Cell c) {
        b.row(phase, role, stage, c.calls, c.prompt, c.cached, c.completion, c.priced ? c.usd : null,
                c.calls == 0 ? null : (double) c.batched / c.calls, c.prompt == 0 ? null : (double) c.cached / c.prompt,
                c.unpriced);
    }

    private static String footer(RunSnapshot run, Cell t, boolean empty) {
        if (empty) return "no cost_ledger.jsonl in " + run.dir();
        StringBuilder f = new StringBuilder(String.format(Locale.ROOT, "$%.4f over %d calls · batch %.0f%% of calls · cached %.0f%% of prompt tokens",
                t.usd, t.calls, 100.0 * t.batched / Math.max(1, t.calls), 100.0 * t.cached / Math.max(1, t.prompt)));
        if (t.unpriced > 0) f.append(" · ").append(t.unpriced).append(" unpriced calls (not in usd)");
        Double cap = RowBuilder.num(Setting.value("budget_usd").in(FlatConfig.of(run.config())).orElse(null));
        if (cap != null && cap > 0) f.append(String.format(Locale.ROOT, " · cap $%.4f, left $%.4f", cap, Math.max(0, cap - t.usd)));
        return f.toString();
    }

    private static List<Map<String, Object>> read(Path file) {
        try {
            return Json.readObjectLines(file);
        } catch (UncheckedIOException unreadable) {
            return new java.util.ArrayList<>();
        }
    }

    private static long num(Map<String, Object> e, String k) { return e.get(k) instanceof Number n ? n.longValue() : 0; }
}
