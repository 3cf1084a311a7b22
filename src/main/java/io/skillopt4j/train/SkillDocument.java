package io.skillopt4j.train;

import io.skillopt4j.env.SkillBundle;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** Stateless. Operations on a skill document with upstream's protected regions: slow-update and appendix blocks. */
public final class SkillDocument {
    public static final String SLOW_START = "<!-- SLOW_UPDATE_START -->";
    public static final String SLOW_END = "<!-- SLOW_UPDATE_END -->";
    public static final String APPENDIX_START = "<!-- APPENDIX_START -->";
    public static final String APPENDIX_END = "<!-- APPENDIX_END -->";
    static final String APPENDIX_HEADING = "## Execution Notes Appendix";
    static final List<String> MARKERS = List.of(SLOW_START, SLOW_END, APPENDIX_START, APPENDIX_END);
    public static final List<String> DEFAULT_LEADING_WORDS = List.of("MUST", "ALWAYS", "NEVER", "ONLY", "CRITICAL",
            "IMPORTANT", "RESOLVE", "PREFER", "ENSURE", "STRICT", "VERIFY");
    private static final Pattern TOKEN = Pattern.compile("[a-z0-9]+");

    private SkillDocument() {}

    /** Returns upstream's skill hash: the first 16 hex characters of SHA-256 over the UTF-8 bytes. */
    public static String hash(String skill) {
        return io.skillopt4j.internal.Hashes.sha256Hex(skill == null ? "" : skill).substring(0, 16);
    }

    /** Returns the length in Unicode code points (Python's len). */
    public static int length(String s) { return s == null ? 0 : s.codePointCount(0, s.length()); }

    /** Returns the first {@code n} code points of {@code s}. */
    public static String prefix(String s, int n) {
        if (s == null) return "";
        if (length(s) <= n) return s;
        return s.substring(0, s.offsetByCodePoints(0, n));
    }

    /** Upstream's protected-region test: per pair, the first start marker to the end of the first end marker. */
    static boolean inProtected(String skill, int pos) {
        return inRegion(skill, pos, SLOW_START, SLOW_END) || inRegion(skill, pos, APPENDIX_START, APPENDIX_END);
    }

    private static boolean inRegion(String skill, int pos, String start, String end) {
        int s = skill.indexOf(start), e = skill.indexOf(end);
        return s >= 0 && e >= 0 && pos >= s && pos < e + end.length();
    }

    /** Applies a whole-document operation to a bundle's SKILL.md, where the protected regions live. */
    static String onSkillMd(String packed, java.util.function.UnaryOperator<String> op) {
        SkillBundle b = SkillBundle.unpack(packed);
        return b.withSkillMd(op.apply(b.skillMd())).pack();
    }

    /** Returns the index of the earliest protected start marker, or -1. */
    static int firstProtectedStart(String skill) {
        int a = skill.indexOf(SLOW_START), b = skill.indexOf(APPENDIX_START);
        return a < 0 ? b : b < 0 ? a : Math.min(a, b);
    }

    /** Removes the four markers from edit content (edits may never write a protected region). */
    static String stripMarkers(String content) {
        String c = content;
        for (String m : MARKERS) c = c.replace(m, "");
        return c.replace(SkillBundle.FILE_END, "").replace(SkillBundle.FILE_START, "");
    }

    /** Adds an empty slow-update block at the end unless both markers exist, as epoch 1 does. */
    public static String injectSlowPlaceholder(String skill) {
        if (SkillBundle.isPacked(skill)) return onSkillMd(skill, SkillDocument::injectSlowPlaceholder);
        if (skill.contains(SLOW_START) && skill.contains(SLOW_END)) return skill;
        return skill.stripTrailing() + "\n\n" + SLOW_START + "\n" + SLOW_END + "\n";
    }

    /** Returns the trimmed text between the first start and the first end marker, or "" without both. */
    public static String slowUpdateContent(String skill) { return between(skill, SLOW_START, SLOW_END).strip(); }

    /** Upstream's extract: text between the first {@code start} and the first {@code end} (searched from the top). */
    private static String between(String skill, String start, String end) {
        int s = skill.indexOf(start), e = skill.indexOf(end);
        if (s < 0 || e < 0) return "";
        int from = s + start.length();
        return e <= from ? "" : skill.substring(from, e);
    }

    /** Upstream's {@code replace_slow_update_field}: old blocks dropped, newlines collapsed, the new block appended. */
    public static String replaceSlowUpdateField(String skill, String content) {
        if (SkillBundle.isPacked(skill)) return onSkillMd(skill, t -> replaceSlowUpdateField(t, content));
        String t = collapse(removeBlocks(skill, SLOW_START, SLOW_END, false).replace(SLOW_END, "")).stripTrailing();
        return t + "\n\n" + SLOW_START + "\n" + content + "\n" + SLOW_END + "\n";
    }

    /**
     * Removes start..end blocks as upstream's strip loops do: an orphan start marker loses only itself and ends the
     * loop; {@code fromLastStart} (appendix) cuts from the last start before the end. Stray end markers stay.
     */
    static String removeBlocks(String skill, String start, String end, boolean fromLastStart) {
        String t = skill;
        int s;
        while ((s = t.indexOf(start)) >= 0) {
            int e = t.indexOf(end, s);
            if (e < 0) return t.substring(0, s) + t.substring(s + start.length());
            int cut = fromLastStart ? t.lastIndexOf(start, e) : s;
            t = t.substring(0, cut) + t.substring(e + end.length());
        }
        return t;
    }

    static String collapse(String t) {
        while (t.contains("\n\n\n")) t = t.replace("\n\n\n", "\n\n");
        return t;
    }

    /** Upstream's {@code extract_appendix_notes}: the block's non-empty lines, heading skipped, bullets removed. */
    public static List<String> appendixNotes(String skill) {
        List<String> out = new ArrayList<>();
        for (String line : between(skill, APPENDIX_START, APPENDIX_END).strip().split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.equals(APPENDIX_HEADING) || stripHashes(l).equals(stripHashes(APPENDIX_HEADING))) continue;
            if (l.startsWith("- ")) l = l.substring(2).strip();
            else if (l.startsWith("-") || l.startsWith("*")) l = l.substring(1).strip();
            if (!l.isEmpty()) out.add(l);
        }
        return out;
    }

    private static String stripHashes(String l) { return l.replaceFirst("^#+", "").strip(); }

    /** Re-appends the appendix block holding {@code notes} at the end (old blocks stripped, blank lines collapsed). */
    public static String withAppendix(String skill, List<String> notes) {
        if (SkillBundle.isPacked(skill)) return onSkillMd(skill, t -> withAppendix(t, notes));
        String t = collapse(removeBlocks(skill, APPENDIX_START, APPENDIX_END, true).replace(APPENDIX_END, "")).stripTrailing();
        StringBuilder b = new StringBuilder(t).append("\n\n").append(APPENDIX_START).append('\n').append(APPENDIX_HEADING).append('\n');
        for (String n : notes) b.append("- ").append(n).append('\n');
        return b.append(APPENDIX_END).append('\n').toString();
    }

    /** Returns the skill with an empty appendix block appended (skill-aware start), unchanged if both markers exist. */
    public static String injectEmptyAppendix(String skill) {
        if (SkillBundle.isPacked(skill)) return onSkillMd(skill, SkillDocument::injectEmptyAppendix);
        if (skill.contains(APPENDIX_START) && skill.contains(APPENDIX_END)) return skill;
        return skill.stripTrailing() + "\n\n" + APPENDIX_START + "\n" + APPENDIX_HEADING + "\n" + APPENDIX_END + "\n";
    }

    /** The semantic density: the share of {@code [a-z0-9]+} tokens out of protected regions that are leading words. */
    public static double density(String skill, Set<String> leadingWordsLower) {
        if (skill.isBlank()) return 0.0;
        // upstream's density strip keeps stray end markers (their words count)
        String t = removeBlocks(removeBlocks(skill, SLOW_START, SLOW_END, false), APPENDIX_START, APPENDIX_END, false).toLowerCase(Locale.ROOT);
        List<String> tokens = TOKEN.matcher(t).results().map(java.util.regex.MatchResult::group).toList();
        long hits = tokens.stream().filter(leadingWordsLower::contains).count();
        return tokens.isEmpty() ? 0.0 : (double) hits / tokens.size();
    }
}
