package io.skillopt4j.cli;

import io.skillopt4j.env.RatioSplit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * {@code skillopt split}: writes a ratio split exactly as training's {@code split_mode=ratio} does, so it can be
 * inspected and versioned, then used with {@code split_mode=split_dir}.
 */
@Command(name = "split", mixinStandardHelpOptions = true,
        description = "Materialise a train/val/test ratio split of one JSON/JSONL file (as split_mode=ratio does).")
final class SplitCommand extends CliCommand {
    @Option(names = "--data", required = true, description = "Raw items: a JSON array, {\"data\": [...]}, or JSONL file.")
    Path data;

    @Option(names = "--ratio", defaultValue = "2:1:7", description = "train:val:test weights (default ${DEFAULT-VALUE}).")
    String ratio;

    @Option(names = "--seed", defaultValue = "42", description = "split_seed for the CPython-identical shuffle (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", required = true, description = "Output folder (gets train/ val/ test/ and split_manifest.json).")
    Path out;

    @Override public Integer call() {
        io.skillopt4j.config.Checks checks = new io.skillopt4j.config.Checks().outputDir("--out", out);
        if (!java.nio.file.Files.exists(data)) checks.add("--data " + data + ": no such file or directory");
        try {
            RatioSplit.parseRatio(ratio);
        } catch (io.skillopt4j.ConfigException e) {
            checks.add(e.getMessage());
        }
        checks.throwIfAny();
        RatioSplit.Result r = RatioSplit.materialize(data, ratio, seed, out.toAbsolutePath().normalize());
        spec.commandLine().getOut().printf("wrote %s  train=%d val=%d test=%d  (ratio %s, seed %d, from %s)%n",
                r.dir(), r.counts()[0], r.counts()[1], r.counts()[2], ratio, seed, r.source());
        spec.commandLine().getOut().flush();
        return 0;
    }
}
