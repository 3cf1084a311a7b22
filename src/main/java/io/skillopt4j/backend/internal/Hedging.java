package io.skillopt4j.backend.internal;

import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread-safe. Hedged requests of one model: a call still running after the {@code quantile} of its stage's latencies
 * is sent again and the first success wins. Extra calls are capped at {@code maxExtra} of the calls made, so a slow
 * provider cannot double the bill; given the model's {@code slots}, a duplicate only takes a slot no call waits for.
 */
public final class Hedging {
    /** Latencies a stage needs before its quantile is trusted. */
    static final int MIN_SAMPLES = 10;
    private static final int KEPT = 256;

    private final double quantile;
    private final double maxExtra;
    private final java.util.concurrent.Semaphore slots;
    private final Map<String, Window> stages = new ConcurrentHashMap<>();
    private final Window all = new Window();
    private long calls;
    private long extra;

    /** Hedging at {@code quantile} (in (0, 1)) with at most {@code maxExtra} extra calls per call made. */
    public Hedging(double quantile, double maxExtra) { this(quantile, maxExtra, null); }

    /** Hedging whose duplicates each take one of the model's free {@code slots} (null: no such bound). */
    public Hedging(double quantile, double maxExtra, java.util.concurrent.Semaphore slots) {
        this.slots = slots;
        if (!(quantile > 0 && quantile < 1)) throw new IllegalArgumentException("hedge quantile must be in (0, 1), got " + quantile);
        this.quantile = quantile;
        this.maxExtra = Math.max(0, maxExtra);
    }

    /** The hedging of one call in {@code stage} (counted towards the cap). */
    public synchronized Call call(String stage) {
        calls++;
        return new Call(stages.computeIfAbsent(stage == null ? "" : stage, s -> new Window()));
    }

    public double quantile() { return quantile; }

    public synchronized long extraCalls() { return extra; }

    private synchronized boolean reserve() {
        if (extra + 1 > maxExtra * calls) return false;
        extra++;
        return true;
    }

    /** Thread-safe. The last latencies of a stage. */
    static final class Window {
        private final long[] nanos = new long[KEPT];
        private int n;

        synchronized void add(long ns) { nanos[n++ % KEPT] = ns; }

        synchronized int size() { return Math.min(n, KEPT); }

        synchronized long quantile(double q) {
            long[] v = Arrays.copyOf(nanos, Math.min(n, KEPT));
            Arrays.sort(v);
            return v[Math.min(v.length - 1, (int) Math.ceil(q * v.length) - 1)];
        }
    }

    /** Thread-safe. One call's hedging: its stage's window and how many extra calls it sent. */
    public final class Call {
        private final Window stage;
        private final AtomicInteger sentExtra = new AtomicInteger();

        Call(Window stage) { this.stage = stage; }

        /** When to send the duplicate, or null while there are too few latencies to say. */
        Duration delay() {
            Window w = stage.size() >= MIN_SAMPLES ? stage : all.size() >= MIN_SAMPLES ? all : null;
            return w == null ? null : Duration.ofNanos(w.quantile(quantile));
        }

        void observe(long nanos) {
            stage.add(nanos);
            all.add(nanos);
        }

        /** Takes a free slot (see the class comment); false while there is none. */
        boolean takeSlot() { return slots == null || !slots.hasQueuedThreads() && slots.tryAcquire(); }

        void releaseSlot() { if (slots != null) slots.release(); }

        boolean reserve() {
            if (!Hedging.this.reserve()) return false;
            sentExtra.incrementAndGet();
            return true;
        }

        /** Extra calls this call sent (0 or 1). */
        public int extraCalls() { return sentExtra.get(); }
    }

    /** How often a call sent before its stage had enough latencies looks again whether it is due a duplicate. */
    private static final long UNKNOWN_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private static final ScheduledExecutorService TIMER = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
            io.skillopt4j.internal.Daemons.named("skillopt-hedge-timer"));

    /**
     * Executes {@code req}, racing a duplicate when it runs past {@code h}'s delay and the cap allows one. The
     * duplicate runs on a thread created here, so it inherits this thread's inheritable context (meter, cost phase).
     */
    static Response execute(OkHttpClient client, Request req, Call h) throws IOException {
        Duration after = h.delay();
        okhttp3.Call first = client.newCall(req);
        long t0 = System.nanoTime();
        okhttp3.Call second = client.newCall(req);
        Race race = new Race();
        Thread runner = io.skillopt4j.internal.Daemons.named("skillopt-hedge").newThread(() -> race.runSecond(first, second, h, t0));
        // tried again a few times per delay: a slot may free up, and a stage may gain the latencies to judge by
        long initial = after == null ? UNKNOWN_RECHECK_NANOS : after.toNanos();
        long recheck = after == null ? UNKNOWN_RECHECK_NANOS : Math.max(TimeUnit.MILLISECONDS.toNanos(5), after.toNanos() / 4);
        ScheduledFuture<?> timer = TIMER.scheduleWithFixedDelay(() -> race.start(runner, h, t0), initial, recheck, TimeUnit.NANOSECONDS);
        Response r;
        try {
            r = first.execute();
        } catch (IOException e) {
            if (!race.firstDone()) throw e; // no duplicate was started: the call failed
            Response s = race.awaitSecond(second);
            if (s == null) throw e;
            return s;
        } finally {
            timer.cancel(false);
        }
        boolean started = race.firstDone();
        if (r.isSuccessful()) {
            if (race.claim(1)) {
                h.observe(System.nanoTime() - t0);
                second.cancel();
                return r;
            }
            r.close(); // the duplicate answered first
            Response s = race.awaitSecond(second);
            if (s != null) return s;
            throw new IOException("hedged call lost its reply");
        }
        if (started) { // the first copy failed after its retries: the duplicate may still answer
            Response s = race.awaitSecond(second);
            if (s != null && s.isSuccessful()) {
                r.close();
                return s;
            }
            if (s != null) s.close();
        }
        return r;
    }

    /** The state shared by a call's two copies. */
    private static final class Race {
        private final AtomicInteger winner = new AtomicInteger();
        private final CompletableFuture<Response> second = new CompletableFuture<>();
        private boolean started;
        private boolean firstDone;
        private boolean gaveUp;

        synchronized void start(Thread runner, Call h, long t0) {
            if (firstDone || started || gaveUp) return;
            Duration after = h.delay();
            if (after == null || System.nanoTime() - t0 < after.toNanos() || !h.takeSlot()) return;
            if (!h.reserve()) {
                h.releaseSlot();
                gaveUp = true; // over the cap: this call is not hedged
                return;
            }
            started = true;
            runner.start();
        }

        /** Marks the first copy finished; returns whether the duplicate was started. */
        synchronized boolean firstDone() {
            firstDone = true;
            return started;
        }

        boolean claim(int who) { return winner.compareAndSet(0, who) || winner.get() == who; }

        /**
         * Runs the duplicate. When it wins, the window gets the time since the first copy was sent, a lower bound of
         * its latency: the duplicate's own would keep only short draws and make later calls hedge ever earlier.
         */
        void runSecond(okhttp3.Call first, okhttp3.Call second, Call h, long firstSent) {
            try {
                Response s = second.execute();
                if (s.isSuccessful() && claim(2)) {
                    h.observe(System.nanoTime() - firstSent);
                    first.cancel();
                }
                this.second.complete(s);
            } catch (IOException | RuntimeException e) {
                this.second.completeExceptionally(e);
            } finally {
                h.releaseSlot();
            }
        }

        /** The duplicate's reply, or null when it failed or was cancelled. */
        Response awaitSecond(okhttp3.Call call) throws IOException {
            try {
                return second.get();
            } catch (ExecutionException e) {
                return null;
            } catch (InterruptedException e) {
                call.cancel();
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for a hedged call");
            }
        }
    }
}
