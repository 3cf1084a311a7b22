package io.skillopt4j.cli;

import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.kernel.SkillOptKernel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** {@code skillopt jsh}: prints or writes the JShell startup script shipped in the jar. */
@Command(name = "jsh", description = "Print (or --write) the JShell startup script skillopt.jsh.")
final class JshCommand extends CliCommand {
    @Option(names = "--write", paramLabel = "FILE", description = "Write the script to FILE and print the jshell command line.")
    Path write;

    @Override public Integer call() {
        new io.skillopt4j.config.Checks().outputFile("--write", write).throwIfAny();
        String script = SkillOptKernel.startupScript();
        if (write == null) {
            spec.commandLine().getOut().print(script);
            return 0;
        }
        AtomicFiles.writeString(write, script);
        String jar = runningJarOrPlaceholder();
        spec.commandLine().getOut().println("wrote " + write.toAbsolutePath());
        spec.commandLine().getOut().println("jshell --startup DEFAULT --startup " + write + " --class-path " + jar);
        return 0;
    }

    private static String runningJarOrPlaceholder() {
        try {
            Path p = Path.of(JshCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return p.toString().endsWith(".jar") ? p.toString() : "target/skillopt4j-0.1.0-all.jar";
        } catch (Exception e) {
            return "target/skillopt4j-0.1.0-all.jar";
        }
    }
}
