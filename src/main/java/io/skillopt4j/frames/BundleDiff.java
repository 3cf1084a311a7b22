package io.skillopt4j.frames;

import io.skillopt4j.env.SkillBundle;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Immutable. The per-file diffs between two versions of a skill bundle: one {@link Diff} per file either version
 * has ({@code SKILL.md} first), a file one version lacks diffed against empty.
 */
public record BundleDiff(List<Diff> files) {
    public BundleDiff {
        files = List.copyOf(files);
    }

    /** The per-file diffs from packed text {@code before} to packed text {@code after}, labelled {@code fromLabel/path}. */
    public static BundleDiff of(String fromLabel, String before, String toLabel, String after) {
        SkillBundle a = SkillBundle.unpack(before), b = SkillBundle.unpack(after);
        Map<String, String> paths = new HashMap<>(a.files());
        paths.putAll(b.files());
        // a bundle of both versions' paths gives them in bundle order (SKILL.md first)
        return new BundleDiff(new SkillBundle(paths).files().keySet().stream()
                .map(p -> Diff.of(fromLabel + "/" + p, a.file(p).orElse(""), toLabel + "/" + p, b.file(p).orElse("")))
                .toList());
    }

    /** Diffs two documents (packed bundles or single files), labelled with their labels. */
    public static BundleDiff of(Markdown a, Markdown b) { return of(a.label(), a.text(), b.label(), b.text()); }

    public List<Diff> changed() { return files.stream().filter(d -> !d.isEmpty()).toList(); }

    public int added() { return files.stream().mapToInt(Diff::added).sum(); }

    public int removed() { return files.stream().mapToInt(Diff::removed).sum(); }

    @Override public String toString() {
        StringBuilder b = new StringBuilder();
        for (Diff d : files) {
            String name = d.to().contains("/") ? d.to().substring(d.to().indexOf('/') + 1) : d.to();
            b.append(d.isEmpty() ? "\n" + name + ": no changes\n" : d.toString() + "\n");
        }
        return b.append(files.size()).append(" file(s), ").append(changed().size()).append(" changed · +").append(added())
                .append(" −").append(removed()).append(" lines").toString();
    }
}
