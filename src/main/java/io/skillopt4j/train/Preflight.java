package io.skillopt4j.train;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.Checks;
import io.skillopt4j.config.ResolvedConfig;
import io.skillopt4j.config.RunConfig;
import io.skillopt4j.config.Suggest;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.env.RatioSplit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Stateless. Config checks beyond the config package, run before anything is built so a credentials error never
 * hides the real mistake; here so a training loads no notebook class besides the builder (.ci/launcher-check).
 */
public final class Preflight {
    /** The splits {@code eval} accepts: upstream's four, and the folder names they map to. */
    public static final List<String> SPLITS = List.of("train", "valid_seen", "valid_unseen", "all");
    private static final Set<String> SPLIT_ALIASES = Set.of("val", "selection", "test");

    private Preflight() {}

    /** Adds the problems of {@code r} to {@code out}; {@code customBenchmark}: the env name is not looked up. */
    public static void check(ResolvedConfig r, Path cwd, boolean customBenchmark, Checks out) {
        RunConfig.Env env = r.run().env();
        if (!customBenchmark) envName(env.name(), out);
        out.outputDir("out_root", env.outRoot());
        skillFolder(env.skillInit(), "env.skill_init", out);
        delivery(r, out);
        String prices = r.run().model().priceTable();
        if (!prices.isBlank()) out.file("model.price_table", cwd.resolve(prices).normalize());
        if (env.splitMode().equals("ratio")) {
            try {
                RatioSplit.parseRatio(env.splitRatio());
            } catch (ConfigException e) {
                out.add("env.split_ratio: " + e.getMessage());
            }
            if (!env.dataPath().isBlank() && !Files.exists(cwd.resolve(env.dataPath())))
                out.add("env.data_path " + cwd.resolve(env.dataPath()).normalize() + ": no such file or directory");
        } else if (env.splitMode().equals("split_dir") && !env.splitDir().isBlank()) {
            out.dir("env.split_dir", cwd.resolve(env.splitDir()).normalize());
        }
    }

    /** An {@code env.skill_init} (or eval {@code --skill}) folder must be a valid Agent Skill; one line per problem. */
    private static void skillFolder(String skillInit, String what, Checks out) {
        if (skillInit == null || skillInit.isBlank()) return;
        Path p = Path.of(skillInit).toAbsolutePath().normalize();
        if (!Files.isDirectory(p)) return;
        try {
            io.skillopt4j.env.SkillBundle.read(p, what);
        } catch (ConfigException e) {
            e.getMessage().lines().forEach(out::add);
        }
    }

    /** {@code file} delivery needs an exec target, {@code native} the one whose agent discovers skills (Claude Code). */
    private static void delivery(ResolvedConfig r, Checks out) {
        String d = io.skillopt4j.config.Setting.string("skill_delivery").of(r.flat()).strip();
        RunConfig.Model m = r.run().model();
        String target = io.skillopt4j.config.BackendNames.normalize(m.targetBackend().isBlank() ? m.backend() : m.targetBackend());
        boolean exec = io.skillopt4j.config.BackendNames.EXEC_BACKENDS.contains(target);
        if (d.equals("file") && !exec)
            out.add("env.skill_delivery: \"file\" needs an exec target (" + String.join(", ", new java.util.TreeSet<>(io.skillopt4j.config.BackendNames.EXEC_BACKENDS))
                    + "), got target backend \"" + target + "\" (use prompt or auto)");
        if (d.equals("native") && !target.equals(io.skillopt4j.config.BackendNames.CLAUDE_CODE_EXEC))
            out.add("env.skill_delivery: \"native\" installs the skill under .claude/skills/ and needs target backend claude_code_exec, got \"" + target + "\"");
    }

    private static void envName(String name, Checks out) {
        Set<String> installed = Benchmarks.all().keySet();
        String n = name.strip().toLowerCase(java.util.Locale.ROOT);
        if (installed.contains(n) || installed.contains(name)) return;
        String c = n.isEmpty() ? null : Suggest.closest(n, installed);
        out.add((n.isEmpty() ? "env.name (env) is not set" : "env.name (env): unknown env \"" + name + "\"")
                + (c == null ? "" : "; did you mean " + c + "?") + " (installed: " + String.join(", ", installed) + ")");
    }

    /** Checks {@code eval}'s inputs: the skill document and the split. */
    public static void eval(Path skill, String split, Checks out) {
        if (skill != null && Files.isDirectory(skill)) skillFolder(skill.toString(), "--skill", out);
        else out.file("--skill", skill);
        if (split != null && !split.isBlank() && !SPLITS.contains(split) && !SPLIT_ALIASES.contains(split))
            out.oneOf("--split", split, SPLITS);
    }
}
