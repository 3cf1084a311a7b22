package io.skillopt4j.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;


/** {@code skillopt engine dev-server}: the Temporal test server on a port, for local use and tests. */
@Command(name = "engine", description = "Execution-engine tools (see docs/scale-out.md).",
        subcommands = EngineCommand.DevServer.class, mixinStandardHelpOptions = true)
final class EngineCommand extends GroupCommand {
    /** Serves until interrupted (Ctrl-C). */
    @Command(name = "dev-server", mixinStandardHelpOptions = true,
            description = "Serve an in-memory Temporal frontend (the SDK's test server; nothing persists) for `--engine temporal` runs and workers.")
    static final class DevServer extends CliCommand {
        @Option(names = "--port", defaultValue = "7233", description = "Port (0 = a free port). Default ${DEFAULT-VALUE}.") int port;
        @Mixin ServeOptions serve;

        @Override public Integer call() throws Exception {
            new io.skillopt4j.config.Checks().range("--port", port, 0, 65535).throwIfAny();
            return io.skillopt4j.temporal.Processes.devServer(port, serve.serveMs, spec.commandLine().getOut());
        }
    }
}
