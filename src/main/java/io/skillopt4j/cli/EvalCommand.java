package io.skillopt4j.cli;

import io.skillopt4j.notebook.SkillOpt;
import io.skillopt4j.train.Evaluator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** Not thread-safe (picocli command object). {@code skillopt eval}: upstream's {@code scripts/eval_only.py}. */
@Command(name = "eval", mixinStandardHelpOptions = true, description = "Evaluate one skill document on a split without training.")
public final class EvalCommand extends CliCommand {
    @Option(names = "--skill", required = true, paramLabel = "<skill.md>", description = "The skill document to evaluate, or an Agent Skill folder (docs/skills.md).")
    Path skill;

    @Option(names = "--split", defaultValue = "all", paramLabel = "<split>",
            description = "train, valid_seen, valid_unseen or all (default: ${DEFAULT-VALUE}).")
    String split;

    public static CommandLine commandLine() { return ConfigOptions.eval().commandLine(new EvalCommand()); }

    @Override public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        Evaluator ev = SkillOpt.request(ConfigOptions.eval().request(spec.commandLine().getParseResult()))
                .cliWarnings().onWarning(w -> { err.println(w); err.flush(); }).evaluator(skill, split);
        out.println("  [skill] " + skill.toAbsolutePath().normalize());
        out.println("  [eval] split=" + split + "  out_root=" + ev.outRoot());
        out.flush();
        Map<String, Object> s;
        try {
            s = ev.run();
        } catch (io.skillopt4j.BudgetExceeded | io.skillopt4j.ErroredHalt e) {
            err.println(e.getMessage()); // finished items are kept; an errored halt's items run again on a repeat
            err.flush();
            return e instanceof io.skillopt4j.ErroredHalt ? TrainCommand.EXIT_ERRORED : 1;
        }
        out.println(String.format(Locale.ROOT, "  Results: hard=%.4f  soft=%.4f  (n=%s)", s.get("hard"), s.get("soft"), s.get("n_items")));
        out.println("  Cost: " + ev.ledger().progressLine());
        out.println("  Saved to: " + ev.outRoot());
        out.flush();
        return 0;
    }
}
