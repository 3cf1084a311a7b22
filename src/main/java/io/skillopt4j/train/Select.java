package io.skillopt4j.train;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Thread-safe. The select stage: upstream's {@code rank_and_select} (clip the merged items to the edit budget,
 * asking the optimizer to rank when there are more items than budget; truncation on any failure) and the
 * autonomous learning-rate decision ({@code lr_autonomous}).
 */
public final class Select {
    private static final Pattern INT = Pattern.compile("-?\\d+");
    private final TrainSettings s;
    private final Optimizer optimizer;

    public Select(TrainSettings settings, Optimizer optimizer) {
        this.s = settings;
        this.optimizer = optimizer;
    }

    /** Returns the ranked patch: the merged patch itself when it fits the budget. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> rank(String skill, Map<String, Object> merged, int maxEdits, String meta) {
        String key = s.updateMode().payloadKey();
        List<Object> items = Aggregate.items(merged, key);
        if (s.updateMode() == UpdateMode.FULL_REWRITE || items.size() <= maxEdits) return merged;
        String label = s.updateMode().label();
        String reasoning = merged.get("reasoning") == null ? "" : String.valueOf(merged.get("reasoning"));
        StringBuilder user = new StringBuilder(Aggregate.metaPrefix(meta));
        user.append("## Current Skill\n").append(skill).append("\n\n## Edits Pool (").append(items.size())
                .append(" edits, budget=").append(maxEdits).append(")\n");
        for (int i = 0; i < items.size(); i++) user.append('[').append(i).append("] ").append(describe(items.get(i))).append('\n');
        user.append("\nSelect the ").append(maxEdits).append(" most important edits. Return their 0-based indices in priority order.");
        String prompt = s.updateMode() == UpdateMode.REWRITE ? "ranking_rewrite" : "ranking";
        Optional<Map<String, Object>> reply = optimizer.json("ranking", "ranking", Prompts.generic(prompt), user.toString());
        List<Object> selected = new ArrayList<>();
        if (reply.isPresent() && reply.get().get("selected_indices") instanceof List<?> idx) {
            Set<Integer> seen = new LinkedHashSet<>();
            for (Object o : idx) {
                if ((o instanceof Integer || o instanceof Long) && ((Number) o).longValue() >= 0 && ((Number) o).longValue() < items.size()
                        && seen.add(((Number) o).intValue())) {
                    selected.add(items.get(((Number) o).intValue()));
                }
                if (selected.size() >= maxEdits) break;
            }
        } else if (reply.isPresent()) {
            optimizer.record("ranking", "ranking", "bad_shape", "reply has no selected_indices list");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        if (!selected.isEmpty()) {
            out.put("reasoning", reasoning + " [optimizer-ranked: selected " + selected.size() + "/" + items.size() + " " + label + "]");
            out.put(key, selected);
            out.put("ranking_details", reply.get());
        } else {
            int k = Math.max(0, Math.min(maxEdits, items.size()));
            if (reply.isPresent()) optimizer.record("ranking", "ranking", "no_valid_index", "truncated to " + k);
            out.put("reasoning", reasoning + " [fallback truncated " + items.size() + "->" + k + " " + label + "]");
            out.put(key, new ArrayList<>(items.subList(0, k)));
        }
        return out;
    }

    /** Upstream's {@code describe_item}: one pool line per item, strings in Python repr. */
    @SuppressWarnings("unchecked")
    String describe(Object item) {
        if (!(item instanceof Map<?, ?> m0)) return String.valueOf(item);
        Map<String, Object> m = (Map<String, Object>) m0;
        Object support = m.getOrDefault("support_count", 1);
        if (s.updateMode() == UpdateMode.REWRITE) {
            return "type=" + str(m.get("type")) + " title=" + pyRepr(str(m.get("title"))) + " instruction="
                    + pyRepr(str(m.get("instruction"))) + " priority=" + str(m.get("priority_hint")) + " support=" + support;
        }
        return "op=" + (m.get("op") == null ? "append" : str(m.get("op"))) + " target=" + pyRepr(str(m.get("target")))
                + " content=" + pyRepr(str(m.get("content"))) + " support=" + support;
    }

    /** Autonomous learning rate: asks the optimizer how many items to apply; never throws. */
    public Map<String, Object> decideBudget(String skill, Map<String, Object> merged, double rolloutHard, double rolloutSoft,
                                            int rolloutN, String stepBuffer, String meta) {
        List<Object> items = Aggregate.items(merged, s.updateMode().payloadKey());
        StringBuilder u = new StringBuilder(Aggregate.metaPrefix(meta));
        u.append("## Current Skill\n").append(skill).append("\n\n## Current Step Evidence\n")
                .append("rollout_n=").append(rolloutN).append('\n')
                .append("rollout_hard=").append(String.format(java.util.Locale.ROOT, "%.6f", rolloutHard)).append('\n')
                .append("rollout_soft=").append(String.format(java.util.Locale.ROOT, "%.6f", rolloutSoft)).append('\n')
                .append("proposed_update_items=").append(items.size()).append('\n')
                .append("update_item_type=").append(s.updateMode().payloadKey()).append("\n\n## Proposed Update Items\n");
        for (int i = 0; i < items.size(); i++) u.append('[').append(i).append("] ").append(describe(items.get(i))).append('\n');
        u.append("\nHow many of these ").append(items.size()).append(" items should be applied in this step? Answer with learning_rate.");
        if (stepBuffer != null && !stepBuffer.isBlank()) u.append("\n\n").append(stepBuffer.strip());
        Map<String, Object> d = new LinkedHashMap<>();
        String raw = "";
        Object rawLr = null;
        Integer decision = null;
        String error = null;
        Map<String, Object> reply = Map.of();
        try {
            raw = optimizer.text("lr_autonomous", Prompts.generic("lr_autonomous"), u.toString(), 16384, null, 3);
            reply = JsonReply.object(raw).orElse(Map.of());
            rawLr = reply.get("learning_rate");
            decision = coerce(rawLr);
        } catch (RuntimeException e) {
            error = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        boolean fallback = decision == null;
        if (fallback) {
            optimizer.record("lr_autonomous", "learning_rate", error != null ? "call_failed" : "invalid_learning_rate",
                    error != null ? error : String.valueOf(rawLr));
            decision = 0;
        }
        int chosen = Math.min(decision, items.size());
        d.put("learning_rate", chosen);
        d.put("raw_learning_rate", rawLr);
        d.put("available_update_items", items.size());
        d.put("clamped", decision > items.size());
        d.put("fallback", fallback);
        d.put("reasoning", reply.getOrDefault("reasoning", ""));
        d.put("confidence", reply.getOrDefault("confidence", ""));
        d.put("risk_notes", reply.getOrDefault("risk_notes", List.of()));
        d.put("raw_response", raw);
        if (error != null) d.put("error", error);
        return d;
    }

    /** Upstream's learning_rate coercion; null when invalid. */
    static Integer coerce(Object v) {
        if (v == null || v instanceof Boolean) return null;
        if (v instanceof Integer || v instanceof Long) return (int) Math.max(0, ((Number) v).longValue());
        if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && !Double.isInfinite(n.doubleValue())) {
            return (int) Math.max(0, n.longValue());
        }
        Matcher m = INT.matcher(String.valueOf(v));
        if (!m.find()) return null;
        try { return Math.max(0, Integer.parseInt(m.group())); } catch (NumberFormatException e) { return null; }
    }

    /** Python's {@code repr} of a str. */
    static String pyRepr(String s) {
        char q = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
        StringBuilder b = new StringBuilder().append(q);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == q || c == '\\') b.append('\\').append(c);
            else if (c == '\n') b.append("\\n");
            else if (c == '\r') b.append("\\r");
            else if (c == '\t') b.append("\\t");
            else if (c < 0x20 || c == 0x7f) b.append(String.format("\\x%02x", (int) c));
            else b.append(c);
        }
        return b.append(q).toString();
    }

    private static String str(Object o) { return o == null ? "" : String.valueOf(o); }
}
