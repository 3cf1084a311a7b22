package io.skillopt4j.cli;

import java.io.PrintWriter;

/**
 * Stateless. The jar's {@code Main-Class}: a plain {@code train} command line goes to {@link FastTrain} without
 * loading {@link Main}, whose picocli-typed signatures and subcommand table make the launcher's method lookup load
 * picocli's 72 KB {@code CommandLine} class (not archivable by AppCDS: a Java 5 class file) and link 19 method
 * references before the first model call. Everything else is {@link Main#main}.
 */
public final class Entry {
    private Entry() {}

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        Integer fast = FastTrain.run(args, out, err);
        System.exit(fast != null ? fast : Main.execute(args, out, err));
    }
}
