package io.skillopt4j.bench;

import io.skillopt4j.cli.Main;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Immutable. One in-process CLI invocation for command tests: exit code and captured stdout / stderr. */
record CliRun(int code, String out, String err) {
    static CliRun run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(code, out.toString(), err.toString());
    }
}
