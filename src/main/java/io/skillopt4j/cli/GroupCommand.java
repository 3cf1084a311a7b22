package io.skillopt4j.cli;

/** Not thread-safe (picocli fills it). A command that groups subcommands: run alone, it prints its usage. */
abstract class GroupCommand extends CliCommand {
    @Override public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 0;
    }
}
