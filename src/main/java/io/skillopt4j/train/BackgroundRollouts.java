package io.skillopt4j.train;

import io.skillopt4j.backend.CostLedger;
import io.skillopt4j.backend.UsageMeter;
import io.skillopt4j.env.BatchSpec;
import io.skillopt4j.env.Benchmark;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RemoteItems;
import io.skillopt4j.env.RolloutRequest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Thread-safe. Rollouts fixed long before they are needed run ahead, a wave at a time, while an optimizer call runs;
 * the foreground rollout completes their folder ({@link #settle}), where their usage is counted, as upstream.
 */
final class BackgroundRollouts implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.skillopt4j.train.background");

    /** One queued rollout; {@code next}: how many items were handed out. */
    private static final class Job {
        final BatchSpec batch;
        final String skill;
        final Path dir;
        final int neededBy;
        final UsageMeter held = new UsageMeter();
        int next; // guarded by the outer instance

        Job(BatchSpec batch, String skill, Path dir, int neededBy) {
            this.batch = batch;
            this.skill = skill;
            this.dir = dir;
            this.neededBy = neededBy;
        }
    }

    private final Benchmark benchmark;
    private final int wave;
    private final UsageMeter usage;
    private final RemoteItems remote;
    private final List<Job> jobs = new ArrayList<>(); // guarded by this: jobs not settled yet
    private Job running; // guarded by this: the job whose wave is in flight
    private Thread thread; // guarded by this: started with the first job
    private int foreground; // guarded by this
    private boolean closed; // guarded by this
    private boolean window; // guarded by this: an optimizer call started while nothing else rolled out

    BackgroundRollouts(Benchmark benchmark, int wave, UsageMeter usage) { this(benchmark, wave, usage, null); }

    /** {@code remote}: an engine's workers; null = this JVM. */
    BackgroundRollouts(Benchmark benchmark, int wave, UsageMeter usage, RemoteItems remote) {
        this.benchmark = benchmark;
        this.wave = Math.max(1, wave);
        this.usage = usage;
        this.remote = remote;
    }

    /** Queues a rollout into {@code dir}, needed at {@code neededBy} (smaller = sooner); a second one is ignored. */
    synchronized void submit(BatchSpec batch, String skill, Path dir, int neededBy) {
        if (closed || batch.items().isEmpty() || job(dir) != null) return;
        jobs.add(new Job(batch, skill == null ? "" : skill, dir.toAbsolutePath().normalize(), neededBy));
        if (thread == null) thread = ThreadPerTask.start("skillopt-background-rollouts", this::loop);
    }

    /** Before a foreground rollout into {@code dir}: drops its job, waits for its wave; same skill only. */
    synchronized void settle(Path dir, String skill) {
        Job job = job(dir);
        if (job == null) return;
        if (!job.skill.equals(skill == null ? "" : skill))
            throw new IllegalStateException("background rollout into " + dir + " used another skill than the trainer's");
        jobs.remove(job);
        while (running == job) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StopRequested();
            }
        }
        usage.add(job.held);
    }

    /** Runs a foreground rollout; no background wave starts until it returns. */
    <T> T foreground(Supplier<T> rollout) {
        synchronized (this) {
            foreground++;
            window = false;
        }
        try {
            return rollout.get();
        } finally {
            synchronized (this) {
                foreground--;
                notifyAll();
            }
        }
    }

    /** Called as each optimizer call starts: opens a window for one background wave if nothing else rolls out. */
    synchronized void optimizerCall() {
        if (running == null && foreground == 0 && !closed && pending().findAny().isPresent()) {
            window = true;
            notifyAll();
        }
    }

    private void loop() {
        while (true) {
            Job job;
            List<Item> part;
            synchronized (this) {
                if (!awaitWindow()) return;
                job = pending().min(java.util.Comparator.comparingInt(j -> j.neededBy)).orElseThrow();
                List<Item> items = job.batch.items();
                part = items.subList(job.next, Math.min(items.size(), job.next + wave));
                job.next += part.size();
                running = job;
            }
            try {
                BatchSpec sub = new BatchSpec(job.batch.phase(), job.batch.split(), job.batch.seed(), part);
                io.skillopt4j.run.RolloutStamp.claim(job.dir, job.skill);
                RolloutRequest request = new RolloutRequest(sub, job.skill, job.dir, false, false, remote);
                UsageMeter.heldIn(job.held, () -> CostLedger.inPhase(phaseOf(job.dir), () -> benchmark.rollout(request)));
            } catch (RuntimeException | io.skillopt4j.BudgetExceeded e) {
                // left to the foreground rollout, which runs the missing items and reports a persistent failure
                LOG.log(System.Logger.Level.DEBUG, "background rollout into " + job.dir + " stopped: " + e);
                synchronized (this) {
                    job.next = job.batch.items().size();
                }
            } finally {
                synchronized (this) {
                    running = null;
                    notifyAll();
                }
            }
        }
    }

    /** The ledger phase whose rollout a background job runs ahead of time. */
    static String phaseOf(Path dir) {
        for (Path d = dir; d != null && d.getFileName() != null; d = d.getParent()) {
            String n = d.getFileName().toString();
            if (n.startsWith("test_eval")) return "test";
            if (n.equals("slow_update") || n.equals("meta_skill")) return n;
        }
        return "train";
    }

    /** Waits for a window with a job pending; false once closed. Caller holds the lock. */
    private boolean awaitWindow() {
        while (!closed && !(window && foreground == 0 && pending().findAny().isPresent())) {
            try {
                wait();
            } catch (InterruptedException e) {
                return false;
            }
        }
        window = false;
        return !closed;
    }

    /** The unsettled job rolling into {@code dir}, or null. Caller holds the lock. */
    private Job job(Path dir) {
        Path key = dir.toAbsolutePath().normalize();
        return jobs.stream().filter(j -> j.dir.equals(key)).findFirst().orElse(null);
    }

    /** Jobs with items not handed out yet. Caller holds the lock. */
    private java.util.stream.Stream<Job> pending() {
        return jobs.stream().filter(j -> j.next < j.batch.items().size());
    }

    /** Stops the job thread after its wave in flight (an unsettled job's finished items stay for a resumed run). */
    @Override public void close() {
        Thread t;
        synchronized (this) {
            closed = true;
            jobs.clear();
            notifyAll();
            t = thread;
        }
        if (t == null) return;
        t.interrupt();
        try {
            t.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
