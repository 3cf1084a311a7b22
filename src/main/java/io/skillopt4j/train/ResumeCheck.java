package io.skillopt4j.train;

import io.skillopt4j.ConfigException;
import io.skillopt4j.RunFolderConflict;
import io.skillopt4j.config.ResumeKeys;
import io.skillopt4j.internal.Json;
import io.skillopt4j.run.RunLock;
import io.skillopt4j.run.RunPaths;
import io.skillopt4j.run.RuntimeState;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Stateless. Under the {@link RunLock}, before any write: fresh start, resume, complete, or a conflict refused. */
final class ResumeCheck {
    private ResumeCheck() {}

    /** Immutable (callers must not write into {@code storedConfig}, the exact bytes a resumed folder held). */
    record Outcome(boolean existing, Map<String, Object> summary, Path movedTo, byte[] storedConfig) {
        boolean complete() { return summary != null; }
    }

    static Outcome check(RunPaths paths, Map<String, Object> requested, String initialSkill, int totalSteps,
                         boolean forceNew, boolean extendEpochs, Clock clock) {
        if (!holdsRun(paths)) return new Outcome(false, null, null, null);
        if (forceNew) return new Outcome(false, null, moveAside(paths.root(), clock), null);
        List<String> diffs = new ArrayList<>();
        boolean onlyEpochs = false;
        byte[] storedConfig = null;
        if (Files.isRegularFile(paths.config())) {
            storedConfig = bytes(paths.config());
            Map<String, Object> stored = readObject(paths.config(), storedConfig);
            for (ResumeKeys.Difference d : ResumeKeys.differences(stored, requested)) {
                if (ResumeKeys.EXTENDABLE.contains(d.key()) && extendEpochs && grows(d)) continue;
                onlyEpochs |= ResumeKeys.EXTENDABLE.contains(d.key());
                diffs.add(d.toString());
            }
        }
        Path v0 = paths.skill(0);
        if (Files.isRegularFile(v0) && !Trajectories.readFile(v0).equals(initialSkill == null ? "" : initialSkill)) {
            diffs.add("env.skill_init (the initial skill's text differs from skills/" + RunPaths.skillFileName(0) + ")");
        }
        if (!diffs.isEmpty()) {
            throw new RunFolderConflict(paths.root(), "out_root " + paths.root() + " holds a run with another configuration: "
                    + String.join(", ", diffs) + "; rerun with the stored values"
                    + (onlyEpochs ? ", pass --extend-epochs to continue with more epochs" : "")
                    + " or pass --force-new to start afresh (the old run is moved aside)");
        }
        Map<String, Object> summary = complete(paths, totalSteps) ? readObject(paths.summary(), bytes(paths.summary())) : null;
        return new Outcome(true, summary, null, storedConfig);
    }

    /** A run folder: it has the files a started run writes first. */
    private static boolean holdsRun(RunPaths paths) {
        return Files.isRegularFile(paths.config()) || Files.isRegularFile(paths.runtimeState())
                || Files.isRegularFile(paths.history()) || Files.isRegularFile(paths.skill(0));
    }

    private static boolean grows(ResumeKeys.Difference d) {
        try {
            return Double.parseDouble(d.requested()) > Double.parseDouble(d.stored());
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Finished: its summary.json is there and every planned step is recorded as completed. */
    private static boolean complete(RunPaths paths, int totalSteps) {
        if (!Files.isRegularFile(paths.summary())) return false;
        return RuntimeState.read(paths.runtimeState()).map(r -> r.lastCompletedStep() >= totalSteps).orElse(false);
    }

    private static byte[] bytes(Path f) {
        try {
            return Files.readAllBytes(f);
        } catch (java.io.IOException e) {
            throw new io.skillopt4j.RunFolderException(f + " is not readable: " + e.getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> readObject(Path f, byte[] bytes) {
        try {
            if (Json.mapper().readValue(bytes, Object.class) instanceof Map<?, ?> m) return (Map<String, Object>) m;
        } catch (java.io.IOException | RuntimeException e) {
            // a user's folder, not a bug: one line (Jackson's own message carries a second, location line), exit 2
            String why = e instanceof com.fasterxml.jackson.core.JsonProcessingException jp ? jp.getOriginalMessage() : e.getMessage();
            throw damaged(f, "is not readable JSON (" + why + ")");
        }
        throw damaged(f, "is not a JSON object");
    }

    private static RunFolderConflict damaged(Path f, String what) {
        return new RunFolderConflict(f.getParent(), f + " " + what + ": repair or remove it, or pass --force-new to start"
                + " afresh (the old run is moved aside)");
    }

    /** Moves every entry of {@code root} but the lock file into a new sibling {@code <name>.replaced-<UTC time>}. */
    static Path moveAside(Path root, Clock clock) {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss").withZone(ZoneOffset.UTC).format(clock.instant());
        Path parent = root.getParent();
        Path target = parent.resolve(root.getFileName() + ".replaced-" + stamp);
        for (int i = 2; Files.exists(target); i++) target = parent.resolve(root.getFileName() + ".replaced-" + stamp + "-" + i);
        try (Stream<Path> entries = Files.list(root)) {
            List<Path> all = entries.filter(p -> !p.getFileName().toString().equals(RunLock.FILE)).sorted().toList();
            Files.createDirectory(target);
            for (Path p : all) Files.move(p, target.resolve(p.getFileName().toString()), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new ConfigException("--force-new: cannot move the old run of " + root + " aside to " + target + " (" + e.getMessage()
                    + "); move or delete it yourself");
        }
        return target;
    }
}
