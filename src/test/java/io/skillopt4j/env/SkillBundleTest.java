package io.skillopt4j.env;

import io.skillopt4j.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The bundle type: packing, the specification's frontmatter checks, folder reading and writing, edit paths. */
class SkillBundleTest {
    static final String SKILL_MD = "---\nname: house-rules\ndescription: House formats; use for every answer.\n---\n\n# Rules\n- Read references/a.md.\n";

    static Path folder(Path root, String name, String skillMd) throws Exception {
        Path d = root.resolve(name);
        Files.createDirectories(d);
        Files.writeString(d.resolve("SKILL.md"), skillMd);
        return d;
    }

    @Test
    void aOneFileBundlePacksToItsSkillMdByteForByte() {
        String plain = "# Skill\n\n- rule\n";
        assertEquals(plain, SkillBundle.of(plain).pack());
        assertEquals(plain, SkillBundle.unpack(plain).skillMd());
        assertFalse(SkillBundle.isPacked(plain));
        assertFalse(SkillBundle.isAgentSkill(plain), "a SkillOpt single file keeps upstream's prompts");
        assertTrue(SkillBundle.isAgentSkill(SKILL_MD));
    }

    @Test
    void packedTextRoundTripsAndKeepsSkillMdFirst() {
        SkillBundle b = new SkillBundle(Map.of("references/z.md", "- z\n", "SKILL.md", SKILL_MD, "references/a.md", "- a\n"));
        assertEquals(List.of("SKILL.md", "references/a.md", "references/z.md"), List.copyOf(b.files().keySet()));
        String packed = b.pack();
        assertTrue(packed.startsWith(SKILL_MD));
        assertTrue(packed.contains("<!-- BUNDLE_FILE: references/a.md -->\n- a\n<!-- BUNDLE_FILE_END -->\n"));
        assertEquals(b, SkillBundle.unpack(packed));
        assertEquals(packed, SkillBundle.unpack(packed).pack());
    }

    @Test
    void textAfterTheBlocksBelongsToSkillMd() {
        String packed = SkillBundle.of(SKILL_MD).with("references/a.md", "- a\n").pack() + "\n<!-- SLOW_UPDATE_START -->\nx\n<!-- SLOW_UPDATE_END -->\n";
        SkillBundle b = SkillBundle.unpack(packed);
        assertTrue(b.skillMd().contains("SLOW_UPDATE_START"));
        assertEquals("- a\n", b.file("references/a.md").orElseThrow());
    }

    @Test
    void readsAValidFolderWithReferences(@TempDir Path tmp) throws Exception {
        Path d = folder(tmp, "house-rules", SKILL_MD);
        Files.createDirectories(d.resolve("references"));
        Files.writeString(d.resolve("references/a.md"), "- a\n");
        SkillBundle b = SkillBundle.read(d, "env.skill_init");
        assertEquals("house-rules", b.name());
        assertEquals(List.of("references/a.md"), b.references());
    }

    @Test
    void badBundlesGiveOneLinePerProblemNamingTheField(@TempDir Path tmp) throws Exception {
        Path missing = tmp.resolve("empty");
        Files.createDirectories(missing);
        assertLines(missing, "missing SKILL.md");
        assertLines(folder(tmp, "no-frontmatter", "# just text\n"), "no frontmatter");
        assertLines(folder(tmp, "Caps", "---\nname: Caps\ndescription: d\n---\n"), "frontmatter name \"Caps\" is not lower-case");
        assertLines(folder(tmp, "a--b", "---\nname: a--b\ndescription: d\n---\n"), "double hyphen");
        assertLines(folder(tmp, "long-desc", "---\nname: long-desc\ndescription: " + "x".repeat(1025) + "\n---\n"),
                "frontmatter description has 1025 characters (allowed: at most 1024)");
        assertLines(folder(tmp, "other", "---\nname: not-other\ndescription: d\n---\n"), "differs from the folder's name \"other\"");
        assertLines(folder(tmp, "empty-desc", "---\nname: empty-desc\ndescription: \"\"\n---\n"), "frontmatter description is missing or empty");
        assertLines(folder(tmp, "x" .repeat(65), "---\nname: " + "x".repeat(65) + "\ndescription: d\n---\n"), "has 65 characters (allowed: at most 64)");
        Path stray = folder(tmp, "stray", "---\nname: stray\ndescription: d\n---\n");
        Files.writeString(stray.resolve("notes.md"), "x");
        assertLines(stray, "stray/notes.md: not part of an Agent Skill");
    }

    private static void assertLines(Path dir, String expected) {
        ConfigException e = assertThrows(ConfigException.class, () -> SkillBundle.read(dir, "env.skill_init"));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertTrue(e.getMessage().startsWith("env.skill_init: "), e.getMessage());
        for (String line : e.getMessage().split("\n")) assertTrue(line.startsWith("env.skill_init: "), "one line per problem: " + line);
    }

    @Test
    void editPathsMustStayInsideTheBundle() {
        assertNull(SkillBundle.pathProblem("SKILL.md"));
        assertNull(SkillBundle.pathProblem("references/formats.md"));
        for (String bad : List.of("../x.md", "/etc/passwd", "references/../../x.md", "scripts/run.sh", "references/x.sh", "C:/x.md", "", "references//x.md"))
            assertNotNull(SkillBundle.pathProblem(bad), bad);
        ConfigException e = assertThrows(ConfigException.class, () -> SkillBundle.of(SKILL_MD).with("../escape.md", "x"));
        assertTrue(e.getMessage().contains("\"../escape.md\" leaves the bundle"), e.getMessage());
    }

    @Test
    void writesAFolderAtomicallyAndRefusesANonEmptyOne(@TempDir Path tmp) throws Exception {
        SkillBundle b = SkillBundle.of(SKILL_MD).with("references/a.md", "- a\n");
        b.writeTo(tmp.resolve("out/house-rules"));
        assertEquals(b, SkillBundle.read(tmp.resolve("out/house-rules"), ""));
        assertThrows(ConfigException.class, () -> b.writeTo(tmp.resolve("out/house-rules")));
        try (var s = Files.list(tmp.resolve("out"))) {
            assertEquals(List.of("house-rules"), s.map(p -> p.getFileName().toString()).toList(), "no temp folder left");
        }
    }

    @Test
    void viewShowsReferencesInFullUpToTheBudgetThenAPreview() {
        String big = "line\n".repeat(50);
        String packed = SkillBundle.of(SKILL_MD).with("references/a.md", "- a\n").with("references/b.md", big).pack();
        assertEquals(packed, SkillBundle.view(packed, 10_000));
        String v = SkillBundle.view(packed, 20);
        assertTrue(v.contains("<!-- BUNDLE_FILE: references/a.md -->\n- a\n"), v);
        assertTrue(v.contains("references/b.md (250 chars, 50 lines; first 8 lines shown) -->"), v);
        assertEquals(8, v.lines().filter(l -> l.equals("line")).count());
    }

    @Test
    void asAgentSkillAddsFrontmatterToAPlainSkillAndChecksIt() {
        SkillBundle b = SkillBundle.of("# Skill\n- rule\n").asAgentSkill("my-skill", null);
        assertEquals("my-skill", b.name());
        assertTrue(b.problems("my-skill").isEmpty());
        assertThrows(ConfigException.class, () -> SkillBundle.of("# Skill\n").asAgentSkill("My Skill", null));
    }

    @Test
    void deliveryModesPlaceTheBundleWhereTheAgentLooks() {
        String packed = SkillBundle.of(SKILL_MD).with("references/a.md", "- a\n").pack();
        assertEquals(SkillDelivery.FILE, SkillDelivery.of("auto", true));
        assertEquals(SkillDelivery.PROMPT, SkillDelivery.of("", false));
        assertEquals(Map.of(".agents/skills/skillopt-target/references/a.md", "- a\n"), SkillDelivery.FILE.workspaceFiles(packed));
        assertEquals("\n# Rules\n- Read references/a.md.\n", SkillDelivery.FILE.execSkill(packed), "the body; the agent's wrapper adds its frontmatter");
        assertEquals(Map.of(".claude/skills/house-rules/SKILL.md", SKILL_MD, ".claude/skills/house-rules/references/a.md", "- a\n"),
                SkillDelivery.NATIVE.workspaceFiles(packed));
        assertEquals("", SkillDelivery.NATIVE.execSkill(packed));
        assertEquals("# plain\n", SkillDelivery.FILE.execSkill("# plain\n"), "a SkillOpt single file is passed as it is");
        assertTrue(SkillDelivery.NATIVE.workspaceFiles("# plain\n").get(".claude/skills/skillopt-target/SKILL.md").startsWith("---\nname: skillopt-target\n"));
    }
}
