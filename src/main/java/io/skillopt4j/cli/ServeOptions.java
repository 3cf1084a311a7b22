package io.skillopt4j.cli;

import picocli.CommandLine.Option;

/** Not thread-safe (picocli fills it). The serving commands' hidden {@code --serve-ms}: tests stop them with it. */
final class ServeOptions {
    @Option(names = "--serve-ms", hidden = true, defaultValue = "0", description = "Stop after this many ms (tests).") long serveMs;

    /** Blocks until the process is asked to stop, or {@code --serve-ms} passed. */
    void await() throws InterruptedException { io.skillopt4j.internal.StopSignal.await(serveMs); }
}
