package io.skillopt4j.notebook;

import io.skillopt4j.RunFolderException;
import io.skillopt4j.frames.Compare;
import io.skillopt4j.frames.Frame;
import io.skillopt4j.frames.RunFrames;
import io.skillopt4j.run.RunReader;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** Stateless. Opens run folders (ours or Python SkillOpt's) and compares them. */
public final class Runs {
    private Runs() {}

    /** @throws RunFolderException if it does not exist or is not a run folder */
    public static Run open(String dir) { return open(Path.of(dir)); }

    public static Run open(Path dir) { return new Run(RunFrames.load(dir)); }

    public static Compare compare(Run... runs) { return compare(Arrays.asList(runs)); }

    public static Compare compare(List<Run> runs) { return Compare.of(runs.stream().map(Run::frames).toList()); }

    /** One row per run under {@code dir} (or {@code dir} itself): status, steps, best, test. */
    public static Frame list(String dir) { return list(Path.of(dir)); }

    public static Frame list(Path dir) {
        List<Path> runs = RunReader.findRuns(dir);
        if (runs.isEmpty()) throw new RunFolderException(dir + ": no run folders in it");
        return Compare.of(runs.stream().map(RunReader::read).map(RunFrames::of).toList()).summary();
    }
}
