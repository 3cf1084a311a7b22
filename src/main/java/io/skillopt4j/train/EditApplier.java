package io.skillopt4j.train;

import io.skillopt4j.internal.Json;
import io.skillopt4j.env.SkillBundle;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Stateless. Applies patch-mode edits in order, with upstream's {@code edit_apply_report.json} rows. */
public final class EditApplier {
    /** Immutable. The edited text and one report row per edit. */
    public record Result(String text, List<Map<String, Object>> report) {
        public Result { report = List.copyOf(report); }

        /** Returns {total, applied, skipped, errors} as history's {@code edit_apply_summary}. */
        public Map<String, Object> summary() {
            return Json.obj("total", report.size(), "applied", count(s -> s.startsWith("applied")),
                    "skipped", count(s -> s.startsWith("skipped")), "errors", count(s -> s.equals("error")));
        }

        private int count(java.util.function.Predicate<String> status) {
            return (int) report.stream().filter(r -> status.test(String.valueOf(r.get("status")))).count();
        }
    }

    private EditApplier() {}

    /** Applies {@code items} as upstream's {@code apply_patch_with_report}; an unreadable item is an error row. */
    public static Result apply(String skill, List<?> items) {
        String text = skill == null ? "" : skill;
        List<Map<String, Object>> rows = new ArrayList<>();
        int index = 0;
        for (Object item : items) {
            index++;
            try {
                if (!(item instanceof Map<?, ?> m)) throw new IllegalArgumentException("'" + pyType(item) + "' object has no attribute 'get'");
                Object op = m.containsKey("op") ? m.get("op") : "";
                Object c = m.containsKey("content") ? m.get("content") : "";
                if (!(c instanceof String cs)) throw new IllegalArgumentException("'" + pyType(c) + "' object has no attribute 'strip'");
                Object t = m.containsKey("target") ? m.get("target") : "";
                if (!(t instanceof String target)) throw new IllegalArgumentException("'" + pyType(t) + "' object is not subscriptable");
                String content = SkillDocument.stripMarkers(cs.strip());
                Object f = m.get("file");
                boolean fileEdit = m.containsKey("file") || SkillBundle.isPacked(text);
                if (fileEdit && f != null && !(f instanceof String)) throw new IllegalArgumentException("'" + pyType(f) + "' object is not a file path");
                String file = f == null ? SkillBundle.SKILL_MD : (String) f;
                String[] out = {text};
                String[] why = {null};
                String status = fileEdit ? BundleEdits.apply(text, file, op, target, content, out, why) : applyToText(text, op, target, content, out);
                text = out[0];
                Map<String, Object> row = Json.obj("op", op);
                if (fileEdit) row.put("file", file);
                Json.put(row, "target", SkillDocument.prefix(target, 200), "content_preview", SkillDocument.prefix(content, 200),
                        "status", status, "index", index);
                if (why[0] != null) row.put("reason", why[0]);
                rows.add(row);
            } catch (RuntimeException ex) {
                String error = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
                rows.add(Json.obj("index", index, "op", "", "target", "", "content_preview", "",
                        "status", "error", "error", error));
            }
        }
        return new Result(text, rows);
    }

    /** One edit on one text as upstream applies it: the protected-region check on the raw target, then the op. */
    static String applyToText(String text, Object op, String target, String content, String[] out) {
        out[0] = text;
        int at = target.isEmpty() ? -1 : text.indexOf(target);
        if (at >= 0 && SkillDocument.inProtected(text, at)) return "skipped_protected_region";
        Edit e = Edit.of(op instanceof String o ? o : null, target, content);
        return e == null ? "skipped_unknown_op" : applyOne(text, e, out);
    }

    /** Python's type name of a JSON value, for upstream's error texts. */
    static String pyType(Object o) {
        if (o == null) return "NoneType";
        if (o instanceof String) return "str";
        if (o instanceof Boolean) return "bool";
        if (o instanceof Integer || o instanceof Long || o instanceof java.math.BigInteger) return "int";
        if (o instanceof Number) return "float";
        if (o instanceof List) return "list";
        if (o instanceof Map) return "dict";
        return o.getClass().getSimpleName();
    }

    /** Applies one edit, writing the new text into {@code out[0]} and returning upstream's status. */
    static String applyOne(String text, Edit e, String[] out) {
        String target = e.target();
        if (e instanceof Edit.Append a) return append(text, a.content(), out, "applied_append_before_protected_region", "applied_append");
        if (e instanceof Edit.InsertAfter ia) {
            int at = target.isEmpty() ? -1 : text.indexOf(target);
            if (at < 0) return append(text, ia.content(), out, "applied_insert_after_fallback_before_protected_region",
                    "applied_insert_after_fallback_append");
            int nl = text.indexOf('\n', at + target.length());
            int pos = nl < 0 ? text.length() : nl + 1;
            out[0] = text.substring(0, pos) + "\n" + ia.content() + "\n" + text.substring(pos);
            return "applied_insert_after";
        }
        if (e instanceof Edit.Replace r) {
            if (target.isEmpty()) return "skipped_replace_missing_target";
            int at = text.indexOf(target);
            if (at < 0) return "skipped_replace_target_not_found";
            out[0] = text.substring(0, at) + r.content() + text.substring(at + target.length());
            return "applied_replace";
        }
        if (target.isEmpty()) return "skipped_delete_missing_target"; // a Delete: Edit is sealed
        int at = text.indexOf(target);
        if (at < 0) return "skipped_delete_target_not_found";
        out[0] = text.substring(0, at) + text.substring(at + target.length());
        return "applied_delete";
    }

    private static String append(String text, String content, String[] out, String protectedStatus, String plainStatus) {
        int p = SkillDocument.firstProtectedStart(text);
        if (p >= 0) {
            out[0] = text.substring(0, p).stripTrailing() + "\n\n" + content + "\n\n" + text.substring(p);
            return protectedStatus;
        }
        out[0] = text.stripTrailing() + "\n\n" + content + "\n";
        return plainStatus;
    }
}
