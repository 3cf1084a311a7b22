package io.skillopt4j.cli;

import io.skillopt4j.config.ConfigRequest;
import io.skillopt4j.config.FlagSpec;
import io.skillopt4j.config.Flags;

import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Stateless. {@code skillopt train} without picocli when its arguments are plain: {@code --config F},
 * {@code --cfg-options k=v ...} and exact legacy flag names with a value, as a script or a user types them. A
 * cold JVM spends ~130 ms of CPU loading picocli (its classes are Java 5 class files, which AppCDS cannot
 * archive) and building the 130-option model before the first model call; this path reads the same
 * {@link Flags} table and builds the same {@link ConfigRequest} through {@link ConfigOptions} (tested against
 * picocli's parse). Anything else — help, version, abbreviations, {@code --opt=value}, {@code @files}, unknown
 * options, a missing value or {@code --config} — returns null and picocli parses it, errors and all.
 */
final class FastTrain {
    private FastTrain() {}

    /** Runs {@code args} ({@code train ...}) when they are plain; returns the exit code, or null for picocli. */
    static Integer run(String[] args, PrintWriter out, PrintWriter err) {
        Parsed p = parse(args);
        if (p == null) return null;
        try {
            return TrainCommand.run(ConfigOptions.train().request(p.config, p.items, p.flags::get), out, err);
        } catch (Exception e) {
            return Main.failed(e, err, System.getenv("SKILLOPT_DEBUG") != null);
        }
    }

    /** The raw texts of a plain {@code train} command line. */
    record Parsed(String config, List<String> items, Map<String, String> flags) {}

    /** Returns the texts of {@code args} when they are plain {@code train} arguments, else null. */
    static Parsed parse(String[] args) {
        if (args.length < 3 || !args[0].equals("train")) return null;
        Map<String, FlagSpec> byFlag = new HashMap<>();
        for (FlagSpec f : Flags.flags(false)) byFlag.put(f.flag(), f);
        String config = null;
        List<String> items = List.of();
        Map<String, String> flags = new HashMap<>();
        int i = 1;
        while (i < args.length) {
            String a = args[i++];
            if (!a.startsWith("--") || a.length() < 3) return null;
            String name = a.substring(2);
            if (name.equals("cfg-options")) {
                int from = i;
                while (i < args.length && !ConfigOptions.endsOverrides(args[i])) i++;
                if (i == from || anyArgFile(args, from, i)) return null;
                items = List.of(args).subList(from, i); // a repeated --cfg-options replaces the list
                continue;
            }
            FlagSpec f = name.equals("config") ? null : byFlag.get(name);
            if (!name.equals("config") && f == null) return null;
            if (f != null && f.retired()) return null; // picocli warns about those
            String next = i < args.length ? args[i] : null;
            if (f != null && f.type() == FlagSpec.FlagType.BOOL && name.contains("-")) {
                // a standalone switch (arity 0..1): only when no value could follow it
                if (next != null && !(next.startsWith("--") && next.length() > 2)) return null;
                flags.put(name, "true");
                continue;
            }
            if (next == null || next.startsWith("-") || next.startsWith("@")) return null;
            i++;
            if (f == null) config = next;
            else flags.put(name, next); // repeated flags: the last one wins, as picocli is configured
        }
        return config == null ? null : new Parsed(config, items, flags);
    }

    private static boolean anyArgFile(String[] args, int from, int to) {
        for (int k = from; k < to; k++) if (args[k].startsWith("@")) return true;
        return false;
    }
}
