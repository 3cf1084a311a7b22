package io.skillopt4j.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue #18's bad-input campaign as a table: every case runs the CLI in-process and must exit 2 with at most two
 * stderr lines naming the offending key, file or value, no stack trace, and nothing created or changed on disk
 * (the fixture folder, which holds every would-be out_root, and the working directory's outputs/).
 */
class BadInputTableTest {
    @TempDir static Path dir;
    static String F, OUT, G, RUN;

    /** One case: {@code args} (space separated; $F = fixture folder, $G = demo config, $OUT = a fresh out_root, $RUN = a run). */
    record Case(String args, String named) {
        @Override public String toString() { return args.replace(F == null ? "\0" : F, "$F").replace(G == null ? "\0" : G, "$G"); }
    }

    static Case c(String named, String args) { return new Case(args, named); }

    @BeforeAll static void fixtures() throws IOException {
        F = dir.toString();
        OUT = F + "/out";
        G = Path.of("configs/demo/default.yaml").toAbsolutePath().toString();
        RUN = io.skillopt4j.run.Fixtures.run("python-searchqa").toAbsolutePath().toString();
        String base = "_base_: " + G + "\n";
        write("t5.yaml", "train: 5\n");
        write("opt.yaml", base + "optimizer: [1, 2]\n");
        write("modelstr.yaml", base + "model: gpt-4\n");
        write("grad.yaml", base + "gradient: true\n");
        write("evalstr.yaml", base + "evaluation: strict\n");
        write("empty.yaml", "");
        write("comment.yaml", "# nothing here\n");
        write("list.yaml", "- a\n- b\n");
        write("scalar.yaml", "hello\n");
        write("syntax.yaml", base + "train:\n  seed: [1\n");
        write("dup.yaml", base + "train:\n  seed: 1\n  seed: 2\n");
        write("dupsec.yaml", base + "train: {seed: 1}\ntrain: {seed: 2}\n");
        Files.write(dir.resolve("binary.yaml"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2, (byte) 0x80, 10});
        write("azur.yaml", base + "model:\n  backend: azur\n");
        write("optb.yaml", base + "model:\n  optimizer_backend: opneai_chat\n");
        write("tgtb.yaml", base + "model:\n  target_backend: curser_exec\n");
        write("trian.yaml", base + "trian:\n  seed: 1\n");
        write("numepoch.yaml", base + "train:\n  num_epoch: 2\n");
        write("envname.yaml", base + "env:\n  name: house-rule\n");
        write("basemissing.yaml", "_base_: gone.yaml\n");
        write("baseint.yaml", "_base_: 3\n");
        write("circa.yaml", "_base_: circb.yaml\n");
        write("circb.yaml", "_base_: circa.yaml\n");
        write("items.json", "[{\"id\": 1, \"question\": \"q\", \"answer\": \"a\"}, {\"id\": 2, \"question\": \"q\", \"answer\": \"b\"}]\n");
        // a run refused after its data is read (bad row, train_size) must not leave the splits it generated
        write("sq.json", "[{\"id\": 1, \"question\": \"q\", \"answer\": \"a\"}, {\"id\": 2, \"question\": \"q\"}, {\"id\": 3, \"question\": \"q\", \"answer\": \"c\"}]\n");
        write("ratiobad.yaml", "model:\n  backend: openai_compatible\n  openai_compatible_base_url: http://127.0.0.1:9/v1\nenv:\n  name: searchqa\n"
                + "  split_mode: ratio\n  split_ratio: \"1:1:1\"\n  data_path: " + F + "/sq.json\n  skill_init: " + F + "/skill.md\n");
        write("ratio.yaml", "env:\n  name: searchqa\n  split_mode: ratio\n  split_ratio: \"2:1\"\n  data_path: " + F + "/items.json\n");
        write("serch.yaml", "env:\n  name: serchqa\n");
        write("batch0.yaml", base + "train:\n  batch_size: 0\n");
        write("lr.yaml", base + "optimizer:\n  lr_scheduler: cosin\n");
        write("file.txt", "not a folder\n");
        write("skill.md", "# Skill\n- be right\n");
        write("garbage.json", "this is {not json\n");
        write("emptyarr.json", "[]\n");
        write("text.txt", "just some words\nand more words\n");
        write("empty.jsonl", "");
        Files.write(dir.resolve("garbage.bin"), new byte[] {0, 1, 2, 3, (byte) 0xff, (byte) 0xfe, 10, 0, 9});
        Files.createDirectories(dir.resolve("adir"));
        Files.createDirectories(dir.resolve("notarun"));
    }

    static void write(String name, String text) throws IOException { Files.writeString(dir.resolve(name), text); }

    static Stream<Case> cases() {
        return Stream.of(
                // ---- train: config files
                c("missing.yaml", "train --config $F/missing.yaml --out_root $OUT"),
                c("adir", "train --config $F/adir --out_root $OUT"),
                c("binary.yaml", "train --config $F/binary.yaml --out_root $OUT"),
                c("dup.yaml", "train --config $F/dup.yaml --out_root $OUT"),
                c("seed", "train --config $F/dup.yaml --out_root $OUT"),
                c("dupsec.yaml", "train --config $F/dupsec.yaml --out_root $OUT"),
                c("syntax.yaml", "train --config $F/syntax.yaml --out_root $OUT"),
                c("list.yaml", "train --config $F/list.yaml --out_root $OUT"),
                c("scalar.yaml", "train --config $F/scalar.yaml --out_root $OUT"),
                c("empty.yaml", "train --config $F/empty.yaml --out_root $OUT"),
                c("comment.yaml", "train --config $F/comment.yaml --out_root $OUT"),
                c("train", "train --config $F/t5.yaml --out_root $OUT"),
                c("optimizer", "train --config $F/opt.yaml --out_root $OUT"),
                c("model", "train --config $F/modelstr.yaml --out_root $OUT"),
                c("gradient", "train --config $F/grad.yaml --out_root $OUT"),
                c("evaluation", "train --config $F/evalstr.yaml --out_root $OUT"),
                c("did you mean azure_openai", "train --config $F/azur.yaml --out_root $OUT"),
                c("did you mean openai_chat", "train --config $F/optb.yaml --out_root $OUT"),
                c("did you mean cursor_exec", "train --config $F/tgtb.yaml --out_root $OUT"),
                c("did you mean train", "train --config $F/trian.yaml --out_root $OUT"),
                c("did you mean train.num_epochs", "train --config $F/numepoch.yaml --out_root $OUT"),
                c("did you mean house-rules", "train --config $F/envname.yaml --out_root $OUT"),
                c("gone.yaml", "train --config $F/basemissing.yaml --out_root $OUT"),
                c("_base_", "train --config $F/baseint.yaml --out_root $OUT"),
                c("circa.yaml", "train --config $F/circa.yaml --out_root $OUT"),
                c("split_ratio", "train --config $F/ratio.yaml --out_root $OUT"),
                c("$F/sq.json: item 1: field \"answer\"", "train --config $F/ratiobad.yaml --out_root $OUT"),
                c("train_size", "train --config $G --backend openai_compatible --cfg-options model.openai_compatible_base_url=http://127.0.0.1:9/v1"
                        + " --train_size 999 --out_root $OUT"),
                c("did you mean searchqa", "train --config $F/serch.yaml --out_root $OUT"),
                c("train.batch_size", "train --config $F/batch0.yaml --out_root $OUT"),
                c("cosin", "train --config $F/lr.yaml --out_root $OUT"),
                c("--config", "train --out_root $OUT"),
                // ---- train: flags
                c("did you mean azure_openai", "train --config $G --backend azur --out_root $OUT"),
                c("opneai_chat", "train --config $G --backend opneai_chat --out_root $OUT"),
                c("did you mean openai_chat", "train --config $G --optimizer_backend opneai_chat --out_root $OUT"),
                c("did you mean cursor_exec", "train --config $G --target_backend curser_exec --out_root $OUT"),
                c("did you mean house-rules", "train --config $G --env house-rule --out_root $OUT"),
                c("did you mean searchqa", "train --config $G --cfg-options env.name=serchqa --out_root $OUT"),
                c("--batch_size", "train --config $G --batch_size x --out_root $OUT"),
                c("batch_size", "train --config $G --batch_size 0 --out_root $OUT"),
                c("num_epochs", "train --config $G --num_epochs -1 --out_root $OUT"),
                c("cosin", "train --config $G --lr_scheduler cosin --out_root $OUT"),
                c("--bach_size", "train --config $G --bach_size 3 --out_root $OUT"),
                c("did you mean --batch_size", "train --config $G --bach_size 3 --out_root $OUT"),
                c("train.batch_size", "train --config $G --cfg-options train.batch_size=abc --out_root $OUT"),
                c("did you mean train.num_epochs", "train --config $G --cfg-options train.num_epoch=2 --out_root $OUT"),
                c("did you mean train", "train --config $G --cfg-options trian.seed=1 --out_root $OUT"),
                c("train.seed", "train --config $G --cfg-options train.seed --out_root $OUT"),
                c("mystery", "train --config $G --cfg-options model.optimizer_backend=mystery --out_root $OUT"),
                c("gate_mixed_weight", "train --config $G --cfg-options evaluation.gate_mixed_weight=1.5 --out_root $OUT"),
                c("split_ratio", "train --config $G --cfg-options env.split_mode=ratio env.split_ratio=abc env.data_path=$F/items.json --out_root $OUT"),
                c("split_ratio", "train --config $G --cfg-options env.split_mode=ratio env.split_ratio=0:1:1 env.data_path=$F/items.json --out_root $OUT"),
                c("random", "train --config $G --cfg-options env.split_mode=random --out_root $OUT"),
                c("$F/nodir", "train --config $G --cfg-options env.split_mode=split_dir env.split_dir=$F/nodir --out_root $OUT"),
                c("$F/missing.json", "train --config $G --cfg-options env.split_mode=ratio env.data_path=$F/missing.json --out_root $OUT"),
                c("$F/nosuch.md", "train --config $G --skill_init $F/nosuch.md --out_root $OUT"),
                c("$F/adir", "train --config $G --skill_init $F/adir --out_root $OUT"),
                c("$F/file.txt", "train --config $G --out_root $F/file.txt"),
                c("$F/file.txt", "train --config $G --out_root $F/file.txt/run"),
                c("/proc/skillopt-run", "train --config $G --out_root /proc/skillopt-run"),
                c("not-a-url", "train --config $G --openai_compatible_base_url not-a-url --out_root $OUT"),
                c("ftp://example.com", "train --config $G --openai_compatible_base_url ftp://example.com --out_root $OUT"),
                c("http://", "train --config $G --cfg-options model.openai_compatible_base_url=http:// --out_root $OUT"),
                c("exec_timeout", "train --config $G --exec_timeout -5 --out_root $OUT"),
                c("workers", "train --config $G --workers 0 --out_root $OUT"),
                c("--seed", "train --config $G --seed abc --out_root $OUT"),
                c("best", "train --config $G --gate_metric best --out_root $OUT"),
                c("mystery", "train --config $G --skill_update_mode mystery --out_root $OUT"),
                c("did you mean temporal", "train --config $G --engine tempral --out_root $OUT"),
                c("always", "train --config $G --cfg-options model.response_cache=always --out_root $OUT"),
                c("foo", "train --config $G --out_root $OUT foo"),
                c("did you mean azure_openai", "train --config $G --backend opneai_chat --out_root $OUT"),
                c("workers", "train --config $G --cfg-options env.workers=0 --out_root $OUT"),
                c("localhost:8000", "train --config $G --cfg-options model.target_openai_compatible_base_url=localhost:8000 --out_root $OUT"),
                c("$F/prices.yaml", "train --config $G --cfg-options model.price_table=$F/prices.yaml --out_root $OUT"),
                c("$F/file.txt", "train --config $G --out_root $F/adir/../file.txt"),
                // ---- eval
                c("$F/nosuch.md", "eval --config $G --skill $F/nosuch.md --out_root $OUT"),
                c("$F/adir", "eval --config $G --skill $F/adir --out_root $OUT"),
                c("bogus", "eval --config $G --skill $F/skill.md --split bogus --out_root $OUT"),
                c("did you mean valid_seen", "eval --config $G --skill $F/skill.md --split valid_sen --out_root $OUT"),
                c("missing.yaml", "eval --config $F/missing.yaml --skill $F/skill.md --out_root $OUT"),
                c("$F/file.txt", "eval --config $G --skill $F/skill.md --out_root $F/file.txt"),
                c("--batch_size", "eval --config $G --skill $F/skill.md --batch_size x --out_root $OUT"),
                c("did you mean azure_openai", "eval --config $F/azur.yaml --skill $F/skill.md --out_root $OUT"),
                c("did you mean house-rules", "eval --config $G --skill $F/skill.md --env house-rule --out_root $OUT"),
                c("did you mean train.num_epochs", "eval --config $G --skill $F/skill.md --cfg-options train.num_epoch=2 --out_root $OUT"),
                c("--skill", "eval --config $G --out_root $OUT"),
                c("train", "eval --config $F/t5.yaml --skill $F/skill.md --out_root $OUT"),
                c("not-a-url", "eval --config $G --skill $F/skill.md --openai_compatible_base_url not-a-url --out_root $OUT"),
                // ---- demo
                c("did you mean house-rules", "demo --env house-rule --out_root $OUT --no-progress"),
                c("$F/file.txt", "demo --out_root $F/file.txt --no-progress"),
                c("--sim-latency-ms", "demo --sim-latency-ms abc --out_root $OUT --no-progress"),
                c("--sim-seed", "demo --sim-seed x --out_root $OUT --no-progress"),
                c("missing.yaml", "demo --config $F/missing.yaml --out_root $OUT --no-progress"),
                c("train.batch_size", "demo --cfg-options train.batch_size=0 --out_root $OUT --no-progress"),
                c("$F/nosuch.md", "demo --skill_init $F/nosuch.md --out_root $OUT --no-progress"),
                c("--sim-batch-delay-ms", "demo --sim-batch-delay-ms -5 --out_root $OUT --no-progress"),
                c("cosin", "demo --lr_scheduler cosin --out_root $OUT --no-progress"),
                c("train", "demo --config $F/t5.yaml --out_root $OUT --no-progress"),
                // ---- split
                c("$F/missing.json", "split --data $F/missing.json --out $OUT"),
                c("$F/garbage.json", "split --data $F/garbage.json --out $OUT"),
                c("$F/emptyarr.json", "split --data $F/emptyarr.json --out $OUT"),
                c("abc", "split --data $F/items.json --ratio abc --out $OUT"),
                c("1:1", "split --data $F/items.json --ratio 1:1 --out $OUT"),
                c("0:0:0", "split --data $F/items.json --ratio 0:0:0 --out $OUT"),
                c("$F/file.txt", "split --data $F/items.json --out $F/file.txt"),
                c("--seed", "split --data $F/items.json --seed x --out $OUT"),
                c("--out", "split --data $F/items.json"),
                // ---- traces
                c("$F/missing.jsonl", "traces show $F/missing.jsonl"),
                c("$F/garbage.bin", "traces show $F/garbage.bin"),
                c("$F/text.txt", "traces show $F/text.txt"),
                c("$F/empty.jsonl", "traces show $F/empty.jsonl"),
                c("$F/adir", "traces show $F/adir"),
                c("bogus", "traces show --format bogus $F/text.txt"),
                c("did you mean claude", "traces show --format claud $F/text.txt"),
                c("FILE", "traces show"),
                // ---- runs / report
                c("$F/nosuch", "runs ls $F/nosuch"),
                c("$F/file.txt", "runs ls $F/file.txt"),
                c("--rows", "runs ls $F/notarun --rows -1"),
                c("--rows", "runs ls $F/notarun --rows x"),
                c("$F/nosuch", "runs show $F/nosuch"),
                c("$F/notarun", "runs show $F/notarun"),
                c("bogus", "runs show $F/notarun --frame bogus"),
                c("--rows", "runs show $F/notarun --rows -1"),
                c("--width", "runs show $F/notarun --width 0"),
                c("lss", "runs lss"),
                c("$F/nosuch", "report $F/nosuch"),
                c("$F/notarun", "report $F/notarun"),
                c("$F/file.txt", "report $F/file.txt --out $F/r.html"),
                c("$F/adir", "report $RUN --out $F/adir"),
                c("$F/file.txt", "report $RUN --out $F/file.txt/r.html"),
                c("--rows", "runs show $RUN --rows 0"),
                c("did you mean steps", "runs show $RUN --frame stpes"),
                // ---- config
                c("missing.yaml", "config show --config $F/missing.yaml"),
                c("train", "config show --config $F/t5.yaml"),
                c("train.batch_size", "config show --config $G --cfg-options train.batch_size=abc"),
                c("dup.yaml", "config show --config $F/dup.yaml"),
                c("binary.yaml", "config show --config $F/binary.yaml"),
                c("did you mean train.num_epochs", "config show --config $G --cfg-options train.num_epoch=2"),
                c("shw", "config shw"),
                // ---- chat (must fail before any call)
                c("not-a-url", "chat --config $G --prompt hi --base-url not-a-url"),
                c("--timeout", "chat --config $G --prompt hi --timeout -5"),
                c("--timeout", "chat --config $G --prompt hi --timeout x"),
                c("judge", "chat --config $G --prompt hi --role judge"),
                c("did you mean optimizer", "chat --config $G --prompt hi --role optimzer"),
                c("--prompt", "chat --config $G"),
                c("did you mean azure_openai", "chat --config $G --prompt hi --backend azur"),
                c("missing.yaml", "chat --config $F/missing.yaml --prompt hi"),
                c("train", "chat --config $F/t5.yaml --prompt hi"),
                c("did you mean train.num_epochs", "chat --config $F/numepoch.yaml --prompt hi"),
                c("did you mean train.num_epochs", "chat --config $G --prompt hi --cfg-options train.num_epoch=2"),
                // ---- bench
                c("--epochs", "bench train --epochs -1 --dir $OUT"),
                c("missing.yaml", "bench train --config $F/missing.yaml --dir $OUT"),
                c("--latency-ms", "bench train --latency-ms x --dir $OUT"),
                c("did you mean train.num_epochs", "bench train --cfg-options train.num_epoch=2 --dir $OUT"),
                c("key=value", "bench train --cfg-options train.seed --dir $OUT"),
                c("--steps", "bench frames --steps 0 --dir $OUT"),
                c("--repeat", "bench frames --repeat -1 --dir $OUT"),
                c("bogus", "bench workload --server bogus"),
                c("--warmup", "bench workload --warmup -1"),
                c("--repeat", "bench workload --repeat 0"),
                c("bogus", "bench batch --provider bogus --out $OUT"),
                c("--calls", "bench engine --calls -1 --dir $OUT"),
                c("bogus", "bench bogus"),
                // ---- sim / worker / engine / kernel / jsh / top level
                c("--port", "sim serve --port 70000 --serve-ms 1"),
                c("--port", "sim serve --port -1 --serve-ms 1"),
                c("--fault-429", "sim serve --fault-429 2 --serve-ms 1"),
                c("abc", "sim serve --latency-ms abc --serve-ms 1"),
                c("--threads", "sim serve --threads 0 --serve-ms 1"),
                c("--slip-rate", "sim serve --slip-rate 1.5 --serve-ms 1"),
                c("--harm-rate", "sim serve --harm-rate -0.1 --serve-ms 1"),
                c("--retry-after", "sim serve --retry-after -1 --serve-ms 1"),
                c("localhost:abc", "worker --engine-address localhost:abc --serve-ms 1"),
                c("--slots", "worker --slots 0 --serve-ms 1"),
                c("nocolon", "worker --engine-address nocolon --serve-ms 1"),
                c("--rollout-rps", "worker --rollout-rps -1 --serve-ms 1"),
                c("$F/missing.pem", "worker --tls-cert $F/missing.pem --tls-key $F/missing.pem --serve-ms 1"),
                c("$F/file.txt", "worker --work-dir $F/file.txt --serve-ms 1"),
                c("--port", "engine dev-server --port 70000 --serve-ms 1"),
                c("--port", "engine dev-server --port x --serve-ms 1"),
                c("$F/missing.jar", "kernel install --jar $F/missing.jar --prefix $OUT"),
                c("instal", "kernel instal"),
                c("$F/adir", "jsh --write $F/adir"),
                c("$F/file.txt", "jsh --write $F/file.txt/x.jsh"),
                c("--prefix", "kernel install --jar $F/file.txt --prefix $F/file.txt"),
                c("$F/adir", "split --data $F/adir --out $OUT"),
                c("tarin", "tarin --config $G"),
                c("did you mean train", "tarin --config $G"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void exitsTwoWithOneNamedLineAndTouchesNothing(Case c) throws IOException {
        String[] args = Arrays.stream(c.args().split(" ")).map(a -> a.replace("$F", F).replace("$G", G).replace("$OUT", OUT).replace("$RUN", RUN))
                .toArray(String[]::new);
        String named = c.named().replace("$F", F);
        Map<String, String> before = snapshot();
        CliRun r = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> CliRun.run(args));
        List<String> lines = r.err().lines().filter(l -> !l.isBlank()).toList();
        String where = c + "\nstderr:\n" + r.err() + "stdout:\n" + r.out();
        assertEquals(2, r.code(), where);
        assertTrue(lines.size() <= 2, "at most two stderr lines: " + where);
        assertTrue(r.err().contains(named), "names " + named + ": " + where);
        assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), "no stack trace or exception name: " + where);
        assertEquals(before, snapshot(), "nothing created or changed on disk: " + where);
    }

    /** Several mistakes are reported together, one line each, before anything runs. */
    @Test void allStaticProblemsAreReportedAtOnce() throws IOException {
        Map<String, String> before = snapshot();
        CliRun r = CliRun.run("train", "--config", G, "--out_root", OUT, "--env", "house-rule",
                "--cfg-options", "train.batch_size=abc", "train.num_epoch=2", "optimizer.lr_scheduler=cosin");
        assertEquals(2, r.code(), r.err());
        List<String> lines = r.err().lines().toList();
        assertEquals(4, lines.size(), r.err());
        for (String named : List.of("train.batch_size", "did you mean train.num_epochs", "cosin", "house-rule"))
            assertTrue(r.err().contains(named), named + ": " + r.err());
        assertEquals(before, snapshot());
    }

    /** Every file and folder under the fixture folder (with content hashes) and the working directory's outputs/. */
    static Map<String, String> snapshot() throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.toList()) {
                String rel = dir.relativize(p).toString();
                m.put(rel, Files.isDirectory(p) ? "dir" : Files.size(p) + ":" + Arrays.hashCode(Files.readAllBytes(p)));
            }
        }
        Path outputs = Path.of("outputs");
        if (Files.isDirectory(outputs)) try (Stream<Path> s = Files.list(outputs)) {
            s.forEach(p -> m.put("cwd:" + p, "entry"));
        }
        m.put("cwd:report.html", String.valueOf(Files.exists(Path.of("report.html"))));
        return m;
    }
}
