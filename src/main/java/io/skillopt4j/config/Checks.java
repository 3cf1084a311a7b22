package io.skillopt4j.config;

import io.skillopt4j.ConfigException;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Not thread-safe; one per command invocation. Checks of user input that collect every problem, one line each, so a
 * command reports all its mistakes at once before it touches anything. Paths are only looked at, never created.
 */
public final class Checks {
    private final List<String> problems = new ArrayList<>();

    public Checks add(String problem) {
        if (problem != null && !problems.contains(problem)) problems.add(problem);
        return this;
    }

    public Checks addAll(Collection<String> lines) {
        lines.forEach(this::add);
        return this;
    }

    public List<String> problems() { return List.copyOf(problems); }

    /** Throws one {@link ConfigException} holding every problem, one per line, if there is any. */
    public void throwIfAny() {
        if (!problems.isEmpty()) throw new ConfigException(String.join("\n", problems));
    }

    public Checks atLeast(String name, double value, double min) {
        return value >= min ? this : add(name + " must be >= " + fmt(min) + ", got " + fmt(value));
    }

    public Checks positive(String name, double value) {
        return value > 0 ? this : add(name + " must be > 0, got " + fmt(value));
    }

    public Checks range(String name, double value, double min, double max) {
        if (value >= min && value <= max) return this;
        return add(name + " must be in [" + fmt(min) + ", " + fmt(max) + "], got " + fmt(value));
    }

    /** With a did-you-mean when one is close. */
    public Checks oneOf(String name, String value, Collection<String> allowed) {
        if (value != null && allowed.contains(value)) return this;
        return add(name + " must be one of " + String.join(", ", allowed) + ", got \"" + value + "\""
                + (value == null ? "" : Suggest.didYouMean(value, allowed)));
    }

    public Checks url(String name, String value) {
        if (value == null || value.isBlank()) return this;
        String p = url(value);
        return p == null ? this : add(name + " must be " + p + ", got \"" + value + "\"");
    }

    /** An existing readable file. */
    public Checks file(String name, Path p) {
        if (p == null) return this;
        if (!Files.exists(p)) return add(name + ": file not found: " + p);
        if (Files.isDirectory(p)) return add(name + ": " + p + " is a directory, not a file");
        if (!Files.isReadable(p)) return add(name + ": " + p + " is not readable (permission denied)");
        return this;
    }

    public Checks dir(String name, Path p) {
        if (p == null) return this;
        if (!Files.exists(p)) return add(name + ": directory not found: " + p);
        if (!Files.isDirectory(p)) return add(name + ": " + p + " is not a directory");
        return this;
    }

    /** A folder that is or can be created: not an existing file, under no file, in a writable place. */
    public Checks outputDir(String name, Path p) { return add(outputProblem(name, p, true)); }

    /** A file that can be written: not a directory, its folder can be created. */
    public Checks outputFile(String name, Path p) { return add(outputProblem(name, p, false)); }

    private static String outputProblem(String name, Path p, boolean dir) {
        if (p == null) return null;
        Path abs = p.toAbsolutePath().normalize();
        if (Files.exists(abs)) {
            if (dir && !Files.isDirectory(abs)) return name + " " + abs + ": exists and is a file, not a folder";
            if (!dir && Files.isDirectory(abs)) return name + " " + abs + ": is a directory, not a file";
            if (!Files.isWritable(abs)) return name + " " + abs + ": not writable (permission denied)";
            return null;
        }
        Path a = abs.getParent();
        while (a != null && !Files.exists(a)) a = a.getParent();
        if (a == null) return null;
        if (!Files.isDirectory(a)) return name + " " + abs + ": cannot be created because " + a + " is a file";
        if (!Files.isWritable(a) || isPseudoFs(a)) return name + " " + abs + ": cannot be created in " + a + " (not writable)";
        return null;
    }

    /** /proc and /sys accept no new files, even from root (for whom isWritable is always true). */
    private static boolean isPseudoFs(Path p) { return p.startsWith("/proc") || p.startsWith("/sys"); }

    /** Returns null when {@code s} is an http(s) URL with a host, else what is allowed. */
    public static String url(String s) {
        String allowed = "an http(s) URL with a host (e.g. http://localhost:8000/v1)";
        try {
            URI u = new URI(s.strip());
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            boolean ok = (scheme.equals("http") || scheme.equals("https")) && u.getHost() != null && !u.getHost().isBlank();
            return ok ? null : allowed;
        } catch (URISyntaxException e) {
            return allowed;
        }
    }

    static String fmt(double d) {
        return d == Math.rint(d) && !Double.isInfinite(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
