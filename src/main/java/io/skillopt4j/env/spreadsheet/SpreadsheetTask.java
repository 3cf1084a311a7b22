package io.skillopt4j.env.spreadsheet;

import io.skillopt4j.config.Setting;
import io.skillopt4j.backend.ChatMessage;
import io.skillopt4j.env.ChildProcess;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.internal.Json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Not thread-safe; one per item. The codegen → execute → repair loop and the final per-case evaluation of one task. */
final class SpreadsheetTask {
    /** Upstream's defaults when env.max_turns / env.exec_timeout are unset. */
    static final int MAX_TURNS = 30, EXEC_TIMEOUT = 600;

    private final SpreadsheetBenchmark bench;
    private final Item item;
    private final RolloutRunner.Context ctx;
    private final List<Map<String, Object>> conv = new ArrayList<>();
    private final StringBuilder raw = new StringBuilder();

    SpreadsheetTask(SpreadsheetBenchmark bench, Item item, RolloutRunner.Context ctx) {
        this.bench = bench;
        this.item = item;
        this.ctx = ctx;
    }

    record Check(boolean ok, String reason, List<String> wrong, int correct, String report) {}

    RolloutRunner.Outcome run() throws Exception {
        Path dir = ctx.itemDir();
        Files.createDirectories(dir);
        Map<String, Object> f = Json.obj("ok", false, "instruction_type", item.str("instruction_type"),
                "task_type", item.str("task_type"), "task_description", item.str("instruction"));
        List<SpreadsheetBenchmark.Case> cases = SpreadsheetBenchmark.cases(bench.dataRoot.resolve(item.str("spreadsheet_path")), item.id());
        if (cases.isEmpty()) {
            Json.put(f, "phase", "setup", "fail_reason", "no-test-cases", "agent_ok", true, "n_cases", 0);
            return new RolloutRunner.Outcome(new RolloutResult(item.id(), 0, 0, f), List.of(), "", "", Map.of());
        }
        String position = SpreadsheetBenchmark.answerPosition(item);
        String preview = bench.runtime.preview(cases.get(0).input());
        String system = bench.systemPrompt(ctx.request().skill());
        String user = bench.userPrompt(item, position, preview);
        var cfg = bench.config();
        int maxTurns = Setting.string("mode").of(cfg).equalsIgnoreCase("single") ? 1 : Math.max(1, Setting.integer("max_turns").in(cfg).orElse(MAX_TURNS));
        long deadline = System.nanoTime() + Duration.ofSeconds(Setting.integer("exec_timeout").in(cfg).orElse(EXEC_TIMEOUT)).toNanos();
        long delayMs = (long) (Setting.decimal("turn_delay_seconds").of(cfg) * 1000);
        List<ChatMessage> msgs = new ArrayList<>(List.of(ChatMessage.system(system), ChatMessage.user(user)));
        String code = "";
        String failure = "";
        String phase = "llm";
        boolean llmOk = true; // upstream's row field; a failed call errors the item instead
        boolean lastRunOk = false;
        int turns = 0;
        while (turns < maxTurns) {
            long remaining = Duration.ofNanos(deadline - System.nanoTime()).toSeconds();
            if (remaining < 10) { failure = failure.isEmpty() ? "task deadline reached" : failure; break; }
            // a failed call errors the item (runs again on resume), not an "llm-call-failed" zero as in SkillOpt
            String reply = bench.askModel(ctx, msgs, Duration.ofSeconds(Math.min(120, remaining)));
            turns++;
            raw.append("=== turn ").append(turns).append(" ===\n").append(reply).append('\n');
            conv.add(Json.obj("type", "message", "turn", turns, "content", reply));
            msgs.add(ChatMessage.assistant(reply));
            String c = SpreadsheetBenchmark.extractCode(reply);
            if (c.isBlank()) {
                failure = "empty-code-block";
                phase = "extract";
                feedback(msgs, "No Python code block was found in your reply. Reply with one complete ```python code block.");
                continue;
            }
            code = c;
            SpreadsheetBenchmark.Case first = cases.get(0);
            Path out = dir.resolve(first.no() + "_pred.xlsx");
            Files.deleteIfExists(out);
            ChildProcess.Result r = bench.runtime.runCode(code, first.input(), out, ctx.workspace().resolve("case" + first.no()),
                    Duration.ofSeconds(Math.max(1, Math.min(120, remaining))));
            if (!r.ok() || !Files.isRegularFile(out)) {
                lastRunOk = false;
                phase = "exec";
                failure = !r.ok() ? "exec-error: " + SpreadsheetBenchmark.lastLine(r) : "output-not-found";
                String err = (r.stderr() + r.stdout()).strip();
                if (err.length() > 3000) err = err.substring(err.length() - 3000);
                feedback(msgs, "Your code failed to execute:\n" + (err.isEmpty() ? failure : err) + "\nReturn the full corrected script.");
                if (turns < maxTurns) sleep(delayMs);
                continue;
            }
            lastRunOk = true;
            failure = "";
            if (ctx.request().evalFeedback() && !position.isBlank()) {
                Check check = compare(first.golden(), out, position);
                if (check.ok()) break;
                StringBuilder fb = new StringBuilder("Your code executed successfully but produced incorrect results. The following cells have wrong values:\n");
                check.wrong().stream().limit(50).forEach(w -> fb.append(w).append('\n'));
                fb.append("(").append(check.correct()).append(" other cells are correct.)\nFix the script and return the full corrected script.");
                feedback(msgs, fb.toString());
                if (turns < maxTurns) sleep(delayMs);
                continue;
            }
            break;
        }
        List<Map<String, Object>> caseRows = new ArrayList<>();
        int execPass = 0;
        int pass = 0;
        StringBuilder verification = new StringBuilder("[POST-EXECUTION VERIFICATION]\n");
        if (!code.isBlank() && llmOk) {
            phase = "eval";
            for (int i = 0; i < cases.size(); i++) {
                SpreadsheetBenchmark.Case c = cases.get(i);
                Path out = dir.resolve(c.no() + "_pred.xlsx");
                Map<String, Object> row = Json.obj("no", c.no());
                if (!(i == 0 && lastRunOk && Files.isRegularFile(out))) {
                    Files.deleteIfExists(out);
                    ChildProcess.Result r = bench.runtime.runCode(code, c.input(), out, ctx.workspace().resolve("case" + c.no()), Duration.ofSeconds(120));
                    if (!r.ok() || !Files.isRegularFile(out)) {
                        String why = !r.ok() ? "exec-error: " + SpreadsheetBenchmark.lastLine(r) : "output-not-found";
                        Json.put(row, "stage", "exec", "ok", false, "error", why);
                        if (failure.isEmpty()) failure = why;
                        caseRows.add(row);
                        verification.append("Case ").append(c.no()).append(": FAIL (").append(why).append(")\n");
                        continue;
                    }
                }
                execPass++;
                Check check = position.isBlank() ? new Check(false, "no-answer-position", List.of(), 0, "")
                        : compare(c.golden(), out, position);
                Json.put(row, "stage", "eval", "ok", check.ok());
                if (!check.ok()) row.put("reason", check.reason());
                caseRows.add(row);
                if (check.ok()) pass++;
                else if (failure.isEmpty()) failure = check.reason();
                verification.append("Case ").append(c.no()).append(": ").append(check.ok() ? "PASS" : "FAIL (" + check.reason() + ")")
                        .append('\n').append(check.report()).append('\n');
            }
        } else if (code.isBlank() && failure.isEmpty()) {
            failure = "empty-code-block";
        }
        double soft = (double) pass / cases.size();
        double hard = pass == cases.size() ? 1 : 0;
        if (hard == 1) failure = "";
        String ver = verification.toString();
        if (ver.length() > 12_000) ver = ver.substring(0, 6000) + "\n...[truncated]...\n" + ver.substring(ver.length() - 6000);
        conv.add(Json.obj("role", "system", "content", ver));
        Json.put(f, "ok", hard == 1, "phase", hard == 1 ? "eval" : phase);
        if (!failure.isEmpty()) f.put("fail_reason", failure);
        Json.put(f, "llm_ok", llmOk, "code_ok", !code.isBlank(), "exec_ok", execPass == cases.size(), "n_cases", cases.size(),
                "n_exec_pass", execPass, "n_pass", pass, "n_turns", turns, "cases", caseRows, "agent_ok", llmOk,
                "spreadsheet_preview", preview, "target_system_prompt", system, "target_user_prompt", user);
        Map<String, String> files = new TreeMap<>(Map.of("code.py", code, "raw.txt", raw.toString(), "spreadsheet_preview.txt", preview));
        return new RolloutRunner.Outcome(new RolloutResult(item.id(), hard, soft, f), conv, system, user, files);
    }

    private void feedback(List<ChatMessage> msgs, String text) {
        msgs.add(ChatMessage.user(text));
        conv.add(Json.obj("role", "user", "content", text));
    }

    private static void sleep(long ms) throws InterruptedException {
        if (ms > 0) Thread.sleep(ms);
    }

    @SuppressWarnings("unchecked")
    Check compare(Path golden, Path pred, String position) {
        List<CellCompare.Range> ranges = CellCompare.parseRanges(position, item.str("answer_sheet"));
        Map<String, Object> both = bench.runtime.compareDump(golden, pred, ranges);
        Map<String, Object> g = (Map<String, Object>) both.get("gold");
        Map<String, Object> p = (Map<String, Object>) both.get("pred");
        List<String> missing = (List<String>) p.get("missing_sheets");
        if (!missing.isEmpty()) return new Check(false, "sheet-missing: " + missing.get(0), List.of(), 0, "missing sheet " + missing.get(0));
        List<List<Object>> gc = (List<List<Object>>) g.get("cells");
        List<List<Object>> pc = (List<List<Object>>) p.get("cells");
        List<String> wrong = new ArrayList<>();
        StringBuilder report = new StringBuilder();
        int correct = 0;
        int emptyCorrect = 0;
        String firstReason = "";
        for (int i = 0; i < gc.size() && i < pc.size(); i++) {
            CellCompare.Cell gCell = cell(gc.get(i));
            CellCompare.Value gv = CellCompare.transform(gCell);
            CellCompare.Value pv = CellCompare.transform(cell(pc.get(i)));
            String ref = gCell.sheet() + "!" + gCell.ref();
            if (CellCompare.equal(gv, pv)) {
                correct++;
                if (gv == CellCompare.Value.EMPTY) emptyCorrect++;
                else report.append(ref).append(": got=").append(pv).append(", expected=").append(gv).append(" ✓\n");
            } else {
                wrong.add(ref + ": your output = " + pv + " (WRONG)");
                report.append(ref).append(": got=").append(pv).append(", expected=").append(gv).append(" ✗\n");
                if (firstReason.isEmpty()) firstReason = "eval-mismatch: value@" + ref + ": gt=" + gv + " pred=" + pv;
            }
        }
        if (emptyCorrect > 0) report.append("(").append(emptyCorrect).append(" empty cells correct)\n");
        return new Check(wrong.isEmpty(), firstReason, wrong, correct, report.toString());
    }

    private static CellCompare.Cell cell(List<Object> row) {
        return new CellCompare.Cell(String.valueOf(row.get(0)), String.valueOf(row.get(1)), String.valueOf(row.get(2)), row.get(3));
    }
}
