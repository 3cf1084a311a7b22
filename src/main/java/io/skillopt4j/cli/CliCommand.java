package io.skillopt4j.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** Not thread-safe (picocli fills it). A command; picocli injects its spec (its streams and parse result). */
abstract class CliCommand implements Callable<Integer> {
    @Spec CommandSpec spec;
}
