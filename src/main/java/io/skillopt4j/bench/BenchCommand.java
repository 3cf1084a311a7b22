package io.skillopt4j.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code skillopt bench}: measurements that are not tests (docs/performance.md says how to read them). */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Performance measurements (not tests).",
        subcommands = {BenchTrainCommand.class, BenchFramesCommand.class, BenchWorkloadCommand.class, BenchEngineCommand.class, BenchBatchCommand.class})
public final class BenchCommand implements Runnable {
    @Spec CommandSpec spec;

    @Override public void run() { spec.commandLine().usage(spec.commandLine().getOut()); }
}
