package io.skillopt4j.env.swebench;

import io.skillopt4j.config.Setting;
import io.skillopt4j.ConfigException;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.BenchmarkFactory;
import io.skillopt4j.env.ChatBenchmark;
import io.skillopt4j.env.ChildProcess;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.env.RowRef;
import io.skillopt4j.env.RuntimeScratch;
import io.skillopt4j.env.SplitDataLoader;
import io.skillopt4j.internal.Json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Thread-safe. SWE-bench: a patch for an issue, tested by the official harness; hard = resolved. */
public final class SweBenchBenchmark extends ChatBenchmark {
    static final String MODEL_NAME = "skillopt4j";
    private final List<String> harness;

    public static final class Factory extends BenchmarkFactory.Named {
        public Factory() { super("swebench", "GitHub issues → patches, graded by the official SWE-bench harness (Docker)",
                SweBenchBenchmark::new); }
    }

    public SweBenchBenchmark(BenchmarkContext ctx) {
        super("swebench", ctx, SplitDataLoader.ratio("swebench", ctx, SweBenchBenchmark::item));
        this.harness = List.of(Setting.string("swebench_harness").of(ctx.config()).trim().split("\\s+"));
        // in a temp folder, not the run folder: a refused run writes nothing
        RuntimeScratch.probe("swebench", tmp -> { checkRuntime(tmp); return null; });
    }

    static Item item(Map<String, Object> row, RowRef ref) {
        String id = ref.requireString(row, "instance_id");
        ref.requireString(row, "problem_statement");
        ref.requireString(row, "repo");
        return new Item(id, Json.put(new LinkedHashMap<>(row), "task_type", String.valueOf(row.get("repo"))));
    }

    /** Checks the harness (and Docker) answer; {@code scratch} is the probes' working folder. */
    void checkRuntime(Path scratch) {
        List<String> help = new ArrayList<>(harness);
        help.add("--help");
        ChildProcess.Result r = ChildProcess.run(help, scratch, scratch, Duration.ofSeconds(120), Map.of());
        if (!r.ok()) {
            throw new ConfigException("swebench needs the official SWE-bench harness (`" + String.join(" ", harness) + " --help` failed: "
                    + lastLine(r.stderr() + r.stdout()) + "); install it with `pip install swebench` or set swebench_harness");
        }
        if (Setting.bool("swebench_check_docker").of(cfg)) {
            ChildProcess.Result d = ChildProcess.run(List.of("docker", "info"), scratch, scratch, Duration.ofSeconds(60), Map.of());
            if (!d.ok()) throw new ConfigException("swebench needs a running Docker daemon for the harness (`docker info` failed: "
                    + lastLine(d.stderr() + d.stdout()) + ")");
        }
    }

    static String lastLine(String s) {
        String[] lines = s.strip().split("\n");
        return lines.length == 0 || lines[lines.length - 1].isBlank() ? "no output" : lines[lines.length - 1].trim();
    }

    @Override protected int defaultWorkers() { return 4; }

    @Override protected int defaultExecTimeout() { return 600; }

    @Override protected Duration itemTimeout() { return callTimeout().plusSeconds(Setting.integer("harness_timeout").of(cfg) + 60L); }

    /** A failing harness is a task failure, not a backend outage. */
    @Override protected boolean abortWhenAllFail() { return false; }

    /** The first ```diff/```patch block, else everything from the first "diff --git", else "". */
    static String extractPatch(String reply) {
        String[] lines = reply.split("\n", -1);
        int start = -1;
        for (int i = 0; i < lines.length; i++) {
            String t = lines[i].trim();
            if (start < 0 && (t.equals("```diff") || t.equals("```patch"))) start = i;
            else if (start >= 0 && t.equals("```")) return String.join("\n", java.util.Arrays.copyOfRange(lines, start + 1, i)) + "\n";
        }
        int d = reply.indexOf("diff --git");
        return d >= 0 ? reply.substring(d).strip() + "\n" : "";
    }

    String userPrompt(Item item) {
        StringBuilder sb = new StringBuilder("## Repository\n").append(item.str("repo"));
        if (!item.str("base_commit").isBlank()) sb.append(" @ ").append(item.str("base_commit"));
        sb.append("\n\n## Issue\n").append(item.str("problem_statement").strip());
        if (!item.str("hints_text").isBlank() && Setting.bool("use_hints").of(cfg)) sb.append("\n\n## Hints\n").append(item.str("hints_text").strip());
        if (!item.str("text").isBlank()) sb.append("\n\n## Code Context\n").append(item.str("text").strip());
        sb.append("\n\nWrite a patch that resolves the issue, as one unified diff (git format) inside a ```diff code block.");
        return sb.toString();
    }

    @Override
    @SuppressWarnings("unchecked")
    protected RolloutRunner.Outcome runItem(Item item, RolloutRunner.Context ctx) throws Exception {
        String template = resource("swebench", "rollout_system.md");
        String system = renderSystem(template, ctx.request().skill());
        String user = userPrompt(item);
        String reply = ask(ctx, template, user, List.of());
        String patch = extractPatch(reply);
        Map<String, Object> f = Json.obj("task_type", item.str("task_type"), "task_description", item.str("problem_statement"),
                "response", reply, "agent_ok", true, "n_turns", 1);
        List<Map<String, Object>> conv = new ArrayList<>(List.of(turn(1, reply)));
        Map<String, String> files = Map.of("model.patch", patch);
        if (patch.isBlank()) {
            f.put("fail_reason", "empty-patch: no ```diff block or diff --git in the reply");
            return new RolloutRunner.Outcome(new RolloutResult(item.id(), 0, 0, f), conv, system, user, files);
        }
        Path ws = ctx.workspace();
        Files.createDirectories(ws);
        Path preds = ws.resolve("predictions.jsonl");
        Files.writeString(preds, Json.compact(Json.obj("instance_id", item.id(), "model_name_or_path", MODEL_NAME, "model_patch", patch)) + "\n");
        String runId = "skillopt4j-" + Integer.toHexString((item.id() + System.nanoTime()).hashCode());
        List<String> cmd = new ArrayList<>(harness);
        cmd.addAll(List.of("--dataset_name", Setting.string("swebench_dataset").of(cfg), "--split",
                Setting.string("swebench_split").of(cfg), "--predictions_path", preds.toString(), "--instance_ids", item.id(),
                "--max_workers", "1", "--run_id", runId));
        ChildProcess.Result r = ChildProcess.run(cmd, ws, ws, Duration.ofSeconds(Setting.integer("harness_timeout").of(cfg)), Map.of());
        Path report = ws.resolve(MODEL_NAME + "." + runId + ".json");
        if (!Files.isRegularFile(report)) {
            Json.put(f, "fail_reason", "harness-error: " + (r.timedOut() ? "timed out" : lastLine(r.stderr() + r.stdout())), "phase", "eval");
            conv.add(Json.obj("role", "system", "content", "[HARNESS]\n" + tail(r.stdout() + "\n" + r.stderr())));
            return new RolloutRunner.Outcome(new RolloutResult(item.id(), 0, 0, f), conv, system, user, files);
        }
        Map<String, Object> summary = (Map<String, Object>) Json.read(report);
        boolean resolved = ((List<Object>) summary.getOrDefault("resolved_ids", List.of())).contains(item.id());
        double soft = resolved ? 1 : 0;
        Path inst = ws.resolve("logs/run_evaluation").resolve(runId).resolve(MODEL_NAME).resolve(item.id()).resolve("report.json");
        String testSummary = "";
        if (Files.isRegularFile(inst)) {
            Map<String, Object> rep = (Map<String, Object>) ((Map<String, Object>) Json.read(inst)).get(item.id());
            Map<String, Object> status = rep == null ? null : (Map<String, Object>) rep.get("tests_status");
            Map<String, Object> f2p = status == null ? null : (Map<String, Object>) status.get("FAIL_TO_PASS");
            if (f2p != null) {
                int ok = ((List<?>) f2p.getOrDefault("success", List.of())).size();
                int bad = ((List<?>) f2p.getOrDefault("failure", List.of())).size();
                if (ok + bad > 0) soft = resolved ? 1 : (double) ok / (ok + bad);
                testSummary = "FAIL_TO_PASS passing: " + ok + "/" + (ok + bad) + "; failing: " + f2p.getOrDefault("failure", List.of());
            }
        }
        f.put("resolved", resolved);
        if (!resolved) f.put("fail_reason", "unresolved: the harness tests did not pass" + (testSummary.isEmpty() ? "" : " (" + testSummary + ")"));
        conv.add(evaluation("Resolved: " + resolved + (testSummary.isEmpty() ? "" : "\n" + testSummary)));
        return new RolloutRunner.Outcome(new RolloutResult(item.id(), resolved ? 1 : 0, soft, f), conv, system, user, files);
    }

    static String tail(String s) {
        String t = s.strip();
        return t.length() > 4000 ? t.substring(t.length() - 4000) : t;
    }
}
