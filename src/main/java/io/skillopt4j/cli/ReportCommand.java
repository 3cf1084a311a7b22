package io.skillopt4j.cli;

import io.skillopt4j.RunFolderException;
import io.skillopt4j.frames.Report;
import io.skillopt4j.frames.RunFrames;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Not thread-safe; one per invocation. {@code skillopt report RUN [RUN...] [--out FILE]}: one self-contained report.html. */
@Command(name = "report", description = "Write one self-contained HTML report (tables, plots, best-skill diff) for one or more runs.")
public final class ReportCommand extends CliCommand {
    @Parameters(arity = "1..*", paramLabel = "RUN", description = "Run folders (SkillOpt4J or Python SkillOpt).")
    List<Path> runs;
    @Option(names = {"-o", "--out"}, paramLabel = "FILE",
            description = "Output file (default: RUN/report.html for one run, ./report.html for several).")
    Path out;

    @Override public Integer call() {
        new io.skillopt4j.config.Checks().outputFile("--out", out).throwIfAny(); // before reading any run
        List<RunFrames> frames = new ArrayList<>();
        try {
            for (Path r : runs) frames.add(RunFrames.load(r));
        } catch (RunFolderException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return 2;
        }
        Path file = out != null ? out : runs.size() == 1 ? runs.get(0).resolve("report.html") : Path.of("report.html");
        Report.of(frames).write(file);
        spec.commandLine().getOut().println("wrote " + file);
        for (RunFrames f : frames) {
            if (!f.warnings().isEmpty()) {
                spec.commandLine().getErr().println(f.snapshot().name() + ": " + f.warnings().size() + " warning(s) (listed in the report)");
            }
        }
        return 0;
    }
}
