package io.skillopt4j.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Not thread-safe (picocli fills it). A command that groups subcommands: run alone, it prints its usage. */
abstract class GroupCommand implements Runnable {
    @Spec CommandSpec spec;

    @Override public void run() { spec.commandLine().usage(spec.commandLine().getOut()); }
}
