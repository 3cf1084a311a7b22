package io.skillopt4j.notebook;

import io.skillopt4j.backend.PriceTable;
import io.skillopt4j.frames.Frame;
import io.skillopt4j.frames.Plot;
import io.skillopt4j.frames.Plots;
import io.skillopt4j.frames.Report;
import io.skillopt4j.frames.RunFrames;
import io.skillopt4j.env.SkillBundle;
import io.skillopt4j.frames.BundleDiff;
import io.skillopt4j.frames.Diff;
import io.skillopt4j.frames.Markdown;
import io.skillopt4j.run.RunSnapshot;

import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;

/**
 * Immutable view of one run folder as it was when opened ({@link #reload()} sees later progress). Every method
 * returns a fresh frame, document or plot, so re-running a cell never changes another cell's objects.
 */
public final class Run {
    private final RunFrames frames;

    Run(RunFrames frames) { this.frames = frames; }

    public Path dir() { return frames.snapshot().dir(); }

    public String name() { return frames.snapshot().name(); }

    /** "finished", "incomplete" or "not started". */
    public String status() { return frames.snapshot().status(); }

    /** Reads the run again (e.g. while training is still writing it). */
    public Run reload() { return Runs.open(dir()); }

    public RunFrames frames() { return frames; }

    public RunSnapshot snapshot() { return frames.snapshot(); }

    /** One line per missing or damaged file. */
    public List<String> warnings() { return frames.warnings(); }

    public Frame steps() { return frames.steps(); }
    public Frame epochs() { return frames.epochs(); }
    public Frame edits() { return frames.edits(); }
    public Frame rollouts() { return frames.rollouts(); }
    public Frame traces() { return frames.traces(); }
    public Frame tokens() { return frames.tokens(); }
    public Frame tokens(PriceTable prices) { return frames.tokens(prices); }
    public Frame cost() { return frames.cost(); }
    public Frame faults() { return frames.faults(); }
    public Frame tests() { return frames.tests(); }
    public Frame summary() { return frames.summary(); }

    /** {@code skills/skill_vNNNN.md}: version 0 is the initial skill, version n the current skill after step n. */
    public Markdown skill(int version) {
        SortedMap<Integer, String> skills = frames.snapshot().skills();
        String text = skills.get(version);
        if (text == null) throw new IllegalArgumentException(name() + ": no skill version " + version + "; versions: "
                + (skills.isEmpty() ? "none" : skills.firstKey() + ".." + skills.lastKey()));
        return Markdown.of(String.format("skill_v%04d.md", version), text);
    }

    public Markdown bestSkill() {
        String t = frames.snapshot().bestSkill();
        if (t.isEmpty()) throw new IllegalArgumentException(name() + ": no best_skill.md yet");
        return Markdown.of("best_skill.md", t);
    }

    /** The best skill as a bundle (docs/skills.md); a single-file skill is a bundle of one SKILL.md. */
    public SkillBundle bestBundle() { return SkillBundle.unpack(bestSkill().text()); }

    public SkillBundle bundle(int version) { return SkillBundle.unpack(skill(version).text()); }

    /** The per-file diffs from skill version {@code a} to version {@code b}. */
    public BundleDiff bundleDiff(int a, int b) { return BundleDiff.of(skill(a), skill(b)); }

    /** From the initial skill to the best skill. */
    public BundleDiff bundleDiff() { return BundleDiff.of(skill(frames.snapshot().skills().firstKey()), bestSkill()); }

    /** Writes the best skill as an Agent Skill folder, as {@code skillopt skill export}; returns the bundle written. */
    public SkillBundle exportSkill(Path dir) {
        SkillBundle b = bestBundle();
        Path d = dir.toAbsolutePath().normalize();
        SkillBundle ready = b.asAgentSkill(b.name().isEmpty() ? String.valueOf(d.getFileName()) : b.name(), null);
        ready.writeTo(d);
        return ready;
    }

    public Diff diff(int a, int b) { return Diff.of(skill(a), skill(b)); }

    public Plots plots() { return Plots.of(frames); }

    /** Writes the plots under {@code <run>/plots/}. */
    public List<Plot> writePlots() { return Plots.of(frames).writeAll(dir().resolve("plots")); }

    public Plot learningCurve() { return plots().learningCurve(); }
    public Plot gateTimeline() { return plots().gateTimeline(); }
    public Plot editBudget() { return plots().editBudget(); }
    public Plot tokensByStage() { return plots().tokensByStage(); }
    public Plot scoreByTaskType() { return plots().scoreByTaskType(); }

    /** Writes a self-contained {@code report.html} into the run folder and returns its path. */
    public Path report() { return report(dir().resolve("report.html")); }

    public Path report(Path file) { return Report.of(List.of(frames)).write(file); }

    /** The compact steps frame {@link #toString()} shows: epoch, step, action, train, selection, current and best. */
    public Frame overview() {
        return frames.steps().selectColumns("epoch", "step", "action", "train_hard", "selection_hard", "current_score", "best_score");
    }

    /** The {@link #overview()} with the run's footer; notebooks show it as HTML with the learning curve. */
    @Override public String toString() { return overview().toString(); }
}
