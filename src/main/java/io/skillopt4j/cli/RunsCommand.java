package io.skillopt4j.cli;

import io.skillopt4j.RunFolderException;
import io.skillopt4j.config.Suggest;
import io.skillopt4j.frames.Frame;
import io.skillopt4j.frames.RunFrames;
import io.skillopt4j.frames.TextTable;
import io.skillopt4j.notebook.Runs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/** Not thread-safe; one per invocation. {@code skillopt runs ls DIR} and {@code skillopt runs show RUN}: the notebook frames as text. */
@Command(name = "runs", description = "List run folders and show their frames as text.",
        subcommands = {RunsCommand.Ls.class, RunsCommand.Show.class})
public final class RunsCommand extends GroupCommand {
    @Command(name = "ls", description = "One line per run folder under DIR: status, steps, best and test scores.")
    static final class Ls extends CliCommand {
        @Parameters(index = "0", paramLabel = "DIR", defaultValue = "outputs", description = "Folder of runs (default: ${DEFAULT-VALUE}).")
        Path dir;
        @Option(names = "--rows", defaultValue = "50", description = "Maximum rows to print (default: ${DEFAULT-VALUE}).")
        int rows;

        @Override public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            new io.skillopt4j.config.Checks().atLeast("--rows", rows, 1).throwIfAny();
            try {
                out.println(Runs.list(dir).print(rows, TextTable.MAX_WIDTH).substring(1));
                return 0;
            } catch (RunFolderException e) {
                spec.commandLine().getErr().println("error: " + e.getMessage());
                return 2;
            }
        }
    }

    @Command(name = "show", description = "Print a run's frames: summary, steps and epochs by default.")
    static final class Show extends CliCommand {
        static final List<String> FRAMES = List.of("summary", "steps", "epochs", "edits", "rollouts", "traces", "tokens", "faults", "tests", "warnings");
        @Parameters(index = "0", paramLabel = "RUN", description = "Run folder (SkillOpt4J or Python SkillOpt).")
        Path run;
        @Option(names = {"-f", "--frame"}, split = ",", paramLabel = "NAME",
                description = "Frames to print, comma separated: summary, steps, epochs, edits, rollouts, traces, tokens, faults, tests, warnings, all "
                        + "(default: summary, steps, epochs, and faults when any were counted).")
        List<String> frames;
        @Option(names = "--rows", defaultValue = "20", description = "Maximum rows per frame (default: ${DEFAULT-VALUE}).")
        int rows;
        @Option(names = "--width", defaultValue = "32", description = "Maximum cell width (default: ${DEFAULT-VALUE}).")
        int width;

        @Override public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            io.skillopt4j.config.Checks checks = new io.skillopt4j.config.Checks().atLeast("--rows", rows, 1).atLeast("--width", width, 4);
            List<String> asked = frames == null ? List.of("summary", "steps", "epochs") : frames;
            List<String> names = asked.contains("all") ? FRAMES : asked;
            for (String n : names) {
                if (!FRAMES.contains(n))
                    checks.add("--frame " + n + " is not a frame; allowed: " + String.join(", ", FRAMES) + ", all" + Suggest.didYouMean(n, FRAMES));
            }
            checks.throwIfAny();
            RunFrames f;
            try {
                f = RunFrames.load(run);
            } catch (RunFolderException e) {
                spec.commandLine().getErr().println("error: " + e.getMessage());
                return 2;
            }
            if (frames == null && f.faults().rowCount() > 1) names = List.of("summary", "steps", "epochs", "faults"); // errored, retried...
            for (int i = 0; i < names.size(); i++) {
                String n = names.get(i);
                if (i > 0) out.println();
                out.println("== " + n);
                if (n.equals("warnings")) {
                    if (f.warnings().isEmpty()) out.println("(none)");
                    f.warnings().forEach(out::println);
                    continue;
                }
                int maxRows = n.equals("summary") ? Math.max(rows, 40) : rows;
                out.println(frame(f, n).print(maxRows, width).substring(1));
            }
            if (!names.contains("warnings") && !f.warnings().isEmpty()) {
                spec.commandLine().getErr().println(f.warnings().size() + " warning(s); see --frame warnings");
            }
            return 0;
        }

        private static Frame frame(RunFrames f, String n) {
            return switch (n) {
                case "summary" -> f.summary();
                case "steps" -> f.steps();
                case "epochs" -> f.epochs();
                case "edits" -> f.edits();
                case "rollouts" -> f.rollouts();
                case "traces" -> f.traces();
                case "tokens" -> f.tokens();
                case "faults" -> f.faults();
                default -> f.tests();
            };
        }
    }
}
