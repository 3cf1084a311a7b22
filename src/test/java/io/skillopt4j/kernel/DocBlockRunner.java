package io.skillopt4j.kernel;

import io.skillopt4j.notebook.Display;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the {@code ```java} blocks of Markdown files as notebook cells: one fresh {@link JShellEngine} session per
 * file (started with the kernel's startup, i.e. the shipped {@code skillopt.jsh}), blocks in order, each value
 * rendered by {@link Display} as a kernel would. Blocks of Jupyter magics ({@code %jars}, {@code %maven}) are kernel
 * input for IJava/JJava, not Java, and are skipped. Prints {@code DOC <file> OK} or {@code DOC <file> FAILED …}
 * per file; the exit code is the number of failed files. Started by {@code DocsExamplesTest}.
 */
public final class DocBlockRunner {
    private static final Pattern BLOCK = Pattern.compile("(?ms)^```java\\n(.*?)^```");

    public static void main(String[] args) throws Exception {
        int failed = 0;
        for (String arg : args) if (!run(Path.of(arg))) failed++;
        System.exit(failed);
    }

    /** Returns the runnable {@code ```java} blocks of {@code markdown}. */
    public static List<String> blocks(String markdown) {
        List<String> out = new ArrayList<>();
        Matcher m = BLOCK.matcher(markdown);
        while (m.find()) if (!magic(m.group(1))) out.add(m.group(1));
        return out;
    }

    /** A block whose first line of code (after comments) is a line magic: kernel input, not Java. */
    private static boolean magic(String block) {
        return block.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("//")).findFirst()
                .map(l -> l.startsWith("%")).orElse(false);
    }

    static boolean run(Path md) throws Exception {
        String name = md.getFileName().toString();
        try (JShellEngine jsh = JShellEngine.create(JShellEngine.systemClassPath())) {
            List<String> problems = jsh.startup(JShellEngine.DEFAULT_IMPORTS + "\n" + SkillOptKernel.startupScript());
            if (!problems.isEmpty()) {
                System.out.println("DOC " + name + " FAILED: startup: " + problems);
                return false;
            }
            int n = 0;
            for (String block : blocks(Files.readString(md))) {
                n++;
                try {
                    jsh.eval(block).ifPresent(v -> Display.render(v.value()));
                } catch (CellException e) {
                    System.out.println("DOC " + name + " FAILED at java block " + n + ":\n" + block + "---\n"
                            + String.join("\n", e.traceback()));
                    return false;
                }
            }
            System.out.println("DOC " + name + " OK: " + n + " java blocks");
            return true;
        }
    }
}
