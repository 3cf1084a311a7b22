package io.skillopt4j.cli;

import io.skillopt4j.internal.Json;
import io.skillopt4j.sim.SimServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** A provider that refuses connections: train and eval stop with one line on stderr and exit 75; the same command resumes. */
class ErroredCommandTest {
    @TempDir Path tmp;

    private Path config(int port, Path out) throws Exception {
        return HouseYaml.at("http://127.0.0.1:" + port + "/v1").put("model.openai_compatible_api_key", "sk-simulator")
                .put("model.retry_backoff_base_ms", 0).put("model.retry_backoff_cap_ms", 0).put("env.workers", 4).write(tmp, out);
    }

    @Test void trainAndEvalAgainstARefusingProviderExit75WithOneLineAndTrainResumesWhenItIsBack() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) { port = s.getLocalPort(); }
        Path out = tmp.resolve("run");
        Path cfg = config(port, out);

        CliRun down = CliRun.run("train", "--config", cfg.toString());
        assertEquals(TrainCommand.EXIT_ERRORED, down.code(), down.out() + down.err());
        List<String> err = down.err().lines().toList();
        assertEquals(1, err.size(), down.err());
        assertTrue(err.get(0).startsWith("errored: ") && err.get(0).contains("rollout items failed")
                && err.get(0).contains("resume"), err.get(0));
        assertTrue(down.out().contains("[stopped] after step 0"), down.out());
        assertFalse(Files.exists(out.resolve("summary.json")));
        CliRun show = CliRun.run("runs", "show", out.toString());
        assertEquals(0, show.code(), show.err());
        String faults = show.out().substring(show.out().indexOf("== faults"));
        // validation items refused at once (fast fails), errored; once one had, no further item started
        assertTrue(faults.lines().anyMatch(l -> l.matches("rollout\\s+0\\s+0\\s+([1-9])\\s+0\\s+\\1\\s*")), show.out());
        assertTrue(err.get(0).contains(" not started"), err.get(0));

        CliRun eval = CliRun.run("eval", "--config", cfg.toString(), "--skill", tmp.resolve("skill.md").toString(),
                "--split", "valid_unseen", "--out_root", tmp.resolve("eval").toString());
        assertEquals(TrainCommand.EXIT_ERRORED, eval.code(), eval.out() + eval.err());
        assertEquals(1, eval.err().lines().count(), eval.err());
        assertFalse(Files.exists(tmp.resolve("eval/eval_summary.json")));

        try (SimServer sim = SimServer.builder().seed(7).port(port).latency(java.time.Duration.ZERO).start()) {
            CliRun back = CliRun.run("train", "--config", cfg.toString());
            assertEquals(0, back.code(), back.err());
            Map<?, ?> summary = (Map<?, ?>) Json.read(out.resolve("summary.json"));
            Map<?, ?> total = (Map<?, ?>) ((Map<?, ?>) summary.get("fault_usage")).get("_total");
            assertTrue(((Number) total.get("errored")).longValue() > 0, summary.get("fault_usage").toString());
            CliRun evalBack = CliRun.run("eval", "--config", cfg.toString(), "--skill", tmp.resolve("skill.md").toString(),
                    "--split", "valid_unseen", "--out_root", tmp.resolve("eval").toString());
            assertEquals(0, evalBack.code(), evalBack.err());
            assertEquals(summary.get("baseline_test_hard"), ((Map<?, ?>) Json.read(tmp.resolve("eval/eval_summary.json"))).get("hard"),
                    "the errored eval items were attempted again, none scored 0");
        }
    }
}
