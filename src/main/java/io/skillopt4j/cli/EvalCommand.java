package io.skillopt4j.cli;

import io.skillopt4j.backend.Backends;
import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.config.ConfigWarning;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.config.ResolvedConfig;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.train.Evaluator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Not thread-safe (picocli command object). {@code skillopt eval --config F --skill S [--split X] [flags]}:
 * upstream's {@code scripts/eval_only.py}; writes {@code <out_root>/eval_summary.json}.
 */
@Command(name = "eval", mixinStandardHelpOptions = true, description = "Evaluate one skill document on a split without training.")
public final class EvalCommand implements Callable<Integer> {
    @CommandLine.Spec CommandSpec spec;

    @Option(names = "--skill", required = true, paramLabel = "<skill.md>", description = "The skill document to evaluate.")
    Path skill;

    @Option(names = "--split", defaultValue = "all", paramLabel = "<split>",
            description = "train, valid_seen, valid_unseen or all (default: ${DEFAULT-VALUE}).")
    String split;

    /** Returns the command with eval_only's config options. */
    public static CommandLine commandLine() {
        CommandSpec s = CommandSpec.forAnnotatedObject(new EvalCommand());
        ConfigOptions.eval().addTo(s);
        return new CommandLine(s);
    }

    @Override public Integer call() {
        ResolvedConfig cfg = ConfigOptions.eval().resolve(spec.commandLine().getParseResult());
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        for (ConfigWarning w : cfg.warnings()) err.println(w);
        err.flush();
        FlatConfig flat = cfg.flat();
        Path outRoot = Path.of(flat.string("out_root", "outputs/eval"));
        ModelRoles roles = Backends.roles(flat);
        Benchmark bench = Benchmarks.create(flat.string("env", ""), new BenchmarkContext(flat, roles, outRoot));
        out.println("  [skill] " + skill.toAbsolutePath().normalize());
        out.println("  [eval] split=" + split + "  out_root=" + outRoot);
        out.flush();
        Map<String, Object> s = new Evaluator(flat, bench, skill, split, outRoot).run();
        out.println(String.format(Locale.ROOT, "  Results: hard=%.4f  soft=%.4f  (n=%s)", s.get("hard"), s.get("soft"), s.get("n_items")));
        out.println("  Saved to: " + outRoot);
        out.flush();
        return 0;
    }
}
