package io.skillopt4j.env.spreadsheet;

import io.skillopt4j.config.Setting;
import io.skillopt4j.backend.ChatMessage;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.BenchmarkFactory;
import io.skillopt4j.env.ChatBenchmark;
import io.skillopt4j.env.ChildProcess;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.env.RowRef;
import io.skillopt4j.env.RuntimeScratch;
import io.skillopt4j.env.SplitDataLoader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Thread-safe. SpreadsheetBench: model-written Python per task; soft = fraction of test cases passing. */
public final class SpreadsheetBenchmark extends ChatBenchmark {
    static final String DEFAULT_DATA_ROOT = "data/spreadsheetbench_verified_400";

    final SheetRuntime runtime;
    final Path dataRoot;

    public static final class Factory extends BenchmarkFactory.Named {
        public Factory() { super("spreadsheetbench", "xlsx manipulation by model-written Python; cell comparison per test case",
                SpreadsheetBenchmark::new); }
    }

    public SpreadsheetBenchmark(BenchmarkContext ctx) {
        super("spreadsheetbench", ctx, SplitDataLoader.ratio("spreadsheetbench", ctx, SpreadsheetBenchmark::item));
        this.dataRoot = Path.of(Setting.string("data_root").in(ctx.config()).orElse(DEFAULT_DATA_ROOT)).toAbsolutePath().normalize();
        this.runtime = SheetRuntime.locate(Setting.string("python_executable").of(ctx.config()), new RuntimeScratch(ctx.outRoot(), "spreadsheet"));
    }

    static Item item(Map<String, Object> row, RowRef ref) {
        String id = ref.requireString(row, "id");
        ref.requireString(row, "instruction");
        Map<String, Object> f = new LinkedHashMap<>(row);
        String type = String.valueOf(row.getOrDefault("instruction_type", "")).toLowerCase(java.util.Locale.ROOT);
        f.put("task_type", type.contains("cell") ? "cell_level" : type.contains("sheet") ? "sheet_level" : "other");
        if (row.get("spreadsheet_path") == null) f.put("spreadsheet_path", "spreadsheet/" + id);
        return new Item(id, f);
    }

    @Override protected int defaultWorkers() { return 24; }

    @Override protected int defaultExecTimeout() { return 600; }

    /** Per-call timeout: min(120, task deadline) as upstream; the item timeout adds 60 s to exec_timeout. */
    @Override protected Duration callTimeout() { return Duration.ofSeconds(Math.min(120, Setting.integer("exec_timeout").in(cfg).orElse(defaultExecTimeout()))); }

    @Override protected Duration itemTimeout() { return Duration.ofSeconds(Setting.integer("exec_timeout").in(cfg).orElse(defaultExecTimeout()) + 60L); }

    @Override public List<String> taskTypes() { return List.of("cell_level", "sheet_level"); }

    record Case(String no, Path input, Path golden) {}

    /** The test cases of a task folder (any of upstream's namings), sorted by file name. */
    static List<Case> cases(Path dir, String id) {
        List<Case> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) return out;
        try (var st = Files.list(dir)) {
            for (Path p : st.sorted().toList()) {
                String n = p.getFileName().toString();
                for (String[] pair : new String[][] {{"_input.xlsx", "_answer.xlsx"}, {"_init.xlsx", "_golden.xlsx"}}) {
                    if (n.endsWith("_" + id + pair[0])) {
                        String no = n.substring(0, n.length() - ("_" + id + pair[0]).length());
                        Path gold = dir.resolve(no + "_" + id + pair[1]);
                        if (Files.isRegularFile(gold)) out.add(new Case(no, p, gold));
                    }
                }
            }
        } catch (java.io.IOException e) {
            return out;
        }
        if (out.isEmpty() && Files.isRegularFile(dir.resolve("initial.xlsx")) && Files.isRegularFile(dir.resolve("golden.xlsx"))) {
            out.add(new Case("1", dir.resolve("initial.xlsx"), dir.resolve("golden.xlsx")));
        }
        return out;
    }

    /** The code between the first ``` fence line and the next ```, else the whole reply. */
    static String extractCode(String reply) {
        String[] lines = reply.split("\n", -1);
        int start = -1;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].trim().startsWith("```")) {
                if (start < 0) start = i;
                else return String.join("\n", java.util.Arrays.copyOfRange(lines, start + 1, i)).strip();
            }
        }
        return start < 0 ? reply.strip() : String.join("\n", java.util.Arrays.copyOfRange(lines, start + 1, lines.length)).strip();
    }

    String systemPrompt(String skill) {
        String base = resource("spreadsheetbench", "codegen_system.md").strip();
        String s = skill == null ? "" : skill.strip();
        return s.isEmpty() ? base : base + "\n\n## Skill\n" + s;
    }

    String userPrompt(Item item, String position, String preview) {
        StringBuilder sb = new StringBuilder("# Instruction\n").append(item.str("instruction")).append('\n');
        if (!item.str("instruction_type").isBlank()) sb.append("Instruction type: ").append(item.str("instruction_type")).append('\n');
        if (!position.isBlank()) sb.append("Expected answer position: ").append(position).append('\n');
        sb.append("\n# Input spreadsheet preview\n").append(preview).append("\n\n# Task\n")
                .append("Write one self-contained Python script that reads the workbook at INPUT_PATH, performs the instruction and saves "
                        + "the result to OUTPUT_PATH. Preserve every cell the instruction does not ask to change. The preview may be "
                        + "truncated, so iterate over the real rows instead of hard-coding them. Return only a single ```python code block.");
        return sb.toString();
    }

    static String answerPosition(Item item) {
        String pos = item.str("answer_position").trim();
        String sheet = item.str("answer_sheet").trim();
        if (!pos.isEmpty() && !pos.contains("!") && !sheet.isEmpty()) pos = sheet + "!" + pos;
        return pos;
    }

    @Override
    protected RolloutRunner.Outcome runItem(Item item, RolloutRunner.Context ctx) throws Exception {
        return new SpreadsheetTask(this, item, ctx).run();
    }

    io.skillopt4j.config.FlatConfig config() { return cfg; }

    String askModel(RolloutRunner.Context ctx, List<ChatMessage> messages, Duration timeout) {
        if (agent().isPresent()) {
            return ask(ctx, "{skill_section}" + messages.get(0).content(), messages.get(messages.size() - 1).content(), List.of());
        }
        return target().chat(targetRequest().messages(messages).timeout(timeout).build()).text();
    }

    static String lastLine(ChildProcess.Result r) {
        String s = (r.stderr() + "\n" + r.stdout()).strip();
        return SheetRuntime.lastLine(s.isEmpty() ? (r.timedOut() ? "timed out" : "exit " + r.exitCode()) : s);
    }
}
