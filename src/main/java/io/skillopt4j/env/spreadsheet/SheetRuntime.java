package io.skillopt4j.env.spreadsheet;

import io.skillopt4j.ConfigException;
import io.skillopt4j.env.ChatBenchmark;
import io.skillopt4j.env.ChildProcess;
import io.skillopt4j.env.RuntimeScratch;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Thread-safe. The Python side of SpreadsheetBench: runs model-written scripts with a timeout and, on POSIX, rlimits
 * (no address-space cap: it breaks numpy/pandas thread pools), and asks the bundled sidecar for previews and cells.
 */
record SheetRuntime(String python, RuntimeScratch scratch) {
    private static final Pattern PATH_ASSIGN = Pattern.compile("(?m)^\\s*(INPUT_PATH|OUTPUT_PATH)\\s*=.*$");

    /** Finds a Python with openpyxl, or throws a ConfigException saying what to install. */
    static SheetRuntime locate(String configured, RuntimeScratch scratch) {
        List<String> candidates = configured != null && !configured.isBlank() ? List.of(configured) : List.of("python3", "/usr/bin/python3");
        String py = RuntimeScratch.probe("spreadsheetbench", tmp -> ChildProcess.findPython(candidates, "import openpyxl", tmp));
        if (py == null) {
            throw new ConfigException("spreadsheetbench needs Python 3 with openpyxl to run model-written code (tried "
                    + String.join(", ", candidates) + "); install it with `apt-get install -y python3-openpyxl` "
                    + "(or `pip install openpyxl pandas`) or set python_executable");
        }
        return new SheetRuntime(py, scratch);
    }

    String preview(Path workbook) {
        ChildProcess.Result r = sidecar("preview", workbook.toString());
        if (!r.ok()) return "(preview unavailable: " + lastLine(r.stderr()) + ")";
        return String.valueOf(Json.parseObject(r.stdout()).get("preview"));
    }

    /** Golden and predicted cells in one sidecar call: {@code {gold: dump, pred: dump}}. */
    Map<String, Object> compareDump(Path golden, Path pred, List<CellCompare.Range> ranges) {
        ChildProcess.Result r = sidecar("compare", golden.toString(), pred.toString(), rangesArg(ranges));
        if (!r.ok()) throw new IllegalStateException("cannot compare " + pred.getFileName() + ": " + lastLine(r.stderr()));
        return Json.parseObject(r.stdout());
    }

    private ChildProcess.Result sidecar(String... args) {
        Path tool = scratch.file("sheet_tool.py", () -> ChatBenchmark.resource("spreadsheetbench", "sheet_tool.py"));
        List<String> cmd = Stream.concat(Stream.of(python, tool.toString()), Stream.of(args)).toList();
        return ChildProcess.run(cmd, tool.getParent(), tool.getParent(), Duration.ofSeconds(120), Map.of());
    }

    private static String rangesArg(List<CellCompare.Range> ranges) {
        return Json.compact(ranges.stream().map(r -> java.util.Arrays.asList(r.sheet(), r.range())).toList()); // a sheet may be null
    }

    /** Wraps the model's code (its own INPUT_PATH/OUTPUT_PATH lines removed) and runs it on one input. */
    ChildProcess.Result runCode(String code, Path input, Path output, Path workDir, Duration timeout) throws IOException {
        String cleaned = PATH_ASSIGN.matcher(code).replaceAll("");
        String runner = "import sys, traceback\n"
                + "try:\n    import resource\n"
                + "    resource.setrlimit(resource.RLIMIT_FSIZE, (512 << 20, 512 << 20))\n"
                + "    resource.setrlimit(resource.RLIMIT_CPU, (" + Math.max(1, timeout.toSeconds()) + ", " + (Math.max(1, timeout.toSeconds()) + 5) + "))\n"
                + "except Exception:\n    pass\n"
                + "INPUT_PATH = " + io.skillopt4j.env.Fields.pyRepr(input.toAbsolutePath().toString()) + "\n"
                + "OUTPUT_PATH = " + io.skillopt4j.env.Fields.pyRepr(output.toAbsolutePath().toString()) + "\n"
                + "try:\n    exec(compile(" + io.skillopt4j.env.Fields.pyRepr(cleaned) + ", 'solution.py', 'exec'), "
                + "{'__name__': '__main__', 'INPUT_PATH': INPUT_PATH, 'OUTPUT_PATH': OUTPUT_PATH})\n"
                + "except SystemExit:\n    raise\nexcept BaseException:\n    traceback.print_exc()\n    sys.exit(2)\n";
        Files.createDirectories(workDir);
        Path script = workDir.resolve("runner.py");
        Files.writeString(script, runner);
        return ChildProcess.run(List.of(python, script.toString()), workDir, workDir, timeout, Map.of());
    }

    static String lastLine(String s) {
        String[] lines = s.strip().split("\n");
        return lines.length == 0 ? "" : lines[lines.length - 1].trim();
    }
}
