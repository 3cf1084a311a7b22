package io.skillopt4j.backend;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * Thread-scoped. The time by which the model calls made on this thread must have given up: a rollout item's wall limit
 * less a reserve for writing its row. A chat model makes no retry whose wait and full attempt would not end by then
 * ({@link AbstractChatModel}, and the HTTP retry loop through its policy), so a provider that hangs or keeps failing
 * fails the call, and the item is errored, instead of the item's wall limit scoring it as a timeout. Attempts are not
 * shortened: a slow but answering call that outlasts the item is still upstream's timeout row. Exec agents get their
 * limit from their task's timeout. Scopes nest; an inner one never extends an outer one.
 *
 * <pre>{@code
 * RolloutResult r = CallDeadline.within(Duration.ofSeconds(180), () -> runItem(item)); // calls give up by then
 * }</pre>
 */
public final class CallDeadline {
    /** The shortest attempt worth making: less than this left, the last failure stands. */
    public static final Duration MIN_ATTEMPT = Duration.ofSeconds(1);

    private static final ThreadLocal<Long> AT = new ThreadLocal<>();

    private CallDeadline() {}

    /** Returns {@code work}'s result, its calls bound to give up {@link #reserve} before {@code limit} from now. */
    public static <T> T within(Duration limit, Callable<T> work) throws Exception {
        if (limit == null) return work.call();
        long at = System.nanoTime() + limit.toNanos() - reserve(limit).toNanos();
        Long outer = AT.get();
        AT.set(outer == null || outer - at > 0 ? at : outer);
        try {
            return work.call();
        } finally {
            if (outer == null) AT.remove(); else AT.set(outer);
        }
    }

    /** The deadline of this thread's calls as a {@link System#nanoTime()} value, or 0 when there is none. */
    public static long current() {
        Long at = AT.get();
        return at == null ? 0 : at == 0 ? 1 : at;
    }

    /** What a limit keeps back for the work after the calls: a tenth of it, at most 5 s. */
    public static Duration reserve(Duration limit) {
        return Duration.ofMillis(Math.min(5_000, limit.toMillis() / 10));
    }

    /**
     * Whether waiting {@code wait} and then one more attempt of {@code attempt} (null: at least {@link #MIN_ATTEMPT})
     * would run past {@code deadline} (0: never).
     */
    public static boolean noRoomFor(long deadline, Duration wait, Duration attempt) {
        if (deadline == 0) return false;
        long need = attempt == null ? MIN_ATTEMPT.toNanos() : Math.max(MIN_ATTEMPT.toNanos(), attempt.toNanos());
        return System.nanoTime() + wait.toNanos() + need - deadline > 0;
    }
}
