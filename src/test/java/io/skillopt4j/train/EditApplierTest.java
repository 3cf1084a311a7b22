package io.skillopt4j.train;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class EditApplierTest {
    private static final String SKILL = "# Skill\n\n## Rules\n- one\n- two\n";
    private static final String PROTECTED = SKILL + "\n" + SkillDocument.SLOW_START + "\nslow text\n" + SkillDocument.SLOW_END + "\n";

    private static Map<String, Object> e(String op, String target, String content) {
        java.util.LinkedHashMap<String, Object> m = new java.util.LinkedHashMap<>();
        if (op != null) m.put("op", op);
        if (target != null) m.put("target", target);
        if (content != null) m.put("content", content);
        return m;
    }

    private static String status(EditApplier.Result r, int i) { return String.valueOf(r.report().get(i).get("status")); }

    @Test
    void appliesEachOperationOnTheFirstExactMatch() {
        EditApplier.Result r = EditApplier.apply(SKILL + "- one\n", List.of(
                e("replace", "- one", "- ONE"),
                e("delete", "- two\n", null),
                e("insert_after", "## Rules", "- zero"),
                e("append", null, "  ## Tail  ")));
        assertEquals("# Skill\n\n## Rules\n\n- zero\n- ONE\n- one\n\n## Tail\n", r.text());
        assertEquals(List.of("applied_replace", "applied_delete", "applied_insert_after", "applied_append"),
                r.report().stream().map(m -> m.get("status")).toList());
        assertEquals(Map.of("total", 4, "applied", 4, "skipped", 0, "errors", 0), r.summary());
    }

    @Test
    void reportsUnmatchedAndMissingTargets() {
        EditApplier.Result r = EditApplier.apply(SKILL, List.of(
                e("replace", "- three", "x"), e("replace", "", "x"), e("delete", "nope", null), e("delete", null, null),
                e("rename", "- one", "x"), e("insert_after", "absent", "- tail")));
        assertEquals(List.of("skipped_replace_target_not_found", "skipped_replace_missing_target", "skipped_delete_target_not_found",
                "skipped_delete_missing_target", "skipped_unknown_op", "applied_insert_after_fallback_append"),
                r.report().stream().map(m -> m.get("status")).toList());
        assertEquals(SKILL.stripTrailing() + "\n\n- tail\n", r.text());
        assertEquals(Map.of("total", 6, "applied", 1, "skipped", 5, "errors", 0), r.summary());
    }

    @Test
    void neverWritesIntoProtectedRegions() {
        EditApplier.Result r = EditApplier.apply(PROTECTED, List.of(
                e("replace", "slow text", "hacked"), e("append", null, "- new " + SkillDocument.APPENDIX_START),
                e("insert_after", "missing", "- fb")));
        assertEquals("skipped_protected_region", status(r, 0));
        assertEquals("applied_append_before_protected_region", status(r, 1));
        assertEquals("applied_insert_after_fallback_before_protected_region", status(r, 2));
        assertTrue(r.text().contains("slow text"));
        assertFalse(r.text().contains("hacked"));
        assertEquals(1, r.text().split(java.util.regex.Pattern.quote(SkillDocument.APPENDIX_START), -1).length, "marker stripped from content");
        assertTrue(r.text().indexOf("- new") < r.text().indexOf(SkillDocument.SLOW_START));
        assertTrue(r.text().indexOf("- fb") < r.text().indexOf(SkillDocument.SLOW_START));
    }

    @Test
    void aNonObjectEditBecomesAnErrorRowAndTheOthersContinue() {
        EditApplier.Result r = EditApplier.apply(SKILL, List.of("not an edit", e("append", null, "- appended")));
        assertEquals("error", status(r, 0));
        assertEquals("'str' object has no attribute 'get'", r.report().get(0).get("error"));
        assertEquals(List.of("index", "op", "target", "content_preview", "status", "error"), List.copyOf(r.report().get(0).keySet()));
        assertEquals("applied_append", status(r, 1));
        assertEquals(List.of("op", "target", "content_preview", "status", "index"), List.copyOf(r.report().get(1).keySet()));
        assertEquals(Map.of("total", 2, "applied", 1, "skipped", 0, "errors", 1), r.summary());
    }

    @Test
    void anEditWithoutOpIsAnUnknownOpNeverAnAppend() {
        EditApplier.Result r = EditApplier.apply(SKILL, List.of(e(null, null, "- appended"), e("Append", null, "- x")));
        assertEquals("skipped_unknown_op", status(r, 0));
        assertEquals("", r.report().get(0).get("op"), "upstream reads a missing op as \"\"");
        assertEquals("skipped_unknown_op", status(r, 1), "ops are case-sensitive");
        assertEquals(SKILL, r.text());
    }

    @Test
    void theProtectedRegionCheckRunsOnTheRawTargetForEveryOp() {
        EditApplier.Result r = EditApplier.apply(PROTECTED, List.of(
                e("append", "slow text", "- a"), e("rename", "slow text", "- b"), e("insert_after", "slow text", "- c")));
        assertEquals(List.of("skipped_protected_region", "skipped_protected_region", "skipped_protected_region"),
                r.report().stream().map(m -> m.get("status")).toList());
        assertEquals(PROTECTED, r.text());
        // a target with surrounding spaces is matched raw (not trimmed)
        EditApplier.Result raw = EditApplier.apply(PROTECTED, List.of(e("replace", " slow text", "x")));
        assertEquals("skipped_replace_target_not_found", status(raw, 0));
    }

    @Test
    void contentOrTargetUpstreamCannotReadIsAnErrorRow() {
        Map<String, Object> numeric = new java.util.LinkedHashMap<>(Map.of("op", "append", "content", 5));
        Map<String, Object> nullTarget = new java.util.LinkedHashMap<>();
        nullTarget.put("op", "replace");
        nullTarget.put("target", null);
        nullTarget.put("content", "x");
        EditApplier.Result r = EditApplier.apply(SKILL, List.of(numeric, nullTarget));
        assertEquals(List.of("error", "error"), r.report().stream().map(m -> m.get("status")).toList());
        assertEquals("'int' object has no attribute 'strip'", r.report().get(0).get("error"));
    }

    @Test
    void truncatesReportPreviewsTo200CodePoints() {
        String longText = "é".repeat(300);
        EditApplier.Result r = EditApplier.apply(SKILL, List.of(e("append", null, longText)));
        assertEquals(200, ((String) r.report().get(0).get("content_preview")).codePointCount(0, 200));
        assertEquals(200, ((String) r.report().get(0).get("content_preview")).length());
    }
}
