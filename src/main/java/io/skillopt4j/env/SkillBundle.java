package io.skillopt4j.env;

import io.skillopt4j.ConfigException;
import io.skillopt4j.internal.AtomicFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Immutable. A skill as an Agent Skill folder: {@code SKILL.md} first, then text files under {@code references/},
 * {@code scripts/} or {@code assets/}, sorted. It travels through training as its <em>packed</em> text: SKILL.md,
 * then one {@code <!-- BUNDLE_FILE: path -->} … {@code <!-- BUNDLE_FILE_END -->} block per other file; a one-file
 * bundle packs to its SKILL.md unchanged, so single-file runs stay byte for byte what SkillOpt writes.
 */
public record SkillBundle(Map<String, String> files) {
    public static final String SKILL_MD = "SKILL.md";
    public static final String FILE_START = "<!-- BUNDLE_FILE: ";
    public static final String FILE_END = "<!-- BUNDLE_FILE_END -->";
    /** Folders the Agent Skills format defines besides SKILL.md. */
    public static final List<String> FOLDERS = List.of("references/", "scripts/", "assets/");
    private static final Pattern BLOCK = Pattern.compile("\\n?<!-- BUNDLE_FILE: ([^\\n]+?) -->\\n(.*?)<!-- BUNDLE_FILE_END -->\\n?", Pattern.DOTALL);

    public SkillBundle {
        Map<String, String> in = files == null ? Map.of() : files;
        Map<String, String> ordered = new LinkedHashMap<>();
        ordered.put(SKILL_MD, in.getOrDefault(SKILL_MD, ""));
        new TreeMap<>(in).forEach((k, v) -> { if (!k.equals(SKILL_MD)) ordered.put(k, v == null ? "" : v); });
        files = java.util.Collections.unmodifiableMap(ordered);
    }

    public static SkillBundle of(String skillMd) { return new SkillBundle(Map.of(SKILL_MD, skillMd == null ? "" : skillMd)); }

    /** SKILL.md's text, frontmatter included. */
    public String skillMd() { return files.get(SKILL_MD); }

    /** The paths of the files besides SKILL.md. */
    public List<String> references() { return List.copyOf(files.keySet()).subList(1, files.size()); }

    public Optional<String> file(String path) { return Optional.ofNullable(files.get(path)); }

    /** True when {@code text} is a packed multi-file bundle. */
    public static boolean isPacked(String text) { return text != null && text.contains(FILE_START) && text.contains(FILE_END); }

    /** Characters of reference files shown in full by default (env.skill_reference_budget). */
    public static final int DEFAULT_REFERENCE_BUDGET = 12000;
    /** Lines of a reference shown when it does not fit the budget. */
    static final int PREVIEW_LINES = 8;

    /** True for a packed bundle or a SKILL.md whose frontmatter names it; plain Markdown keeps upstream's prompts. */
    public static boolean isAgentSkill(String text) {
        return isPacked(text) || text != null && text.startsWith("---") && SkillFrontmatter.parse(text).map(f -> !f.name().isEmpty()).orElse(false);
    }

    /** The packed text with references in full up to {@code budget} characters in all, the rest as previews. */
    public static String view(String text, int budget) {
        return isPacked(text) ? unpack(text).packed(budget) : text == null ? "" : text;
    }

    private String packed(int budget) {
        int used = 0;
        StringBuilder out = new StringBuilder(skillMd());
        for (String p : references()) {
            String c = files.get(p);
            if (out.length() > 0 && out.charAt(out.length() - 1) != '\n') out.append('\n');
            boolean full = used + c.length() <= budget;
            if (full) used += c.length();
            String shown = full ? c : String.join("\n", c.lines().limit(PREVIEW_LINES).toList()) + "\n";
            out.append('\n').append(FILE_START).append(p)
                    .append(full ? "" : " (" + c.length() + " chars, " + c.lines().count() + " lines; first " + PREVIEW_LINES + " lines shown)")
                    .append(" -->\n").append(shown);
            if (!shown.isEmpty() && !shown.endsWith("\n")) out.append('\n');
            out.append(FILE_END).append('\n');
        }
        return out.toString();
    }

    /** Reads a packed text back; a text without blocks is a one-file bundle. */
    public static SkillBundle unpack(String text) {
        String t = text == null ? "" : text;
        if (!isPacked(t)) return of(t);
        Map<String, String> files = new LinkedHashMap<>();
        // each block is cut out of SKILL.md's text and kept as a file, in order
        String body = BLOCK.matcher(t).replaceAll(m -> {
            files.put(m.group(1).strip(), m.group(2));
            return "";
        });
        files.put(SKILL_MD, body);
        return new SkillBundle(files);
    }

    /** The packed text: SKILL.md, then one block per other file. */
    public String pack() { return packed(Integer.MAX_VALUE); }

    public SkillBundle withSkillMd(String text) { return with(SKILL_MD, text); }

    /** This bundle with {@code path} set; a path {@link #pathProblem} refuses throws a {@link ConfigException}. */
    public SkillBundle with(String path, String content) {
        String problem = pathProblem(path);
        if (problem != null) throw new ConfigException(problem);
        Map<String, String> m = new LinkedHashMap<>(files);
        m.put(path, content == null ? "" : content);
        return new SkillBundle(m);
    }

    /** Why an edit may not write {@code path}, or null: only SKILL.md and references/ .md/.txt files are writable. */
    public static String pathProblem(String path) {
        String p = path == null ? "" : path;
        if (p.equals(SKILL_MD)) return null;
        String why = null;
        if (p.isBlank()) why = "is empty";
        else if (p.startsWith("/") || p.startsWith("~") || p.matches("^[A-Za-z]:.*") || p.contains("\\")) why = "is absolute";
        else if (List.of(p.split("/", -1)).stream().anyMatch(s -> s.equals("..") || s.equals(".") || s.isEmpty())) why = "leaves the bundle or has an empty or '.' segment";
        else if (!p.startsWith("references/")) why = "is not SKILL.md and not under references/";
        else if (!p.endsWith(".md") && !p.endsWith(".txt")) why = "is not a .md or .txt file";
        else if (p.contains("-->")) why = "contains '-->'";
        return why == null ? null : "edit file \"" + p + "\" " + why + " (allowed: SKILL.md or references/<name>.md inside the bundle)";
    }

    /** The frontmatter problems of this bundle as a folder named {@code folderName} (null: any name). */
    public List<String> problems(String folderName) { return SkillFrontmatter.problems(skillMd(), folderName); }

    /** The frontmatter's name, or "". */
    public String name() { return SkillFrontmatter.parse(skillMd()).map(f -> f.name()).orElse(""); }

    /** This bundle as a valid Agent Skill (a frontmatter added when missing), else a {@link ConfigException}. */
    public SkillBundle asAgentSkill(String name, String description) {
        SkillBundle b = this;
        if (SkillFrontmatter.parse(skillMd()).isEmpty()) {
            String n = name == null ? "" : name;
            String d = description == null || description.isBlank() ? "Skill trained with SkillOpt4J; use it for the tasks it was trained on." : description;
            b = withSkillMd("---\nname: " + yamlScalar(n) + "\ndescription: " + yamlScalar(d) + "\n---\n\n" + skillMd());
        }
        List<String> problems = b.problems(name);
        if (!problems.isEmpty()) throw new ConfigException(String.join("\n", problems.stream().map(p -> "SKILL.md: " + p).toList()));
        return b;
    }

    /** A YAML scalar: plain when it is safe, else double-quoted with JSON escapes (a subset of YAML's). */
    static String yamlScalar(String s) {
        if (s.matches("[A-Za-z0-9][A-Za-z0-9 ,.;()/_-]*") && !s.endsWith(" ")) return s;
        return io.skillopt4j.internal.Json.line(s);
    }

    /** The total size in characters of every file. */
    public int chars() { return files.values().stream().mapToInt(String::length).sum(); }

    /** Reads an Agent Skill folder; each problem is one line of the exception, naming {@code what} named the folder. */
    public static SkillBundle read(Path dir, String what) {
        String where = what == null || what.isEmpty() ? "" : what + ": ";
        List<String> problems = new ArrayList<>();
        Path d = dir.toAbsolutePath().normalize();
        if (!Files.isDirectory(d)) throw new ConfigException(where + d + " is not a folder (an Agent Skill is a folder with SKILL.md)");
        Map<String, String> files = new LinkedHashMap<>();
        try (Stream<Path> walk = Files.walk(d)) {
            for (Path f : (Iterable<Path>) walk.filter(Files::isRegularFile).sorted()::iterator) {
                String rel = d.relativize(f).toString().replace('\\', '/');
                if (!rel.equals(SKILL_MD) && FOLDERS.stream().noneMatch(rel::startsWith)) {
                    problems.add(where + d + "/" + rel + ": not part of an Agent Skill (allowed: SKILL.md, references/, scripts/, assets/)");
                    continue;
                }
                Optional<String> text = utf8(Files.readAllBytes(f));
                if (text.isEmpty()) problems.add(where + d + "/" + rel + ": not UTF-8 text (a trained bundle holds text files only)");
                else files.put(rel, text.get());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + d, e);
        }
        if (!files.containsKey(SKILL_MD)) {
            problems.add(0, where + d + ": missing SKILL.md (an Agent Skill folder needs SKILL.md with name and description)");
        } else {
            for (String p : SkillFrontmatter.problems(files.get(SKILL_MD), d.getFileName().toString())) problems.add(where + d + "/SKILL.md: " + p);
        }
        if (!problems.isEmpty()) throw new ConfigException(String.join("\n", problems));
        return new SkillBundle(files);
    }

    private static Optional<String> utf8(byte[] b) {
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    /** Writes the bundle as the new or empty folder {@code dir}, via a renamed temp sibling: never half-written. */
    public void writeTo(Path dir) {
        Path d = dir.toAbsolutePath().normalize();
        try {
            if (Files.isDirectory(d)) {
                try (Stream<Path> s = Files.list(d)) {
                    if (s.findAny().isPresent()) throw new ConfigException(d + ": folder exists and is not empty (give a new or an empty folder)");
                }
                Files.delete(d);
            } else if (Files.exists(d)) {
                throw new ConfigException(d + ": exists and is not a folder");
            }
            Path parent = d.getParent();
            Files.createDirectories(parent);
            Path tmp = Files.createTempDirectory(parent, "." + d.getFileName() + ".tmp");
            try {
                for (Map.Entry<String, String> e : files.entrySet()) AtomicFiles.writeString(tmp.resolve(e.getKey()), e.getValue());
                Files.move(tmp, d, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            } finally {
                AtomicFiles.deleteTreeQuietly(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the skill folder " + d, e);
        }
    }
}
