package io.skillopt4j.cli;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code skillopt demo}: the offline end-to-end run. Filled in by the simulator work (issue 6). */
@Command(name = "demo", description = "Run a full offline training run on the built-in simulator.")
final class DemoCommand implements Callable<Integer> {
    @Override public Integer call() {
        System.err.println("skillopt demo: the offline simulator is not built yet in this revision.");
        return 1;
    }
}
