package io.skillopt4j.cli;

import io.skillopt4j.sim.SimServer;
import io.skillopt4j.train.EngineRuns;

import java.nio.file.Path;

/** Child-JVM fixture of {@link EngineCommandTest}: builds the whole CLI and trains one small run on the local engine. */
public final class LocalPathMain {
    private LocalPathMain() {}

    public static void main(String[] args) {
        Main.commandLine(); // every subcommand, including worker and engine, is constructed at start-up
        try (SimServer sim = SimServer.builder().seed(7).start()) {
            Path out = Path.of(args[0]);
            EngineRuns.train(EngineRuns.config(out, "train.num_epochs=1"), out, sim.url(), null);
        }
        System.out.println("local run done");
    }
}
