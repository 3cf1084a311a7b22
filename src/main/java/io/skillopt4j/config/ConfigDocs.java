package io.skillopt4j.config;

import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Resources;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Immutable (static functions). Generates docs/config.md from {@code config-doc-template.md} and the tables, so the
 * documented keys cannot drift from the code: {@code java -cp target/classes io.skillopt4j.config.ConfigDocs}.
 */
public final class ConfigDocs {
    private ConfigDocs() {}

    /** Writes the rendered document to {@code args[0]} (default docs/config.md). */
    public static void main(String[] args) {
        Path out = Path.of(args.length > 0 ? args[0] : "docs/config.md");
        AtomicFiles.writeString(out, render());
        System.out.println("wrote " + out.toAbsolutePath());
    }

    public static String render() {
        String keys = Flags.SECTIONS.stream().map(ConfigDocs::section).collect(Collectors.joining());
        return Resources.text("/io/skillopt4j/config/config-doc-template.md").replace("{{ALIASES}}", aliases())
                .replace("{{DEFAULT_MODELS}}", defaultModels())
                .replace("{{PAIRINGS}}", pairings()).replace("{{COUNTS}}", counts()).replace("{{KEYS}}", keys.strip());
    }

    private static String counts() {
        long trainFlags = Flags.flags(false).stream().filter(f -> !f.ours()).count() + 2;
        long evalFlags = Flags.flags(true).stream().filter(f -> !f.ours()).count() + 4;
        return "The table holds " + Flags.ALL.size() + " keys: upstream's " + Flags.upstreamFlattenMap().size()
                + "-entry flatten map, the `env.*` pass-through flags, the retired `max_analyst_rounds` and "
                + Flags.ALL.stream().filter(FlagSpec::ours).count() + " SkillOpt4J additions. `train` accepts upstream "
                + "`scripts/train.py`'s " + trainFlags + " options (with `--config` and `--cfg-options`), `eval` the "
                + evalFlags + " of `scripts/eval_only.py` (with `--config`, `--skill`, `--split`, `--cfg-options`).";
    }

    private static String aliases() {
        Map<String, String> byCanon = BackendNames.ALIASES.entrySet().stream().collect(Collectors.groupingBy(Map.Entry::getValue,
                LinkedHashMap::new, Collectors.mapping(e -> "`" + e.getKey() + "`", Collectors.joining(", "))));
        return "| Canonical | Accepted names (any case, trimmed) |\n|---|---|\n" + byCanon.entrySet().stream()
                .map(e -> "| `" + e.getKey() + "` | " + e.getValue() + " |").collect(Collectors.joining("\n"));
    }

    private static String defaultModels() {
        StringBuilder b = new StringBuilder("| Backend | Default model | Read first from (no model configured) |\n|---|---|---|\n");
        BackendNames.DEFAULT_MODELS.forEach((k, v) -> {
            String env = BackendNames.MODEL_ENV.get(k);
            b.append("| `").append(k).append("` | `").append(v).append("` | ")
                    .append(env == null ? "" : "`{ROLE}_" + env + "`, `" + env + "`").append(" |\n");
        });
        b.append("| anything else (copilot_*) | `").append(BackendNames.defaultModel("copilot_exec")).append("` |  |");
        return b.toString();
    }

    private static String pairings() {
        return "| `--backend` label | optimizer_backend | target_backend |\n|---|---|---|\n" + new TreeSet<>(BackendNames.ALIASES.values())
                .stream().map(label -> {
                    BackendNames.RolePair p = BackendNames.pairing(label, false);
                    return "| `" + label + "` | `" + p.optimizer() + "` | `" + p.target() + "` |";
                }).collect(Collectors.joining("\n"));
    }

    private static String section(String section) {
        List<FlagSpec> rows = Flags.ALL.stream().filter(f -> f.section().equals(section)).toList();
        StringBuilder b = new StringBuilder("### `" + section + "`\n\n");
        b.append("| Key | Flat key | Flag | Type | Default | Allowed | Description |\n|---|---|---|---|---|---|---|\n");
        for (FlagSpec f : rows) {
            b.append("| `").append(f.path()).append("`");
            if (f.ours()) b.append(" (SkillOpt4J)");
            if (f.retired()) b.append(" (retired)");
            b.append(" | ").append(f.mapped() ? "`" + f.key() + "`" : f.retired() ? "–" : "`" + f.key() + "` (pass-through)");
            b.append(" | ").append(flagCell(f));
            b.append(" | ").append(f.type().name().toLowerCase(java.util.Locale.ROOT));
            b.append(" | ").append(defaultCell(f));
            b.append(" | ").append(f.choices().isEmpty() ? "" : String.join(", ",
                    f.choices().stream().map(c -> c.isEmpty() ? "`\"\"`" : "`" + c + "`").toList()));
            b.append(" | ").append(f.help().replace("|", "\\|")).append(" |\n");
        }
        return b.append('\n').toString();
    }

    private static String flagCell(FlagSpec f) {
        if (f.flag() == null) return "–";
        String where = f.train() && f.eval() ? "" : f.eval() ? " (eval only)" : " (train only)";
        return "`--" + f.flag() + "`" + where;
    }

    private static String defaultCell(FlagSpec f) {
        Object d = f.defaultValue();
        String text = literal(d, "null");
        String env = envCell(f);
        if (f.inBase()) return text + env;
        return d == null && env.isEmpty() ? "(absent)" : env.isEmpty() ? "(absent → " + text + ")" : "(absent)" + env;
    }

    /** What a backend reads after the config: {@code "; blank: `A`, `B`, then `x`"}, or "" for a config-only key. */
    private static String envCell(FlagSpec f) {
        FlagSpec.Env e = f.env();
        if (e == null) return "";
        List<String> names = e.names().stream().map(n -> "`" + n + "`").toList();
        String fb = literal(e.fallback(), "unset");
        if (e.secret()) return "; environment first: " + String.join(", ", names) + ", then the config";
        String aliases = e.aliases().isEmpty() ? "" : "`" + String.join("`, `", e.aliases()) + "` (config), ";
        return " → " + aliases + (names.isEmpty() ? "" : String.join(", ", names) + ", ") + "then " + fb;
    }

    private static String literal(Object v, String ifNull) {
        return v == null ? ifNull : v instanceof String s ? "`\"" + s + "\"`" : "`" + (v instanceof Boolean ? v : Coercion.pyStr(v)) + "`";
    }
}
