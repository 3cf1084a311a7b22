package io.skillopt4j.config;

import io.skillopt4j.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input gives one-line ConfigExceptions naming where, the key, the value and what is allowed. */
class BadInputTest {
    static final String F = ConfigResolverTest.SEARCHQA;
    @TempDir Path dir;

    static Stream<Arguments> badOverrides() {
        return Stream.of(
                Arguments.of("optimizer.lr_scheduler=cosin",
                        F + ": optimizer.lr_scheduler must be one of constant, linear, cosine, autonomous, got \"cosin\"; did you mean cosine?"),
                Arguments.of("evaluation.gate_metric=best",
                        F + ": evaluation.gate_metric must be one of hard, soft, mixed, got \"best\""),
                Arguments.of("optimizer.skill_update_mode=mystery", F + ": optimizer.skill_update_mode must be one of "
                        + "patch, rewrite_from_suggestions, full_rewrite_minibatch, got \"mystery\""),
                Arguments.of("optimizer.longitudinal_pair_policy=some", F + ": optimizer.longitudinal_pair_policy must "
                        + "be one of mixed, changed, unchanged, got \"some\""),
                Arguments.of("optimizer.lr_control_mode=manual2",
                        F + ": optimizer.lr_control_mode must be one of fixed, autonomous, none, got \"manual2\""),
                Arguments.of("train.batch_size=0", F + ": train.batch_size must be an integer >= 1, got 0"),
                Arguments.of("train.batch_size=abc", F + ": train.batch_size must be an integer >= 1, got \"abc\""),
                Arguments.of("train.num_epochs=2.5", F + ": train.num_epochs must be an integer >= 0, got 2.5"),
                Arguments.of("gradient.merge_batch_size=1", F + ": gradient.merge_batch_size must be an integer >= 2, got 1"),
                Arguments.of("evaluation.gate_mixed_weight=1.5",
                        F + ": evaluation.gate_mixed_weight must be a number in [0, 1], got 1.5"),
                Arguments.of("evaluation.semantic_density_weight=heavy",
                        F + ": evaluation.semantic_density_weight must be a number >= 0, got \"heavy\""),
                Arguments.of("optimizer.learning_rate=-1",
                        F + ": optimizer.learning_rate (edit_budget) must be an integer >= 0, got -1"),
                Arguments.of("gradient.failure_only=maybe", F + ": gradient.failure_only must be true or false, got \"maybe\""),
                Arguments.of("model.optimizer_backend=cursor_exec", F + ": model.optimizer_backend must be one of "
                        + "claude_chat, claude_code_exec, codex_exec, copilot_chat, minimax_chat, openai_chat, "
                        + "openai_compatible, opencode_exec, qwen_chat, got \"cursor_exec\""),
                Arguments.of("model.target_backend=mystery", F + ": model.target_backend must be one of claude_chat, "
                        + "claude_code_exec, codex_exec, copilot_chat, copilot_exec, cursor_exec, minimax_chat, "
                        + "openai_chat, openai_compatible, opencode_exec, qwen_chat, got \"mystery\""),
                Arguments.of("model.response_cache=always",
                        F + ": model.response_cache must be one of off, read_write, replay, got \"always\""),
                Arguments.of("model.claude_chat_transport=http",
                        F + ": model.claude_chat_transport must be one of cli, api, got \"http\""),
                Arguments.of("model.reasoning_effort=extreme",
                        F + ": model.reasoning_effort must be one of \"\", low, medium, high, xhigh, max, got \"extreme\""),
                Arguments.of("evaluation.leading_words=3",
                        F + ": evaluation.leading_words must be a list of words or a comma-separated string, got 3"),
                Arguments.of("env.split_mode=random", F + ": env.split_mode must be one of ratio, split_dir, got \"random\""),
                Arguments.of("model.rewrite_max_completion_tokens=0",
                        F + ": model.rewrite_max_completion_tokens must be an integer >= 1, got 0"),
                Arguments.of("model.qwen_chat_max_tokens=lots",
                        F + ": model.qwen_chat_max_tokens must be an integer, got \"lots\""),
                Arguments.of("model.target_openai_compatible_temperature=warm",
                        F + ": model.target_openai_compatible_temperature must be a number, got \"warm\""),
                Arguments.of("env.shuffle_choices=sometimes",
                        F + ": env.shuffle_choices must be true or false, got \"sometimes\""),
                Arguments.of("train.seed", "Invalid override (expected key=value): 'train.seed'"));
    }

    @ParameterizedTest
    @MethodSource("badOverrides")
    void badOverrideIsOneLine(String item, String message) {
        ConfigException e = assertThrows(ConfigException.class, () -> Cfg.load(F).cfgOptions(item).resolve());
        assertEquals(message, e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    static Stream<Arguments> badFlags() {
        return Stream.of(
                Arguments.of("batch_size", "x", "argument --batch_size: invalid int value: 'x'"),
                Arguments.of("qwen_chat_temperature", "hot", "argument --qwen_chat_temperature: invalid float value: 'hot'"),
                Arguments.of("lr_scheduler", "cosin", "argument --lr_scheduler: invalid choice: 'cosin' (choose from "
                        + "'constant', 'linear', 'cosine', 'autonomous'); did you mean cosine?"),
                Arguments.of("split_mode", "auto", "argument --split_mode: invalid choice: 'auto' (choose from 'ratio', 'split_dir')"),
                Arguments.of("bach_size", "3", "unknown flag --bach_size; did you mean --batch_size?"));
    }

    @ParameterizedTest
    @MethodSource("badFlags")
    void badFlagIsOneLine(String flag, String value, String message) {
        ConfigException e = assertThrows(ConfigException.class, () -> Cfg.load(F).flag(flag, value).resolve());
        assertEquals(message, e.getMessage());
    }

    @Test
    void missingFilesAndBadDocuments() throws IOException {
        Path missing = dir.resolve("nope.yaml");
        assertEquals("config file not found: " + missing,
                assertThrows(ConfigException.class, () -> Cfg.load(missing).resolve()).getMessage());
        Path child = write("child.yaml", "_base_: gone.yaml\n");
        assertEquals(child + ": _base_ file not found: " + dir.resolve("gone.yaml"),
                assertThrows(ConfigException.class, () -> Cfg.load(child).resolve()).getMessage());
        Path list = write("list.yaml", "- a\n- b\n");
        assertEquals(list + ": top-level YAML must be a mapping, got a list",
                assertThrows(ConfigException.class, () -> Cfg.load(list).resolve()).getMessage());
        Path base = write("base.yaml", "_base_: 3\n");
        assertEquals(base + ": _base_ must be a file path or a list of file paths, got 3",
                assertThrows(ConfigException.class, () -> Cfg.load(base).resolve()).getMessage());
        Path syntax = write("syntax.yaml", "train:\n  seed: [1\n");
        String msg = assertThrows(ConfigException.class, () -> Cfg.load(syntax).resolve()).getMessage();
        assertTrue(msg.startsWith(syntax + ": invalid YAML at line "), msg);
        Path nonMapSection = write("m.yaml", "model: gpt\ntrain: {seed: 1}\n");
        assertEquals("--cfg-options model.target=...: cannot set model.target because model is a string, not a mapping",
                assertThrows(ConfigException.class, () -> Cfg.load(nonMapSection)
                        .cfgOptions("model.target=x").resolve()).getMessage());
    }

    Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }
}
