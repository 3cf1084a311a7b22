package io.skillopt4j.config;

import io.skillopt4j.ConfigException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Not thread-safe; one per load. Upstream's {@code skillopt.config.load_config}: {@code _base_} inheritance (ours: also
 * a list), Codex aliases, "structured beats flat" and "child overrides base" rules, deep merge. Deliberate fix: a
 * top-level {@code env} mapping is never the flat duplicate of {@code env.name}, so it survives (upstream deletes it).
 */
public final class ConfigLoader {
    /** Codex alias normalisation: canonical key ← aliases in priority order. */
    static final Map<String, List<String>> CODEX_ALIASES = Map.of(
            "codex_exec_path", List.of("codex_path", "codex_cli_bin", "codex_bin"),
            "codex_exec_sandbox", List.of("sandbox", "codex_sandbox"));

    private final List<ConfigWarning> warnings;
    private final List<Layer> layers = new ArrayList<>();

    /** One loaded file after normalisation, for provenance ({@link ConfigDescription}). */
    public record Layer(Path path, Map<String, Object> content) {}

    public ConfigLoader(List<ConfigWarning> warnings) { this.warnings = warnings; }

    /** The files read, base first. */
    public List<Layer> layers() { return layers; }

    /** Loads {@code path} with its bases and returns the merged mapping (structured or flat, not flattened). */
    public Map<String, Object> load(Path path) {
        return loadFile(path.toAbsolutePath().normalize(), new ArrayList<>(), null);
    }

    private Map<String, Object> loadFile(Path abs, List<Path> chain, Path includer) {
        if (chain.contains(abs)) {
            throw new ConfigException("Circular _base_ inheritance: " + Stream.concat(chain.subList(chain.indexOf(abs),
                    chain.size()).stream(), Stream.of(abs)).map(Path::toString).collect(Collectors.joining(" -> ")));
        }
        String as = includer == null ? "" : includer + ": _base_ ";
        if (Files.isDirectory(abs)) {
            throw new ConfigException(as + "config file " + abs + ": is a directory, not a YAML file");
        }
        String text;
        try {
            text = Files.readString(abs, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException(includer == null ? "config file not found: " + abs
                    : includer + ": _base_ file not found: " + abs);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new ConfigException(as + "config file " + abs
                    + ": not a text file (not valid UTF-8; a binary file?)");
        } catch (IOException e) {
            throw new ConfigException(as + "cannot read config file " + abs + ": " + reason(e));
        }
        Object doc = Yaml11.parse(text, abs.toString());
        if (doc == null) doc = new LinkedHashMap<String, Object>();
        if (!(doc instanceof Map<?, ?>)) {
            throw new ConfigException(abs + ": top-level YAML must be a mapping, got " + Values.typeName(doc));
        }
        Map<String, Object> layer = Values.copyMap(doc);
        Object baseSpec = layer.remove("_base_");
        normaliseCodexAliases(layer);
        dropFlatDuplicates(layer);
        unknownKeys(layer, abs.toString(), warnings);
        List<Path> bases = basePaths(baseSpec, abs);
        chain.add(abs);
        Map<String, Object> acc = null;
        for (Path b : bases) {
            Map<String, Object> base = loadFile(b, chain, abs);
            acc = acc == null ? base : overlay(acc, base);
        }
        chain.remove(chain.size() - 1);
        layers.add(new Layer(abs, Values.copyMap(layer)));
        return acc == null ? layer : overlay(acc, layer);
    }

    private static Map<String, Object> overlay(Map<String, Object> base, Map<String, Object> child) {
        dropOverridden(base, child);
        return Values.deepMerge(base, child);
    }

    /** The operating system's reason for an I/O failure, without exception class names. */
    static String reason(IOException e) {
        if (e instanceof java.nio.file.AccessDeniedException) return "permission denied";
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) return f.getReason();
        if (Files.isDirectory(Path.of(String.valueOf(e.getMessage())))) return "is a directory";
        return e.getMessage() == null ? "I/O error" : e.getMessage();
    }

    private static List<Path> basePaths(Object spec, Path file) {
        List<Path> out = new ArrayList<>();
        if (spec == null || "".equals(spec) || Boolean.FALSE.equals(spec)) return out;
        List<?> items = spec instanceof List<?> l ? l : List.of(spec);
        for (Object o : items) {
            if (!(o instanceof String s) || s.isEmpty()) {
                throw ConfigException.badValue(file.toString(), "_base_", o, "a file path or a list of file paths");
            }
            out.add(file.getParent().resolve(s).toAbsolutePath().normalize());
        }
        return out;
    }

    /** Canonical Codex keys win; the first alias present fills a missing one; aliases are removed. */
    @SuppressWarnings("unchecked")
    static void normaliseCodexAliases(Map<String, Object> cfg) {
        normaliseOne(cfg);
        if (cfg.get("model") instanceof Map<?, ?> m) normaliseOne((Map<String, Object>) m);
    }

    private static void normaliseOne(Map<String, Object> m) {
        CODEX_ALIASES.forEach((canon, aliases) -> aliases.stream().filter(m::containsKey).forEach(alias -> {
            Object v = m.remove(alias);
            if (!m.containsKey(canon)) m.put(canon, v);
        }));
    }

    /** The canonical name of a Codex alias key, or the key itself. */
    static String canonicalKey(String key) {
        return CODEX_ALIASES.entrySet().stream().filter(e -> e.getValue().contains(key))
                .map(Map.Entry::getKey).findFirst().orElse(key);
    }

    /** Within one layer a nested {@code section.key} beats a top-level flat duplicate. */
    private static void dropFlatDuplicates(Map<String, Object> layer) {
        Flags.flattenMap().forEach((path, flat) -> {
            if (!isEnvSection(layer, flat) && Values.hasNested(layer, path)) layer.remove(flat);
        });
    }

    /** Before merging, the base loses every key the child sets in either representation. */
    private static void dropOverridden(Map<String, Object> base, Map<String, Object> child) {
        Flags.flattenMap().forEach((path, flat) -> {
            if (child.containsKey(flat) && !isEnvSection(child, flat) || Values.hasNested(child, path)) {
                if (!isEnvSection(base, flat)) base.remove(flat);
                Values.removeNested(base, path);
            }
        });
    }

    /** The fix of upstream's defect: top-level {@code env} holding a mapping is the section, not env.name. */
    private static boolean isEnvSection(Map<String, Object> m, String flat) {
        return flat.equals("env") && m.get("env") instanceof Map<?, ?>;
    }

    /** Unknown keys of the known sections, and mapping-valued top-level keys that are no section ({@code envv:}). */
    static void unknownKeys(Map<String, Object> layer, String source, List<ConfigWarning> out) {
        // a flat mapping may carry benchmark keys (not checked) but no mapping-valued section: its mappings are misspelt sections
        for (Map.Entry<String, Object> e : layer.entrySet()) {
            if (!(e.getValue() instanceof Map<?, ?> m)) continue;
            String section = e.getKey();
            if (section.equals("env")) continue;
            if (!Flags.SECTIONS.contains(section)) {
                out.add(new ConfigWarning(ConfigWarning.USER, source + ": unknown section " + section + " is ignored"
                        + Suggest.didYouMean(section, Flags.SECTIONS)));
                continue;
            }
            for (Object k : m.keySet()) {
                String path = section + "." + k;
                if (Flags.byPath(path).isPresent() || Flags.DROPPED_BASE_KEYS.contains(path)) continue;
                out.add(new ConfigWarning(ConfigWarning.USER, source + ": unknown key " + path + " is ignored"
                        + Suggest.didYouMean(path)));
            }
        }
    }
}
