package io.skillopt4j.train;

import io.skillopt4j.backend.ModelRoles;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.config.FlatConfig;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** A training run in its own JVM, for the kill -9 test: {@code KillableRun <out> <skill> <delayMillis>}. */
public final class KillableRun {
    private KillableRun() {}

    static Map<String, Object> config(Path skill) {
        Map<String, Object> c = TrainerEndToEndTest.baseConfig(skill, 2);
        c.put("num_epochs", 2);
        c.put("lr_scheduler", "linear");
        c.put("edit_budget", 2);
        c.put("minibatch_size", 1);
        return c;
    }

    static TrainingResult run(Path out, Path skill, long delayMillis) {
        UsageMeter meter = new UsageMeter();
        ScriptedOptimizer opt = new ScriptedOptimizer(meter);
        opt.delayMillis = delayMillis;
        return Trainer.builder().config(io.skillopt4j.config.RunConfig.from(FlatConfig.of(config(skill)), "")).roles(new ModelRoles(opt, opt, Optional.empty(), meter))
                .benchmark(new TestBench(12, 6, 6, 2, meter)).outRoot(out).build().train();
    }

    public static void main(String[] args) {
        run(Path.of(args[0]), Path.of(args[1]), Long.parseLong(args[2]));
    }
}
