package io.skillopt4j.backend;

import io.skillopt4j.internal.ThreadScopes;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * Thread-safe. The time by which the model calls of one rollout item must have given up (its wall limit less a reserve
 * for writing its row), bound to the thread that runs the item. Retries are cut to what is left, so a provider that
 * hangs or keeps failing errors the item instead of scoring it as a timeout ({@link #waitingOnProvider()}); a first
 * attempt is never cut, so a slow call that answers is still upstream's timeout row.
 *
 * <pre>{@code
 * CallDeadline d = CallDeadline.in(Duration.ofSeconds(180));
 * RolloutResult r = d.run(() -> runItem(item)); // the item's calls give up by then
 * }</pre>
 */
public final class CallDeadline {
    /** The shortest attempt worth making: less than this left, the last failure stands. */
    public static final Duration MIN_ATTEMPT = Duration.ofSeconds(1);

    private static final ThreadLocal<CallDeadline> CURRENT = new ThreadLocal<>();

    private final long at;
    private final CallDeadline outer;
    private volatile boolean waiting;

    private CallDeadline(long at, CallDeadline outer) {
        this.at = at;
        this.outer = outer;
    }

    /** A deadline within the one bound to this thread. */
    public static CallDeadline in(Duration limit) { return in(limit, CURRENT.get()); }

    /** A deadline {@link #reserve} before {@code limit} from now, never after {@code outer} (null: none), which also
     *  learns when a call under this one retries: an item run again on a thread of its own is still its outer item. */
    public static CallDeadline in(Duration limit, CallDeadline outer) {
        long at = System.nanoTime() + limit.toNanos() - reserve(limit).toNanos();
        return new CallDeadline(outer != null && outer.at - at < 0 ? outer.at : at, outer);
    }

    public <T> T run(Callable<T> work) throws Exception { return ThreadScopes.call(CURRENT, this, work); }

    public static CallDeadline current() { return CURRENT.get(); }

    /** What a limit keeps back for the work after the calls: a tenth of it, at most 5 s. */
    public static Duration reserve(Duration limit) {
        return Duration.ofMillis(Math.min(5_000, limit.toMillis() / 10));
    }

    /** Whether a call under this deadline is waiting on the provider rather than on an answer: retrying, or waiting
     *  for a slot of its model that other calls hold. */
    public boolean waitingOnProvider() { return waiting; }

    /** Nanoseconds left before this deadline (0 when it has passed). */
    public long nanosLeft() { return Math.max(0, at - System.nanoTime()); }

    /** Marks a call under {@code d} (null: none) as waiting on the provider ({@code true}) or not ({@code false}). */
    public static void waiting(CallDeadline d, boolean w) {
        for (CallDeadline x = d; x != null; x = x.outer) x.waiting = w;
    }

    /** Whether waiting {@code wait} would leave less than {@link #MIN_ATTEMPT} before {@code d} (null: never). */
    public static boolean noRoomFor(CallDeadline d, Duration wait) {
        return d != null && System.nanoTime() + wait.toNanos() + MIN_ATTEMPT.toNanos() - d.at > 0;
    }

    /** A retry's {@code timeout} (null: none) cut to what is left before {@code d} (null: none), at least {@link #MIN_ATTEMPT}. */
    public static Duration cut(Duration timeout, CallDeadline d) {
        if (d == null) return timeout;
        long left = Math.max(MIN_ATTEMPT.toNanos(), d.at - System.nanoTime());
        return timeout == null || timeout.toNanos() > left ? Duration.ofNanos(left) : timeout;
    }
}
