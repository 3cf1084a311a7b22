package io.skillopt4j.cli;

import io.skillopt4j.internal.Json;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigCommandTest {
    static final String SEARCHQA = "src/test/resources/upstream-configs/searchqa/default.yaml";

    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void showWithClaudeCodeExecBackendPrintsClaudeTargetAndModel() {
        Run r = run("config", "show", "--config", SEARCHQA, "--backend", "claude_code_exec");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("\"target_backend\": \"claude_code_exec\""), r.out());
        assertTrue(r.out().contains("\"target_model\": \"claude-sonnet-4-6\""), r.out());
        Map<String, Object> m = Json.parseObject(r.out());
        assertEquals("searchqa", m.get("env"));
        assertEquals("openai_chat", m.get("optimizer_backend"));
        assertEquals("gpt-5.5", m.get("optimizer_model"));
        assertEquals(400, m.get("train_size"));
        assertTrue(((String) m.get("out_root")).contains("outputs/skillopt_searchqa_gpt-5.5_"), r.out());
        assertEquals("", r.err());
    }
}
