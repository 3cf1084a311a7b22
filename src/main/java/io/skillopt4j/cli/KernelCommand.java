package io.skillopt4j.cli;

import io.skillopt4j.ConfigException;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ArgGroup;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code skillopt kernel install}: a Jupyter kernelspec that starts {@code SkillOptKernel} from this jar. */
@Command(name = "kernel", description = "Manage the SkillOpt4J Jupyter kernel.",
        subcommands = {KernelCommand.Install.class})
final class KernelCommand extends GroupCommand {
    @Command(name = "install", description = "Write the kernelspec (kernel.json) for Jupyter; no Python needed.")
    static final class Install extends CliCommand {
        static final class Where {
            @Option(names = "--user", description = "Install for the current user (default): the Jupyter data dir.")
            boolean user;
            @Option(names = "--prefix", paramLabel = "P", description = "Install under P/share/jupyter/kernels (a venv, a temp JUPYTER_PATH).")
            Path prefix;
        }

        @ArgGroup(exclusive = true) Where where;

        @Option(names = "--name", paramLabel = "N", defaultValue = "skillopt-java", description = "Kernelspec name (default: ${DEFAULT-VALUE}).")
        String name;

        @Option(names = "--display-name", paramLabel = "D", defaultValue = "Java (SkillOpt4J)", description = "Name shown in Jupyter (default: ${DEFAULT-VALUE}).")
        String displayName;

        @Option(names = "--jar", paramLabel = "JAR", description = "The skillopt4j -all.jar to run (default: the jar this command runs from).")
        Path jar;

        @Option(names = "--java", paramLabel = "JAVA", description = "The java executable (default: this JVM's).")
        Path javaExe;

        @Option(names = "--jvm-opt", paramLabel = "OPT", description = "Extra JVM option for the kernel (repeatable), e.g. --jvm-opt=-Xmx4g.")
        List<String> jvmOpts = List.of();

        @Option(names = "--class-path", paramLabel = "CP", description = "Extra jars/folders for cells, separated by the platform path separator.")
        String classPath;

        @Override public Integer call() {
            if (!name.matches("[A-Za-z0-9._-]+")) {
                throw ConfigException.badValue("skillopt kernel install", "--name", name, "letters, digits, '.', '_' and '-'");
            }
            Path jarPath = (jar != null ? jar : runningJar()).toAbsolutePath().normalize();
            if (!Files.isRegularFile(jarPath)) {
                throw ConfigException.badValue("skillopt kernel install", "--jar", jarPath.toString(), "an existing skillopt4j -all.jar");
            }
            Path javaPath = javaExe != null ? javaExe.toAbsolutePath() : Path.of(System.getProperty("java.home"), "bin", "java");
            boolean prefixed = where != null && where.prefix != null;
            Path dir = (prefixed ? where.prefix.resolve("share").resolve("jupyter") : userDataDir()).resolve("kernels").resolve(name);
            new io.skillopt4j.config.Checks().outputDir(prefixed ? "--prefix" : "kernelspec folder", dir).throwIfAny();
            AtomicFiles.writeString(dir.resolve("kernel.json"), Json.pretty(kernelJson(javaPath, jarPath)) + "\n");
            spec.commandLine().getOut().println("installed kernelspec '" + name + "' in " + dir.toAbsolutePath());
            return 0;
        }

        Map<String, Object> kernelJson(Path javaPath, Path jarPath) {
            List<String> argv = new java.util.ArrayList<>(List.of(javaPath.toString(), "-Djava.awt.headless=true"));
            argv.addAll(jvmOpts);
            String cp = jarPath.toString();
            for (String e : classPath == null ? new String[0] : classPath.split(File.pathSeparator)) {
                if (!e.isBlank()) cp += File.pathSeparator + Path.of(e).toAbsolutePath().normalize();
            }
            argv.addAll(List.of("-cp", cp, "io.skillopt4j.kernel.SkillOptKernel", "{connection_file}"));
            // "message" makes Jupyter send interrupt_request instead of SIGINT, which would end the JVM.
            return Json.obj("argv", argv, "display_name", displayName, "language", "java", "interrupt_mode", "message",
                    "metadata", Map.of("debugger", false));
        }

        /** Jupyter's per-user data dir, as jupyter_core computes it. */
        static Path userDataDir() {
            String env = System.getenv("JUPYTER_DATA_DIR");
            if (env != null && !env.isBlank()) return Path.of(env);
            String home = System.getProperty("user.home");
            String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
            if (os.contains("mac")) return Path.of(home, "Library", "Jupyter");
            if (os.contains("win")) {
                String appData = System.getenv("APPDATA");
                return Path.of(appData != null ? appData : home, "jupyter");
            }
            String xdg = System.getenv("XDG_DATA_HOME");
            return (xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(home, ".local", "share")).resolve("jupyter");
        }

        private static Path runningJar() {
            try {
                Path p = Path.of(KernelCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                if (Files.isRegularFile(p)) return p;
                throw ConfigException.badValue("skillopt kernel install", "--jar", "(not running from a jar: " + p + ")",
                        "the path of target/skillopt4j-<version>-all.jar (or run ./skillopt kernel install)");
            } catch (URISyntaxException e) {
                throw new IllegalStateException("cannot locate the running jar: " + e.getMessage(), e);
            }
        }
    }
}
