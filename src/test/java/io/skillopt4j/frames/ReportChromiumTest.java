package io.skillopt4j.frames;

import io.skillopt4j.run.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/** Loads report.html in headless Chromium (Debian's {@code chromium}); required in CI, skipped locally when absent. */
class ReportChromiumTest {
    static Path chromium() {
        String override = System.getenv("SKILLOPT_CHROMIUM");
        if (override != null && !override.isBlank()) return Path.of(override);
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) return p;
            }
        }
        String msg = "headless Chromium not found on PATH (install it with: apt-get update && apt-get install -y chromium)";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) fail(msg);
        Assumptions.abort(msg);
        return null;
    }

    static String dumpDom(Path html, Path tmp) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(chromium().toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + tmp.resolve("profile"),
                "--virtual-time-budget=5000", "--dump-dom", html.toUri().toString()));
        Path out = tmp.resolve("dom.html");
        Path err = tmp.resolve("chromium.err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("chromium did not finish in 90 s: " + Files.readString(err));
        }
        assertEquals(0, p.exitValue(), () -> "chromium failed: " + readQuietly(err));
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    private static String readQuietly(Path p) {
        try { return Files.readString(p); } catch (Exception e) { return "?"; }
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) n++;
        return n;
    }

    @Test
    void reportOfTwoRunsLoadsInChromiumWithAllFiguresAndNoErrors(@TempDir Path tmp) throws Exception {
        Path html = Report.of(List.of(RunFrames.load(Fixtures.run("python-searchqa")),
                RunFrames.load(Fixtures.run("python-searchqa-killed")))).write(tmp.resolve("report.html"));
        String source = Files.readString(html);
        assertFalse(source.contains("http://") || source.contains("https://") || source.contains("src=\"//"),
                "the report must not reference external resources");
        String dom = dumpDom(html, tmp);
        assertTrue(dom.contains("data-ready=\"1\""), "page load handler ran");
        assertFalse(dom.contains("id=\"js-error\""), "no JS error or broken image");
        assertEquals(1 + 10, count(dom, "<img class=\"plot\""), "the comparison plot and five plots per run");
        assertTrue(dom.contains("data-images-ok=\"11\""), "all eleven images decoded in the browser");
        assertTrue(count(dom, "<table class=\"steps\"") == 2 && dom.contains("<table class=\"compare-summary\""));
        assertTrue(dom.contains("<pre class=\"diff\">") && dom.contains("class=\"add\""), "best-skill diff present");
        assertTrue(dom.contains("history.json: not complete JSON"), "warnings of the killed run are shown");
    }
}
