package io.skillopt4j.env.spreadsheet;

import io.skillopt4j.ConfigException;
import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.Benchmarks;
import io.skillopt4j.env.ChildProcess;
import io.skillopt4j.env.EnvFixtures;
import io.skillopt4j.env.RolloutRequest;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SpreadsheetBenchmarkTest {
    @TempDir Path tmp;

    private static CellCompare.Value v(String type, Object value) { return CellCompare.transform(new CellCompare.Cell("S", "A1", type, value)); }

    @Test
    void cell_values_follow_the_official_evaluator() {
        assertTrue(CellCompare.equal(v("int", 5), v("str", "5")), "numeric strings compare as numbers");
        assertTrue(CellCompare.equal(v("float", 7.499), v("float", 7.5)), "rounded to 2 decimals");
        assertFalse(CellCompare.equal(v("float", 7.494), v("float", 7.5)));
        assertTrue(CellCompare.equal(v("bool", true), v("int", 1)));
        assertTrue(CellCompare.equal(v("none", null), v("str", "")), "None and empty string are both empty");
        assertFalse(CellCompare.equal(v("none", null), v("int", 0)));
        assertFalse(CellCompare.equal(v("str", "ANN"), v("str", "Ann")));
        assertTrue(CellCompare.equal(v("datetime", 45322.0), v("datetime", 45322.4)), "serial days rounded to 0 decimals");
        assertFalse(CellCompare.equal(v("datetime", 45322.0), v("str", "2024-01-31")));
        assertEquals(new CellCompare.Value("str", "12:30"), v("time", "12:30:00"));
        assertEquals(2.67, CellCompare.pyRound(2.675, 2), "as Python: the binary value of 2.675 is 2.67499…");
        assertEquals(0.12, CellCompare.pyRound(0.125, 2), "exact ties round half to even, as Python");
    }

    @Test
    void answer_positions_parse_with_quoted_sheets_and_default_sheet() {
        assertEquals(List.of(new CellCompare.Range("My, Sheet", "A1:B2"), new CellCompare.Range(null, "C3")),
                CellCompare.parseRanges("'My, Sheet'!A1:B2,C3", ""));
        assertEquals(List.of(new CellCompare.Range("Data", "D2:D20")), CellCompare.parseRanges("$D$2:$D$20", "Data"));
    }

    @Test
    void code_is_taken_from_the_first_fenced_block() {
        assertEquals("print(1)", SpreadsheetBenchmark.extractCode("Here:\n```python\nprint(1)\n```\nand ```python\nx\n```"));
        assertEquals("x = 1", SpreadsheetBenchmark.extractCode("x = 1"));
    }

    @Test
    void a_missing_python_runtime_is_reported_before_any_model_call() {
        ConfigException e = assertThrows(ConfigException.class, () -> Benchmarks.create("spreadsheetbench", EnvFixtures.context(Map.of(
                "split_mode", "split_dir", "split_dir", EnvFixtures.resource("spreadsheetbench").toString(),
                "python_executable", "/nonexistent/python3"), new EnvFixtures.Scripted(r -> { throw new AssertionError("no call"); }), tmp)));
        assertTrue(e.getMessage().contains("apt-get install -y python3-openpyxl"), e.getMessage());
    }

    @Test
    void model_written_code_runs_for_real_repairs_on_feedback_and_is_scored_per_case() throws Exception {
        String py = ChildProcess.findPython(List.of("python3", "/usr/bin/python3"), "import openpyxl", tmp);
        Assumptions.assumeTrue(py != null, "needs python3 with openpyxl (CI installs python3-openpyxl)");
        Path root = tmp.resolve("data");
        ChildProcess.Result made = ChildProcess.run(List.of(py, EnvFixtures.resource("make_spreadsheets.py").toString(), root.toString()),
                tmp, tmp, Duration.ofSeconds(60), Map.of());
        assertTrue(made.ok(), made.stderr());
        Map<String, AtomicInteger> turns = new ConcurrentHashMap<>();
        EnvFixtures.Scripted model = new EnvFixtures.Scripted(req -> {
            String u = req.messages().get(1).content();
            int n = turns.computeIfAbsent(u.contains("sum of columns") ? "sum" : u.contains("upper-case") ? "upper" : u.contains("date") ? "date" : "double",
                    k -> new AtomicInteger()).incrementAndGet();
            if (u.contains("sum of columns")) {
                return n == 1 ? "```python\nimport openpyxl\nwb = openpyxl.load_workbook(INPUT_PATH)\nraise ValueError('boom')\n```"
                        : "```python\nimport openpyxl\nINPUT_PATH = 'x.xlsx'\nwb = openpyxl.load_workbook(INPUT_PATH)\nws = wb.active\n"
                        + "for r in range(2, ws.max_row + 1):\n    ws.cell(r, 3).value = ws.cell(r, 1).value + ws.cell(r, 2).value\nwb.save(OUTPUT_PATH)\n```";
            }
            if (u.contains("upper-case")) {
                String fn = n == 1 ? "title" : "upper";
                return "```python\nimport openpyxl\nwb = openpyxl.load_workbook(INPUT_PATH)\nws = wb['Sheet1']\n"
                        + "for r in range(2, ws.max_row + 1):\n    ws.cell(r, 2).value = ws.cell(r, 1).value." + fn + "()\nwb.save(OUTPUT_PATH)\n```";
            }
            if (u.contains("date")) {
                return "```python\nimport datetime, openpyxl\nwb = openpyxl.load_workbook(INPUT_PATH)\nwb.active['A2'] = datetime.datetime(2024, 1, 31, 9)\nwb.save(OUTPUT_PATH)\n```";
            }
            return "```python\nimport openpyxl\nwb = openpyxl.load_workbook(INPUT_PATH)\nwb.active['B2'] = '=A2*2'\nwb.save(OUTPUT_PATH)\n```";
        });
        Map<String, Object> cfg = new HashMap<>(Map.of("split_mode", "split_dir", "split_dir", EnvFixtures.resource("spreadsheetbench").toString(),
                "data_root", root.toString(), "turn_delay_seconds", 0, "max_turns", 3, "python_executable", py));
        Benchmark b = Benchmarks.create("spreadsheetbench", EnvFixtures.context(cfg, model, tmp));
        assertFalse(Files.exists(tmp.resolve("_spreadsheet_runtime")), "the runtime check writes nothing into the run folder");
        BatchSpec all = EnvFixtures.all(b);
        List<RolloutResult> rs = b.rollout(new RolloutRequest(all, "Use openpyxl.", tmp.resolve("r"), true));
        assertTrue(Files.isRegularFile(tmp.resolve("_spreadsheet_runtime/sheet_tool.py")), "the sidecar is written at its first use");
        assertEquals(List.of("sum1", "upper2", "date3", "formula4", "nocase5"), rs.stream().map(RolloutResult::id).toList());
        RolloutResult sum = rs.get(0);
        assertEquals(1.0, sum.hard(), sum.fields().toString());
        assertEquals(2, sum.fields().get("n_cases"));
        assertEquals(2, sum.fields().get("n_turns"), "first script raised, the repair ran");
        RolloutResult upper = rs.get(1);
        assertEquals(1.0, upper.hard(), "training rollouts get wrong-cell feedback and a second try");
        assertEquals(1.0, rs.get(2).hard(), "a datetime equals its date after serial rounding");
        assertEquals(0.0, rs.get(3).hard());
        assertTrue(rs.get(3).failReason().startsWith("eval-mismatch: value@Sheet1!B2: gt=4.0 pred=None"), rs.get(3).failReason());
        assertEquals("no-test-cases", rs.get(4).failReason());
        assertTrue(Files.readString(tmp.resolve("r/predictions/sum1/code.py")).contains("ws.cell(r, 3).value"));
        assertTrue(Files.isRegularFile(tmp.resolve("r/predictions/sum1/2_pred.xlsx")));
        List<?> conv = (List<?>) Json.read(tmp.resolve("r/predictions/upper2/conversation.json"));
        assertTrue(conv.toString().contains("Sheet1!B2: your output = 'Ann' (WRONG)"), conv.toString());
        assertTrue(conv.toString().contains("[POST-EXECUTION VERIFICATION]"));
        assertTrue(model.requests.get(0).systemText().endsWith("## Skill\nUse openpyxl."));
        assertTrue(model.requests.get(0).lastUserText().contains("## Sheet: Sheet1"));
        // eval rollouts get no wrong-cell feedback: upper2 stops after one executing script and fails
        turns.clear();
        BatchSpec upperOnly = new BatchSpec("eval", "train", 42, List.of(b.data().split("train").get(1)));
        List<RolloutResult> ev = b.rollout(new RolloutRequest(upperOnly, "", tmp.resolve("e"), false));
        assertEquals(0.0, ev.get(0).hard());
        assertEquals(1, ev.get(0).fields().get("n_turns"));
    }
}
