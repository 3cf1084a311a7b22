package io.skillopt4j.train;

import io.skillopt4j.env.SkillBundle;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** Edits that address bundle files: creating and editing references, refusing paths outside and broken frontmatter. */
class BundleEditsTest {
    static final String SKILL_MD = "---\nname: house-rules\ndescription: House formats.\n---\n\n# Rules\n- Lists: sort A to Z.\n";

    private static Map<String, Object> edit(String op, String file, String target, String content) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("op", op);
        if (file != null) m.put("file", file);
        m.put("target", target);
        m.put("content", content);
        return m;
    }

    @Test
    void anAppendCreatesAReferenceAndTheBodyLinksIt() {
        EditApplier.Result r = EditApplier.apply(SKILL_MD, List.of(
                edit("append", "SKILL.md", "", "Read references/formats.md before answering."),
                edit("append", "references/formats.md", "", "- Dates: YYYY-MM-DD."),
                edit("replace", "references/formats.md", "YYYY-MM-DD", "YYYY-MM-DD (ISO 8601)")));
        SkillBundle b = SkillBundle.unpack(r.text());
        assertEquals("- Dates: YYYY-MM-DD (ISO 8601).\n", b.file("references/formats.md").orElseThrow());
        assertTrue(b.skillMd().endsWith("Read references/formats.md before answering.\n"));
        assertEquals(List.of("applied_append", "applied_append", "applied_replace"), r.report().stream().map(x -> x.get("status")).toList());
        assertEquals("references/formats.md", r.report().get(1).get("file"));
        assertEquals(Map.of("total", 3, "applied", 3, "skipped", 0, "errors", 0), r.summary());
    }

    @Test
    void aPathOutsideTheBundleIsDroppedAndRecordedNotACrash() {
        for (String bad : List.of("../escape.md", "/etc/passwd", "scripts/x.md", "references/../../x.md")) {
            EditApplier.Result r = EditApplier.apply(SKILL_MD, List.of(edit("append", bad, "", "x"), edit("append", null, "", "- kept")));
            assertEquals(SKILL_MD.strip() + "\n\n- kept\n", r.text(), bad);
            assertEquals("skipped_path_outside_bundle", r.report().get(0).get("status"));
            assertTrue(String.valueOf(r.report().get(0).get("reason")).contains("\"" + bad + "\""), r.report().get(0).toString());
            assertEquals(1, r.summary().get("skipped"));
        }
    }

    @Test
    void theDescriptionIsTrainableButCannotGrowPastTheLimitAndTheNameStays() {
        EditApplier.Result ok = EditApplier.apply(SKILL_MD, List.of(edit("replace", "SKILL.md", "House formats.", "House formats; use for every answer."))) ;
        assertTrue(ok.text().contains("description: House formats; use for every answer."));
        EditApplier.Result tooLong = EditApplier.apply(SKILL_MD, List.of(edit("replace", "SKILL.md", "House formats.", "x".repeat(1100))));
        assertEquals(SKILL_MD, tooLong.text());
        assertEquals("skipped_frontmatter_invalid", tooLong.report().get(0).get("status"));
        assertTrue(String.valueOf(tooLong.report().get(0).get("reason")).contains("at most 1024"));
        EditApplier.Result renamed = EditApplier.apply(SKILL_MD, List.of(edit("replace", "SKILL.md", "name: house-rules", "name: other")));
        assertEquals(SKILL_MD, renamed.text());
        assertEquals("skipped_frontmatter_invalid", renamed.report().get(0).get("status"));
    }

    @Test
    void replaceInAMissingReferenceIsSkipped() {
        EditApplier.Result r = EditApplier.apply(SKILL_MD, List.of(edit("replace", "references/none.md", "a", "b")));
        assertEquals(SKILL_MD, r.text());
        assertEquals("skipped_file_not_found", r.report().get(0).get("status"));
    }

    @Test
    void aSingleFileSkillWithoutFileFieldsKeepsUpstreamsReportRows() {
        EditApplier.Result r = EditApplier.apply("# S\n", List.of(edit("append", null, "", "- a")));
        assertEquals("# S\n\n- a\n", r.text());
        assertEquals(List.of("op", "target", "content_preview", "status", "index"), List.copyOf(r.report().get(0).keySet()));
    }

    @Test
    void slowUpdateAndAppendixLandInSkillMdBeforeTheReferenceBlocks() {
        String packed = SkillBundle.of(SKILL_MD).with("references/a.md", "- a\n").pack();
        String slow = SkillDocument.replaceSlowUpdateField(SkillDocument.injectSlowPlaceholder(packed), "guidance");
        SkillBundle b = SkillBundle.unpack(slow);
        assertTrue(b.skillMd().contains("<!-- SLOW_UPDATE_START -->\nguidance\n<!-- SLOW_UPDATE_END -->"));
        assertEquals("- a\n", b.file("references/a.md").orElseThrow());
        assertTrue(slow.indexOf("SLOW_UPDATE_END") < slow.indexOf("BUNDLE_FILE:"), slow);
        String withNotes = SkillDocument.withAppendix(slow, List.of("note"));
        assertEquals(List.of("note"), SkillDocument.appendixNotes(withNotes));
        assertEquals("- a\n", SkillBundle.unpack(withNotes).file("references/a.md").orElseThrow());
    }

    @Test
    void appendToSkillMdGoesBeforeItsProtectedRegionNotAfterTheReferences() {
        String packed = SkillBundle.of(SkillDocument.injectSlowPlaceholder(SKILL_MD)).with("references/a.md", "- a\n").pack();
        EditApplier.Result r = EditApplier.apply(packed, List.of(edit("append", null, "", "- b")));
        assertEquals("applied_append_before_protected_region", r.report().get(0).get("status"));
        assertEquals("SKILL.md", r.report().get(0).get("file"), "every edit of a multi-file bundle names its file");
        String md = SkillBundle.unpack(r.text()).skillMd();
        assertTrue(md.indexOf("- b") < md.indexOf("SLOW_UPDATE_START"), md);
    }

    @Test
    void bundlePromptsAddTheBundleSectionOnlyForAgentSkills() {
        assertEquals("SYS", Prompts.forSkill("SYS", "# plain skill\n", false));
        assertTrue(Prompts.forSkill("SYS", SKILL_MD, false).contains("\"file\""));
        assertTrue(Prompts.forSkill("SYS", SKILL_MD, true).contains("Return the whole bundle"));
    }
}
