package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.config.Coercion;
import io.skillopt4j.internal.JsonReply;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Thread-safe. Upstream's {@code rank_and_select} (truncation on any failure) and {@code lr_autonomous}. */
public record Select(TrainSettings settings, Optimizer optimizer) {
    private static final Pattern INT = Pattern.compile("-?\\d+");

    /** Returns the ranked patch: the merged patch itself when it fits the budget. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> rank(String skill, Map<String, Object> merged, int maxEdits, String meta) {
        String key = settings.updateMode().payloadKey();
        List<Object> items = Aggregate.items(merged, key);
        if (settings.updateMode() == UpdateMode.FULL_REWRITE || items.size() <= maxEdits) return merged;
        String label = settings.updateMode().label();
        String reasoning = merged.get("reasoning") == null ? "" : String.valueOf(merged.get("reasoning"));
        StringBuilder user = new StringBuilder(Aggregate.metaPrefix(meta));
        String title = Character.toUpperCase(label.charAt(0)) + label.substring(1);
        user.append("## Current Skill\n").append(Prompts.view(skill)).append("\n\n## ").append(title).append(" Pool (").append(items.size())
                .append(' ').append(label).append(", budget=").append(maxEdits).append(")\n");
        for (int i = 0; i < items.size(); i++) user.append('[').append(i).append("] ").append(describe(items.get(i))).append('\n');
        user.append("\nSelect the ").append(maxEdits).append(" most important ").append(label).append(". Return their 0-based indices in priority order.");
        String prompt = settings.updateMode() == UpdateMode.REWRITE ? "ranking_rewrite" : "ranking";
        Optional<Map<String, Object>> reply = optimizer.json("ranking", "ranking", Prompts.forSkill(Prompts.generic(prompt), skill, false), user.toString());
        List<Object> selected = new ArrayList<>();
        if (reply.isPresent() && reply.get().get("selected_indices") instanceof List<?> idx) {
            Set<Integer> seen = new LinkedHashSet<>();
            for (Object o : idx) {
                Long v = o instanceof Integer || o instanceof Long ? Long.valueOf(((Number) o).longValue())
                        : o instanceof Boolean b ? Long.valueOf(b ? 1 : 0) : null; // Python: a bool is an int
                if (v != null && v >= 0 && v < items.size() && seen.add(v.intValue())) selected.add(items.get(v.intValue()));
                if (selected.size() >= maxEdits) break;
            }
        } else if (reply.isPresent()) {
            optimizer.record("ranking", "ranking", "bad_shape", "reply has no selected_indices list");
        }
        if (!selected.isEmpty()) {
            return Json.obj("reasoning", reasoning + " [optimizer-ranked: selected " + selected.size() + "/" + items.size() + " " + label + "]",
                    key, selected, "ranking_details", reply.get());
        }
        int k = Math.max(0, Math.min(maxEdits, items.size()));
        if (reply.isPresent()) optimizer.record("ranking", "ranking", "no_valid_index", "truncated to " + k);
        return Json.obj("reasoning", reasoning + " [fallback truncated " + items.size() + "->" + k + " " + label + "]",
                key, new ArrayList<>(items.subList(0, k)));
    }

    /** Upstream's {@code describe_item}: one pool line per item, fields two spaces apart, strings in Python repr. */
    @SuppressWarnings("unchecked")
    String describe(Object item) {
        if (!(item instanceof Map<?, ?> m0)) return "";
        Map<String, Object> m = (Map<String, Object>) m0;
        List<String> parts = new ArrayList<>();
        switch (settings.updateMode()) {
            case FULL_REWRITE -> {
                parts.add("title=" + repr(m.getOrDefault("title", "")));
                parts.add("change_summary=" + repr(m.getOrDefault("change_summary", List.of())));
                if (truthy(m.get("source_type"))) parts.add("source=" + Coercion.pyStr(m.get("source_type")));
                if (m.get("support_count") != null) parts.add("support=" + Coercion.pyStr(m.get("support_count")));
                String skill = m.get("new_skill") == null ? "" : Coercion.pyStr(m.get("new_skill")).strip();
                if (!skill.isEmpty()) parts.add("new_skill_preview=" + Coercion.pyRepr(skill));
            }
            case REWRITE -> {
                parts.add("type=" + Coercion.pyStr(m.getOrDefault("type", "?")));
                parts.add("title=" + repr(m.getOrDefault("title", "")));
                parts.add("instruction=" + repr(m.getOrDefault("instruction", "")));
                if (truthy(m.get("priority_hint"))) parts.add("priority=" + Coercion.pyStr(m.get("priority_hint")));
                if (m.get("support_count") != null) parts.add("support=" + Coercion.pyStr(m.get("support_count")));
            }
            case PATCH -> {
                parts.add("op=" + Coercion.pyStr(m.getOrDefault("op", "?")));
                if (truthy(m.get("file"))) parts.add("file=" + Coercion.pyStr(m.get("file"))); // a bundle edit names its file
                if (truthy(m.get("target"))) parts.add("target=" + repr(m.get("target")));
                if (truthy(m.get("content"))) parts.add("content=" + repr(m.get("content")));
                if (m.get("support_count") != null) parts.add("support=" + Coercion.pyStr(m.get("support_count")));
            }
        }
        return String.join("  ", parts);
    }

    /** Python truthiness of a JSON value. */
    static boolean truthy(Object o) {
        if (o == null || Boolean.FALSE.equals(o)) return false;
        if (o instanceof String x) return !x.isEmpty();
        if (o instanceof Number n) return n.doubleValue() != 0;
        if (o instanceof java.util.Collection<?> c) return !c.isEmpty();
        if (o instanceof Map<?, ?> mm) return !mm.isEmpty();
        return true;
    }

    /** Python {@code repr} of a JSON value (strings quoted, lists of strings as Python lists). */
    static String repr(Object o) {
        if (o instanceof String x) return Coercion.pyRepr(x);
        if (o instanceof List<?> l) return "[" + String.join(", ", l.stream().map(Select::repr).toList()) + "]";
        return Coercion.pyStr(o);
    }

    /** Autonomous learning rate: asks the optimizer how many items to apply; never throws. */
    public Map<String, Object> decideBudget(String skill, Map<String, Object> merged, double rolloutHard, double rolloutSoft,
                                            int rolloutN, String stepBuffer, String meta) {
        UpdateMode mode = settings.updateMode();
        List<Object> items = Aggregate.items(merged, mode.payloadKey());
        StringBuilder u = new StringBuilder(Aggregate.metaPrefix(meta));
        u.append("## Current Skill\n").append(skill).append("\n\n## Current Step Evidence\n")
                .append("rollout_n=").append(rolloutN).append('\n')
                .append("rollout_hard=").append(StepRecord.fixed(rolloutHard, 6)).append('\n')
                .append("rollout_soft=").append(StepRecord.fixed(rolloutSoft, 6)).append('\n')
                .append("proposed_update_items=").append(items.size()).append('\n')
                .append("update_item_type=").append(mode.label()).append("\n\n## Proposed Update Items\n");
        for (int i = 0; i < items.size(); i++) u.append('[').append(i).append("] ").append(describe(items.get(i))).append('\n');
        u.append("\nHow many of these ").append(items.size()).append(" items should be applied in this step? Answer with learning_rate.");
        if (stepBuffer != null && !stepBuffer.isBlank()) u.append("\n\n").append(stepBuffer.strip());
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
            if (reply.containsKey("error")) error = Coercion.pyStr(reply.get("error")); // upstream keeps a reply's own "error"
        } catch (RuntimeException e) {
            error = String.valueOf(e.getMessage());
            reply = Map.of();
        }
        boolean fallback = decision == null;
        if (fallback) {
            optimizer.record("lr_autonomous", "learning_rate", error != null ? "call_failed" : "invalid_learning_rate",
                    error != null ? error : String.valueOf(rawLr));
            decision = 0;
        }
        int chosen = Math.min(decision, items.size());
        Map<String, Object> d = Json.obj("learning_rate", chosen,
                "raw_learning_rate", decision, // upstream: the coerced decision, 0 on a fallback
                "available_update_items", items.size(), "clamped", chosen != decision, "fallback", fallback,
                "reasoning", reply.getOrDefault("reasoning", ""), "confidence", reply.getOrDefault("confidence", ""),
                "risk_notes", reply.getOrDefault("risk_notes", List.of()), "raw_response", raw);
        if (error != null) d.put("error", error);
        return d;
    }

    /** Upstream's learning_rate coercion; null when invalid. */
    static Integer coerce(Object v) {
        if (v == null || v instanceof Boolean) return null;
        if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && !Double.isInfinite(n.doubleValue())) {
            return (int) Math.min(Integer.MAX_VALUE, Math.max(0, n.longValue()));
        }
        Matcher m = INT.matcher(Coercion.pyStr(v).strip());
        if (!m.find()) return null;
        try { return Math.max(0, Integer.parseInt(m.group())); } catch (NumberFormatException e) { return m.group().startsWith("-") ? 0 : Integer.MAX_VALUE; }
    }
}
