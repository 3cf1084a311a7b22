package io.skillopt4j.kernel;

import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/** Stateless. Compiles one Java source into a jar, for the magics' class-path tests. */
final class TestJars {
    private TestJars() {}

    /** A jar at {@code jar} holding the compiled {@code className} (a class in the default package or a dotted name). */
    static Path jar(Path jar, String className, String source) throws IOException {
        Path src = Files.createTempDirectory("testjar-src");
        Path out = Files.createTempDirectory("testjar-classes");
        try {
            return jar(jar, className, source, src, out);
        } finally { // the jar is the test's; the sources and classes behind it would pile up in the temp folder
            io.skillopt4j.internal.AtomicFiles.deleteTreeQuietly(src);
            io.skillopt4j.internal.AtomicFiles.deleteTreeQuietly(out);
        }
    }

    private static Path jar(Path jar, String className, String source, Path src, Path out) throws IOException {
        Path file = src.resolve(className.substring(className.lastIndexOf('.') + 1) + ".java");
        Files.writeString(file, source);
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", out.toString(), file.toString());
        if (rc != 0) throw new IllegalStateException("javac failed for " + className);
        Files.createDirectories(jar.toAbsolutePath().getParent());
        try (OutputStream os = Files.newOutputStream(jar); JarOutputStream jos = new JarOutputStream(os);
             Stream<Path> files = Files.walk(out)) {
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                jos.putNextEntry(new JarEntry(out.relativize(p).toString().replace('\\', '/')));
                jos.write(Files.readAllBytes(p));
                jos.closeEntry();
            }
        }
        return jar;
    }
}
