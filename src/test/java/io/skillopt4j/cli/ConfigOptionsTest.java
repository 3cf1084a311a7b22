package io.skillopt4j.cli;

import io.skillopt4j.ConfigException;
import io.skillopt4j.config.ConfigResolver;
import io.skillopt4j.config.ResolvedConfig;
import io.skillopt4j.config.Cfg;
import io.skillopt4j.notebook.SkillOpt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigOptionsTest {
    static final String F = ConfigCommandTest.SEARCHQA;
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-04T05:06:07Z"), ZoneOffset.UTC);
    @TempDir Path dir;

    private CommandLine.ParseResult parse(ConfigOptions opts, String... args) {
        CommandSpec spec = CommandSpec.create();
        opts.addTo(spec);
        return new CommandLine(spec).parseArgs(args);
    }

    private ResolvedConfig viaCli(String... args) {
        return ConfigOptions.train().resolve(parse(ConfigOptions.train(), args), new ConfigResolver(CLOCK, dir));
    }

    @Test
    void builderGivesTheSameResultAsTheCli() {
        ResolvedConfig cli = viaCli("--config", F, "--backend", "claude_code_exec", "--target_model", "x",
                "--cfg-options", "train.batch_size=8", "env.extra=yes", "--max_analyst_rounds", "1",
                "--azure_api_key", "zz-cfg-test-secret-1", "--use_gate", "no");
        ResolvedConfig api = Cfg.load(F).set("train.batch_size", 8).set("env.extra", "yes")
                .backend("claude_code_exec").flag("target_model", "x").flag("max_analyst_rounds", 1)
                .flag("azure_api_key", "zz-cfg-test-secret-1").flag("use_gate", "no")
                .clock(CLOCK).workingDirectory(dir).resolve();
        assertEquals(cli.flat(), api.flat());
        assertEquals(cli.run(), api.run());
        assertEquals(cli.warnings(), api.warnings());
        assertEquals(8, api.flat().get("batch_size"));
        assertEquals(true, api.flat().get("extra"));
        assertEquals(false, api.flat().get("use_gate"));
    }

    /** argparse's nargs="+": negative numbers, a lone "-" and words with a space are values; "--" and options end the list. */
    @Test
    void overrideListsEndWhereArgparseEndsThem() {
        CommandLine.ParseResult pr = parse(ConfigOptions.train(), "--config", F, "--cfg-options", "a.b=1", "-3", "-.5", "-",
                "-x y", "--batch_size", "2");
        assertEquals(List.of("a.b=1", "-3", "-.5", "-", "-x y"), pr.commandSpec().findOption("--cfg-options").getValue());
        pr = parse(ConfigOptions.train(), "--cfg-options", "a.b=1", "--batch_size", "2", "--config", F);
        assertEquals(List.of("a.b=1"), pr.commandSpec().findOption("--cfg-options").getValue());
        assertTrue(ConfigOptions.endsOverrides("--"));
        assertTrue(ConfigOptions.endsOverrides("-x"));
        assertTrue(ConfigOptions.endsOverrides("-3e5"), "argparse's negative-number pattern has no exponent");
    }

    @Test
    void trainAndEvalOptionCounts() {
        CommandSpec train = ConfigOptions.train().addTo(CommandSpec.create());
        CommandSpec eval = ConfigOptions.eval().addTo(CommandSpec.create());
        long ours = io.skillopt4j.config.Flags.ALL.stream().filter(f -> f.ours() && f.flag() != null).count();
        long oursEval = io.skillopt4j.config.Flags.ALL.stream().filter(f -> f.ours() && f.eval()).count();
        assertEquals(132 + ours, train.options().size());
        assertEquals(73 + oursEval, eval.options().size(), "75 minus --skill and --split, which the eval command owns");
        assertTrue(train.findOption("--background_eval") != null && eval.findOption("--background_eval") == null);
        assertTrue(train.findOption("--max_analyst_rounds").hidden());
    }

    @Test
    void lastCfgOptionsWinsLikeArgparseAndValuesMayContainEquals() {
        ResolvedConfig r = viaCli("--config", F, "--cfg-options", "train.seed=1", "--batch_size", "3",
                "--cfg-options", "env.q=a=b", "train.num_epochs=2");
        assertEquals(42, r.flat().get("seed"));
        assertEquals("a=b", r.flat().get("q"));
        assertEquals(2, r.flat().get("num_epochs"));
        assertEquals(3, r.flat().get("batch_size"));
    }

    @Test
    void argparseStyleSyntaxWorks() {
        ResolvedConfig r = viaCli("--config=" + F, "--seed=7", "--cfg", "env.x=1", "--eval_test", "on",
                "--qwen_chat_temperature", "1", "--batch_size", " 1_0 ", "--seed", "8");
        assertEquals(8, r.flat().get("seed"), "a repeated flag keeps the last value");
        assertEquals(1, r.flat().get("x"));
        assertEquals(false, r.flat().get("eval_test"), "_BOOL: only true/1/yes are true");
        assertEquals(1.0, r.flat().get("qwen_chat_temperature"));
        assertEquals(10, r.flat().get("batch_size"));
    }

    @Test
    void evalRejectsQwenBackendAndTrainFlags() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigOptions.eval().request(parse(ConfigOptions.eval(), "--config", F, "--backend", "qwen")));
        assertTrue(e.getMessage().startsWith("argument --backend: invalid choice: 'qwen'"), e.getMessage());
        assertThrows(CommandLine.UnmatchedArgumentException.class,
                () -> parse(ConfigOptions.eval(), "--config", F, "--batch_size", "3"));
        assertEquals(List.of("--config"), List.of(parse(ConfigOptions.eval(), "--config", F).matchedOptions()
                .get(0).longestName()));
    }
}
