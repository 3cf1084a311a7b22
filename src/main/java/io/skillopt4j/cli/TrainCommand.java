package io.skillopt4j.cli;

import io.skillopt4j.config.ConfigRequest;
import io.skillopt4j.notebook.SkillOpt;
import io.skillopt4j.train.Trainer;
import io.skillopt4j.train.TrainingHandle;
import io.skillopt4j.train.TrainingResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * Not thread-safe (picocli command object). {@code skillopt train}: upstream's {@code scripts/train.py}. Ctrl-C stops
 * after the current writes (exit 130), errored model calls stop with {@link #EXIT_ERRORED}; the same command resumes.
 */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = "Train a skill with the SkillOpt loop; re-running with the same out_root resumes after the last finished step.")
public final class TrainCommand extends CliCommand {
    public static CommandLine commandLine() { return ConfigOptions.train().commandLine(new TrainCommand()); }

    @Override public Integer call() {
        return run(ConfigOptions.train().request(spec.commandLine().getParseResult()),
                spec.commandLine().getOut(), spec.commandLine().getErr());
    }

    /** Returns the exit code. */
    static int run(ConfigRequest request, PrintWriter out, PrintWriter err) {
        ProgressPrinter printer = new ProgressPrinter(out);
        Trainer trainer = SkillOpt.request(request)
                .cliWarnings().onWarning(w -> { err.println(w); err.flush(); })
                .listener(printer).trainer();
        printer.ledger(trainer.ledger());
        TrainingResult r = runStoppable(trainer);
        if (r.alreadyComplete()) {
            out.println("[train] " + trainer.outRoot() + " is already complete: nothing was run or written"
                    + " (--extend-epochs with a larger train.num_epochs continues it, --force-new starts afresh)");
            out.flush();
        }
        if ("errored".equals(r.summary().get("stop_reason"))) {
            err.println(r.summary().get("message")); // the one line: which stage errored, why, and that it resumes
            err.flush();
            return EXIT_ERRORED;
        }
        return r.stopped() ? 130 : 0;
    }

    /** A run stopped because model calls errored: sysexits' EX_TEMPFAIL, "try again later" once the provider is back. */
    public static final int EXIT_ERRORED = 75;

    /** Runs the trainer; a JVM shutdown (Ctrl-C) asks it to stop and waits briefly for the current writes. */
    static TrainingResult runStoppable(Trainer trainer) {
        TrainingHandle h = trainer.trainAsync();
        Thread hook = new Thread(() -> {
            h.stop();
            long until = System.currentTimeMillis() + 10_000;
            while (!h.isDone() && System.currentTimeMillis() < until) {
                try { Thread.sleep(50); } catch (InterruptedException e) { return; }
            }
        }, "skillopt-train-stop");
        boolean hooked = false;
        try {
            Runtime.getRuntime().addShutdownHook(hook);
            hooked = true;
        } catch (IllegalStateException alreadyShuttingDown) {
            h.stop();
        }
        try {
            return h.await();
        } finally {
            if (hooked) {
                try { Runtime.getRuntime().removeShutdownHook(hook); } catch (IllegalStateException ignored) { /* shutting down */ }
            }
        }
    }
}
