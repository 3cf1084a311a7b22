package io.skillopt4j.cli;

import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.ParsedTrace;
import io.skillopt4j.backend.TraceStep;
import io.skillopt4j.backend.TraceSteps;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Not thread-safe (picocli fills it). {@code skillopt traces show}: a raw CLI stream as the backends parse it. */
@Command(name = "traces", mixinStandardHelpOptions = true, description = "Inspect agent CLI traces.",
        subcommands = TracesCommand.Show.class)
final class TracesCommand extends GroupCommand {
    @Command(name = "show", mixinStandardHelpOptions = true, description = "Print a raw CLI stream as trace steps.")
    static final class Show extends CliCommand {
        @Parameters(paramLabel = "FILE", description = "A raw stream (stream-json, JSONL or the Codex exec log).")
        Path file;

        @Option(names = "--format", description = "claude, codex, cursor, copilot or opencode (default: guessed from the file).")
        String format;

        @Override public Integer call() {
            io.skillopt4j.config.Checks checks = new io.skillopt4j.config.Checks().file("FILE", file);
            if (format != null) checks.oneOf("--format", format, java.util.List.of("claude", "codex", "cursor", "copilot", "opencode"));
            checks.throwIfAny();
            String raw;
            try {
                raw = new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new ConfigException(file + ": cannot read: " + e.getMessage(), e);
            }
            String f = format != null ? format : guess(file, raw);
            if (raw.isBlank()) throw new ConfigException(file + ": empty file (no trace to show)");
            ParsedTrace t = TraceSteps.parse(f, raw);
            if (t.steps().isEmpty() && !t.terminal() && t.finalText().isBlank()) // garbage is not a trace of 0 steps
                throw new ConfigException(file + ": not a " + f + " trace: no step could be read"
                        + (t.skippedLines() > 0 ? " (" + t.skippedLines() + " lines skipped)" : "") + "; expected stream-json, JSONL or a Codex exec log");
            PrintWriter out = spec.commandLine().getOut();
            out.printf("%4s  %-11s  %-14s  %6s  %-9s  %s%n", "#", "kind", "tool", "chars", "truncated", "text");
            int i = 1;
            for (TraceStep s : t.steps()) {
                String text = s.text().replaceAll("\\s+", " ").strip();
                if (text.length() > 60) text = text.substring(0, 59) + "…";
                out.printf("%4d  %-11s  %-14s  %6d  %-9s  %s%n", i++, s.kind().wire(), s.tool(), s.chars(), s.truncated() ? "yes" : "no", text);
            }
            String fin = t.finalText().replaceAll("\\s+", " ").strip();
            out.printf("%d steps · format %s · terminal %s%s · final %d chars%s%n", t.steps().size(), f, t.terminal() ? "yes" : "no",
                    t.isError() ? " (error: " + t.error() + ")" : "", fin.length(), t.skippedLines() > 0 ? " · " + t.skippedLines() + " lines skipped" : "");
            if (!t.terminal() && !t.error().isEmpty() && !t.isError()) out.println("note: " + t.error());
            out.flush();
            return 0;
        }

        static String guess(Path file, String raw) {
            String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
            for (String f : new String[] {"claude", "codex", "cursor", "copilot", "opencode"}) if (n.startsWith(f)) return f;
            if (raw.contains("\"step_finish\"") || raw.contains("\"step_start\"")) return "opencode";
            if (raw.contains("\"assistant.message\"")) return "copilot";
            if (raw.contains("\"tool_call\"")) return "cursor";
            if (raw.contains("\"item.completed\"") || raw.contains("\nexec\n")) return "codex";
            return "claude";
        }
    }
}
