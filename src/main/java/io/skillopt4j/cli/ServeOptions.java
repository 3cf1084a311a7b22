package io.skillopt4j.cli;

import picocli.CommandLine.Option;

/**
 * Not thread-safe (picocli fills it). The hidden {@code --serve-ms} of the serving commands ({@code sim serve},
 * {@code worker}, {@code engine dev-server}): tests stop them after a while instead of with Ctrl-C.
 */
final class ServeOptions {
    @Option(names = "--serve-ms", hidden = true, defaultValue = "0", description = "Stop after this many ms (tests).") long serveMs;

    /** Blocks until the process is asked to stop, or {@code --serve-ms} passed. */
    void await() throws InterruptedException { io.skillopt4j.internal.StopSignal.await(serveMs); }
}
