package io.skillopt4j.cli;

import io.skillopt4j.ConfigException;
import io.skillopt4j.env.SkillBundle;
import io.skillopt4j.run.RunPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Not thread-safe (picocli fills it). {@code skillopt skill export|check}: Agent Skill folders (docs/skills.md). */
@Command(name = "skill", mixinStandardHelpOptions = true, description = "Export and check Agent Skill folders.",
        subcommands = {SkillCommand.Export.class, SkillCommand.Check.class})
final class SkillCommand extends GroupCommand {
    @Command(name = "export", mixinStandardHelpOptions = true,
            description = "Write a run's best skill (or one version) as an Agent Skill folder: DIR itself when its name is the skill's, else DIR/<name>/.")
    static final class Export extends CliCommand {
        @Parameters(paramLabel = "RUN", description = "A run folder.")
        Path run;

        @Option(names = "--to", required = true, paramLabel = "DIR", description = "Where the skill folder goes (e.g. .claude/skills).")
        Path to;

        @Option(names = "--version", paramLabel = "N", description = "Export skills/skill_vNNNN.md instead of best_skill.md.")
        Integer version;

        @Option(names = "--name", description = "Name for a single-file skill without frontmatter (default: DIR's name).")
        String name;

        @Option(names = "--description", description = "Description for a single-file skill without frontmatter.")
        String description;

        @Override public Integer call() {
            new io.skillopt4j.config.Checks().dir("RUN", run).throwIfAny();
            RunPaths paths = new RunPaths(run);
            Path file = version == null ? paths.bestSkill() : paths.skill(version);
            if (!Files.isRegularFile(file))
                throw new ConfigException(file + ": no such file (" + (version == null ? "the run has no best skill yet" : "no skill version " + version) + ")");
            String text;
            try {
                text = Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(file + ": " + e.getMessage(), e);
            }
            SkillBundle b = SkillBundle.unpack(text);
            Path dirPath = to.toAbsolutePath().normalize().getFileName();
            String dirName = dirPath == null ? "" : dirPath.toString();
            String skillName = !b.name().isEmpty() ? b.name() : name != null ? name : dirName;
            SkillBundle ready = b.asAgentSkill(skillName, description);
            Path dest = dirName.equals(skillName) ? to : to.resolve(skillName);
            ready.writeTo(dest);
            PrintWriter out = spec.commandLine().getOut();
            out.println("wrote " + dest.toAbsolutePath().normalize() + " (" + ready.files().size() + " file" + (ready.files().size() == 1 ? "" : "s")
                    + ": " + String.join(", ", ready.files().keySet()) + ")");
            return 0;
        }
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Check an Agent Skill folder against the specification: exit 0 when valid, else 2 with one line per problem.")
    static final class Check extends CliCommand {
        @Parameters(paramLabel = "DIR", description = "An Agent Skill folder (SKILL.md, references/, scripts/, assets/).")
        Path dir;

        @Override public Integer call() {
            SkillBundle b = SkillBundle.read(dir, "");
            spec.commandLine().getOut().println("ok: " + b.name() + " (" + b.files().size() + " file" + (b.files().size() == 1 ? "" : "s")
                    + ", " + b.chars() + " chars)");
            return 0;
        }
    }
}
