package io.skillopt4j.train;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Thread-safe (stateless). Operations on a skill document (Markdown) with upstream's two machine-owned
 * protected regions: the slow-update block and the skill-aware appendix block.
 */
public final class SkillDocument {
    public static final String SLOW_START = "<!-- SLOW_UPDATE_START -->";
    public static final String SLOW_END = "<!-- SLOW_UPDATE_END -->";
    public static final String APPENDIX_START = "<!-- APPENDIX_START -->";
    public static final String APPENDIX_END = "<!-- APPENDIX_END -->";
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

    /** Returns true when {@code pos} lies inside a protected region (first start marker .. end of first end marker). */
    static boolean inProtected(String skill, int pos) {
        return inRegion(skill, pos, SLOW_START, SLOW_END) || inRegion(skill, pos, APPENDIX_START, APPENDIX_END);
    }

    private static boolean inRegion(String skill, int pos, String start, String end) {
        int s = skill.indexOf(start);
        if (s < 0) return false;
        int e = skill.indexOf(end, s);
        int stop = e < 0 ? skill.length() : e + end.length();
        return pos >= s && pos < stop;
    }

    /** Returns the index of the earliest protected start marker, or -1. */
    static int firstProtectedStart(String skill) {
        int a = skill.indexOf(SLOW_START), b = skill.indexOf(APPENDIX_START);
        if (a < 0) return b;
        if (b < 0) return a;
        return Math.min(a, b);
    }

    /** Removes the four markers from edit content (edits may never write a protected region). */
    static String stripMarkers(String content) {
        String c = content;
        for (String m : MARKERS) c = c.replace(m, "");
        return c;
    }

    /** Returns Python's str.rstrip(). */
    static String rstrip(String s) {
        int e = s.length();
        while (e > 0 && Character.isWhitespace(s.charAt(e - 1))) e--;
        return s.substring(0, e);
    }

    /** Adds an empty slow-update block at the end (idempotent), as epoch 1 does. */
    public static String injectSlowPlaceholder(String skill) {
        if (skill.contains(SLOW_START)) return skill;
        return rstrip(skill) + "\n\n" + SLOW_START + "\n" + SLOW_END + "\n";
    }

    /** Returns the trimmed text between the slow-update markers, or "". */
    public static String slowUpdateContent(String skill) {
        int s = skill.indexOf(SLOW_START);
        if (s < 0) return "";
        int e = skill.indexOf(SLOW_END, s);
        return (e < 0 ? skill.substring(s + SLOW_START.length()) : skill.substring(s + SLOW_START.length(), e)).strip();
    }

    /**
     * Upstream's {@code replace_slow_update_field}: drop every slow-update block (and stray end markers), collapse
     * every triple newline in the document, right-trim, then append the new block at the very end.
     */
    public static String replaceSlowUpdateField(String skill, String content) {
        String t = removeBlocks(skill, SLOW_START, SLOW_END);
        t = collapse(t);
        return rstrip(t) + "\n\n" + SLOW_START + "\n" + content + "\n" + SLOW_END + "\n";
    }

    /** Removes every start..end block (an orphan start runs to the end) and every stray end marker. */
    static String removeBlocks(String skill, String start, String end) {
        String t = skill;
        int s;
        while ((s = t.indexOf(start)) >= 0) {
            int e = t.indexOf(end, s);
            t = e < 0 ? t.substring(0, s) : t.substring(0, s) + t.substring(e + end.length());
        }
        return t.replace(end, "");
    }

    static String collapse(String t) {
        while (t.contains("\n\n\n")) t = t.replace("\n\n\n", "\n\n");
        return t;
    }

    /** Returns the bullet notes of the appendix block, in order. */
    public static List<String> appendixNotes(String skill) {
        List<String> out = new ArrayList<>();
        int s = skill.indexOf(APPENDIX_START);
        if (s < 0) return out;
        int e = skill.indexOf(APPENDIX_END, s);
        String body = e < 0 ? skill.substring(s + APPENDIX_START.length()) : skill.substring(s + APPENDIX_START.length(), e);
        for (String line : body.split("\n")) {
            String l = line.strip();
            if (l.startsWith("- ")) out.add(l.substring(2).strip());
        }
        return out;
    }

    /** Re-appends the appendix block holding {@code notes} at the end (old blocks stripped, blank lines collapsed). */
    public static String withAppendix(String skill, List<String> notes) {
        String t = collapse(removeBlocks(skill, APPENDIX_START, APPENDIX_END));
        StringBuilder b = new StringBuilder(rstrip(t)).append("\n\n").append(APPENDIX_START).append("\n## Execution Notes Appendix\n");
        for (String n : notes) b.append("- ").append(n).append('\n');
        return b.append(APPENDIX_END).append('\n').toString();
    }

    /** Returns the skill with an empty appendix block (skill-aware start), unchanged if one exists. */
    public static String injectEmptyAppendix(String skill) {
        return skill.contains(APPENDIX_START) ? skill : withAppendix(skill, List.of());
    }

    /**
     * Returns the semantic density: share of lower-cased {@code [a-z0-9]+} tokens (protected regions removed)
     * that are leading words; 0 when there are no tokens.
     */
    public static double density(String skill, Set<String> leadingWordsLower) {
        String t = removeBlocks(removeBlocks(skill, SLOW_START, SLOW_END), APPENDIX_START, APPENDIX_END).toLowerCase(Locale.ROOT);
        Matcher m = TOKEN.matcher(t);
        int n = 0, hit = 0;
        while (m.find()) {
            n++;
            if (leadingWordsLower.contains(m.group())) hit++;
        }
        return n == 0 ? 0.0 : (double) hit / n;
    }
}
