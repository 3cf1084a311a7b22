package io.skillopt4j.cli;

import io.skillopt4j.ConfigException;
import io.skillopt4j.bench.BenchCommand;
import io.skillopt4j.SkillOptException;
import io.skillopt4j.internal.Redactor;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The {@code skillopt} command line. Each subcommand is a thin adapter over the API that notebooks use.
 * User mistakes print one line on stderr and exit 2; stack traces only with {@code --debug}.
 */
@Command(name = "skillopt", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Train agent skills (Markdown documents) with the SkillOpt method.")
public final class Main extends GroupCommand {
    /** Every subcommand, in help order. Add new commands here. */
    static final List<Supplier<Object>> COMMANDS = commands(
            // one command per line, each ending with a comma: this file merges with git's union driver
            DemoCommand::commandLine,
            SimCommand::new,
            BenchCommand::new,
            ConfigCommand::commandLine,
            ChatCommand::commandLine,
            TracesCommand::new,
            SkillCommand::new,
            SplitCommand::new,
            RunsCommand::new,
            ReportCommand::new,
            KernelCommand::new,
            JshCommand::new,
            TrainCommand::commandLine,
            EvalCommand::commandLine,
            WorkerCommand::new,
            EngineCommand::new,
            null);

    /** Invoked by name, a training run's commands are built alone: not every subcommand's picocli model first. */
    static final Map<String, Supplier<Object>> TRAINING_PATH = Map.of(
            "train", TrainCommand::commandLine,
            "eval", EvalCommand::commandLine,
            "demo", DemoCommand::commandLine,
            "bench", BenchCommand::new);

    @SafeVarargs
    private static List<Supplier<Object>> commands(Supplier<Object>... all) {
        return java.util.Arrays.stream(all).filter(java.util.Objects::nonNull).toList();
    }

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the CLI in-process (as tests do) and returns the exit code. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        Supplier<Object> only = args.length > 0 ? TRAINING_PATH.get(args[0]) : null;
        // the version alone needs no subcommand at all
        boolean version = args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"));
        CommandLine cl = version ? commandLine(List.of()) : only == null ? commandLine() : commandLine(List.of(only));
        cl.setOut(out);
        cl.setErr(err);
        return cl.execute(args);
    }

    public static CommandLine commandLine() { return commandLine(COMMANDS); }

    static CommandLine commandLine(List<Supplier<Object>> subcommands) {
        CommandLine cl = new CommandLine(new Main());
        for (Supplier<Object> s : subcommands) cl.addSubcommand(s.get());
        boolean debug = System.getenv("SKILLOPT_DEBUG") != null;
        cl.setExecutionExceptionHandler((ex, cmd, parse) ->
                failed(ex, cmd.getErr(), debug || List.of(parse.originalArgs().toArray()).contains("--debug")));
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine cmd = ex.getCommandLine();
            String dym = "";
            if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
                // picocli lists every option sharing a prefix: the one closest to the first unmatched word
                String word = u.getUnmatched().isEmpty() ? "" : u.getUnmatched().get(0);
                String c = io.skillopt4j.config.Suggest.closest(word, u.getSuggestions());
                dym = "; did you mean " + (c != null ? c : u.getSuggestions().get(0)) + "?";
            }
            cmd.getErr().println("error: " + Redactor.scrub(ex.getMessage().replace("\n", " ")) + dym);
            cmd.getErr().println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
            return 2;
        });
        return cl;
    }

    /** A command's exception as its one-line message(s) on {@code err} and its exit code: 2 for a user mistake, else 1. */
    static int failed(Throwable t, PrintWriter err, boolean stackTrace) {
        if (stackTrace) t.printStackTrace(err);
        if (t instanceof ConfigException) {
            for (String line : Redactor.scrub(t.getMessage()).split("\n")) err.println("error: " + line);
            return 2;
        }
        if (t instanceof java.io.UncheckedIOException u) { // a user path that cannot be read or written: the path and the reason
            String m = u.getMessage() != null && !u.getMessage().contains("Exception") ? u.getMessage() : ioMessage(u.getCause());
            err.println("error: " + Redactor.scrub(m.replace("\n", " ")));
            return 2;
        }
        if (t instanceof java.io.IOException io) {
            err.println("error: " + Redactor.scrub(ioMessage(io)));
            return 2;
        }
        if (t instanceof SkillOptException) {
            err.println("error: " + Redactor.scrub(t.getMessage()));
            return 1;
        }
        err.println("error: " + t.getClass().getSimpleName() + ": " + Redactor.scrub(String.valueOf(t.getMessage())));
        return 1;
    }

    /** "PATH: reason" for a file-system failure (no exception class names: the reason is the operating system's). */
    static String ioMessage(java.io.IOException e) {
        if (e instanceof java.nio.file.FileSystemException f) {
            String reason = e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                    : e instanceof java.nio.file.NoSuchFileException ? "no such file or directory"
                    : e instanceof java.nio.file.FileAlreadyExistsException ? "already exists"
                    : f.getReason() == null ? "I/O error" : f.getReason();
            return f.getFile() + (f.getOtherFile() == null ? "" : " -> " + f.getOtherFile()) + ": " + reason;
        }
        return String.valueOf(e.getMessage()).replace("\n", " ");
    }

    /** Reads the version from the jar manifest, falling back to the build's. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"skillopt4j " + (v == null ? "0.1.0" : v)};
        }
    }
}
