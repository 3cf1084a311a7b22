package io.skillopt4j.run;

import io.skillopt4j.RunFolderException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Stateless. Reads a run folder written by Python SkillOpt or SkillOpt4J (complete, in progress or killed) into a
 * {@link RunSnapshot}: a missing or damaged file gives one warning; only a folder that is not a run throws.
 * <pre>{@code
 * RunSnapshot s = RunReader.read(Path.of("outputs/skillopt_searchqa_x"));
 * s.history().size();  s.warnings().forEach(System.out::println);
 * }</pre>
 */
public final class RunReader {
    private static final Pattern STEP_DIR = Pattern.compile("step_(\\d+)");
    static final Pattern EPOCH_DIR = Pattern.compile("epoch_(\\d+)");
    private static final Pattern SKILL_FILE = Pattern.compile("skill_v(\\d+)\\.md");
    static final Pattern BATCH_DIR = Pattern.compile("batch_(\\d+)");
    private static final List<String> MARKERS = List.of("config.json", "runtime_state.json", "history.json", "summary.json");

    private RunReader() {}

    /** True when {@code dir} looks like a run folder (a marker file or a {@code steps/} folder). */
    public static boolean isRun(Path dir) {
        return Files.isDirectory(dir) && (MARKERS.stream().anyMatch(m -> Files.isRegularFile(dir.resolve(m)))
                || Files.isDirectory(dir.resolve("steps")));
    }

    /** Returns {@code dir} itself when it is a run, else its direct sub-folders that are runs, sorted by name. */
    public static List<Path> findRuns(Path dir) {
        if (!Files.isDirectory(dir)) throw new RunFolderException(dir + ": no such folder");
        if (isRun(dir)) return List.of(dir);
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(RunReader::isRun).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": " + e.getMessage(), e);
        }
    }

    /** @throws RunFolderException if {@code dir} does not exist or holds none of a run's files */
    public static RunSnapshot read(Path dir) {
        if (!Files.exists(dir)) throw new RunFolderException(dir + ": no such run folder");
        if (!Files.isDirectory(dir)) throw new RunFolderException(dir + ": is a file, not a run folder");
        if (!isRun(dir)) {
            throw new RunFolderException(dir + ": not a SkillOpt run folder (none of config.json, runtime_state.json, "
                    + "history.json, summary.json, steps/ found)");
        }
        TolerantFiles f = new TolerantFiles(dir);
        Map<String, Object> config = f.object(dir.resolve("config.json"), true);
        Map<String, Object> state = f.object(dir.resolve("runtime_state.json"), true);
        Map<String, Object> summary = f.object(dir.resolve("summary.json"), true);
        List<Object> historyArray = f.array(dir.resolve("history.json"), true);
        List<StepArtifacts> steps = readSteps(dir, f);
        List<Map<String, Object>> history = mergeHistory(historyArray, steps, f, dir);
        TreeMap<Integer, String> skills = readSkills(dir, f, history);
        String best = f.text(dir.resolve("best_skill.md"), true);
        List<Map<String, Object>> lr = f.jsonl(dir.resolve("lr_history.jsonl"), false);
        List<EpochArtifacts> epochs = readEpochs(dir, f);
        Map<String, Map<String, Object>> tests = new LinkedHashMap<>();
        for (String t : List.of("test_eval_baseline", "test_eval", "test_eval_final")) {
            Map<String, Object> m = f.object(dir.resolve(t).resolve("summary.json"), false);
            if (m != null) tests.put(t, m);
        }
        RunSnapshot partial = new RunSnapshot(dir, config, summary, state, history, lr, skills, best, steps, List.of(),
                epochs, tests, List.of());
        return new RunSnapshot(dir, config, summary, state, history, lr, skills, best, steps, RolloutSets.discover(partial, f),
                epochs, tests, f.warnings());
    }

    /** Parses the exec-target traces under every rollout directory's {@code predictions/} (slow on big runs). */
    public static List<TraceFile> traces(RunSnapshot run) {
        return run.rolloutSets().stream().flatMap(set -> TraceFiles.read(set).stream()).toList();
    }

    private static List<StepArtifacts> readSteps(Path dir, TolerantFiles f) {
        List<StepArtifacts> out = new ArrayList<>();
        for (Path p : children(dir.resolve("steps"), STEP_DIR)) {
            int step = number(p, STEP_DIR);
            Map<String, Object> rec = f.object(p.resolve("step_record.json"), true);
            String action = rec == null ? "" : String.valueOf(rec.getOrDefault("action", ""));
            boolean updated = rec != null && !action.startsWith("skip");
            Map<String, Object> merged = f.object(p.resolve("merged_patch.json"), updated);
            Map<String, Object> ranked = f.object(p.resolve("ranked_edits.json"), updated);
            List<Object> report = f.array(p.resolve("edit_apply_report.json"), false);
            Map<String, Map<String, Object>> patches = new LinkedHashMap<>();
            readPatches(p.resolve("patches"), "", patches, f);
            for (Path b : children(p, BATCH_DIR)) readPatches(b.resolve("patches"), b.getFileName() + "/", patches, f);
            String candidate = f.text(p.resolve("candidate_skill.md"), updated && !action.equals("skip_no_rewrite"));
            Map<String, Object> lr = f.object(p.resolve("lr_decision.json"), false);
            out.add(new StepArtifacts(step, p, rec, merged, ranked, maps(report), patches, candidate, lr));
        }
        return out;
    }

    private static void readPatches(Path dir, String prefix, Map<String, Map<String, Object>> into, TolerantFiles f) {
        for (Path p : f.list(dir, x -> x.getFileName().toString().endsWith(".json"))) {
            Map<String, Object> m = f.object(p, false);
            if (m != null) into.put(prefix + p.getFileName().toString().replace(".json", ""), m);
        }
    }

    private static List<Map<String, Object>> mergeHistory(List<Object> array, List<StepArtifacts> steps, TolerantFiles f,
                                                          Path dir) {
        TreeMap<Integer, Map<String, Object>> byStep = new TreeMap<>();
        // step_record.json first, so history.json (the trainer's own list) wins for steps present in both.
        for (StepArtifacts s : steps) if (!s.record().isEmpty()) byStep.put(s.step(), s.record());
        for (int i = 0; array != null && i < array.size(); i++) {
            if (array.get(i) instanceof Map<?, ?> m && m.get("step") instanceof Number n) {
                @SuppressWarnings("unchecked") Map<String, Object> rec = (Map<String, Object>) m;
                byStep.put(n.intValue(), rec); // duplicated steps after a crash: keep the last
            } else {
                f.warn(dir.resolve("history.json"), "record " + (i + 1) + " has no integer step; skipped");
            }
        }
        return new ArrayList<>(byStep.values());
    }

    private static TreeMap<Integer, String> readSkills(Path dir, TolerantFiles f, List<Map<String, Object>> history) {
        TreeMap<Integer, String> skills = new TreeMap<>();
        for (Path p : children(dir.resolve("skills"), SKILL_FILE)) {
            String t = f.text(p, false);
            if (t != null) skills.put(number(p, SKILL_FILE), t);
        }
        if (!skills.containsKey(0)) f.missing(dir.resolve("skills/skill_v0000.md"));
        for (Map<String, Object> h : history) {
            int step = ((Number) h.get("step")).intValue();
            if (!skills.containsKey(step)) f.missing(dir.resolve(String.format("skills/skill_v%04d.md", step)));
        }
        return skills;
    }

    private static List<EpochArtifacts> readEpochs(Path dir, TolerantFiles f) {
        TreeMap<Integer, Path[]> dirs = new TreeMap<>();
        for (Path p : children(dir.resolve("slow_update"), EPOCH_DIR)) dirs.computeIfAbsent(number(p, EPOCH_DIR), k -> new Path[2])[0] = p;
        for (Path p : children(dir.resolve("meta_skill"), EPOCH_DIR)) dirs.computeIfAbsent(number(p, EPOCH_DIR), k -> new Path[2])[1] = p;
        List<EpochArtifacts> out = new ArrayList<>();
        dirs.forEach((epoch, d) -> {
            Map<String, Object> slow = d[0] == null ? null : f.object(d[0].resolve("slow_result.json"), true);
            List<Object> pairs = d[0] == null ? null : f.array(d[0].resolve("comparison_pairs.json"), false);
            String cand = d[0] == null ? null : f.text(d[0].resolve("candidate_skill.md"), false);
            Map<String, Object> meta = d[1] == null ? null : f.object(d[1].resolve("meta_skill_result.json"), true);
            out.add(new EpochArtifacts(epoch, slow, maps(pairs), cand, meta));
        });
        return out;
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> maps(List<Object> list) {
        if (list == null) return List.of();
        return list.stream().filter(o -> o instanceof Map<?, ?>).map(o -> (Map<String, Object>) o).toList();
    }

    static List<Path> children(Path dir, Pattern name) {
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> name.matcher(p.getFileName().toString()).matches())
                    .sorted((a, b) -> Integer.compare(number(a, name), number(b, name))).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    static int number(Path p, Pattern name) {
        Matcher m = name.matcher(p.getFileName().toString());
        return m.matches() ? Integer.parseInt(m.group(1)) : -1;
    }
}
