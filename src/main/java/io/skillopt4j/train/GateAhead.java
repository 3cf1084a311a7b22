package io.skillopt4j.train;

import io.skillopt4j.env.RolloutResult;

import java.util.function.Consumer;

/**
 * Thread-safe. Decides a step's gate from the first rows of its selection evaluation, as they settle, once the rows
 * still missing can no longer change it, and then hands {@code onDecided} the skill the next step rolls out: the
 * candidate when it is accepted whatever the rest score, the current skill when it is rejected whatever they score.
 * The gate score is non-decreasing in the mean hard and soft scores, so the unknown rows' extremes — each scored 0 or
 * 1, or errored and left out of the mean — bound it; a margin keeps summation-order rounding from mattering, and a
 * row outside [0, 1] turns the early decision off. The step still decides from all rows as before; this only lets
 * the next step's rollout fill the evaluation's last, partial round.
 */
final class GateAhead implements Consumer<RolloutResult> {
    private static final double MARGIN = 1e-9;
    private final int items;
    private final Gate gate;
    private final String candidate;
    private final String current;
    private final double currentScore;
    private final Consumer<String> onDecided;
    private int seen, scored; // guarded by this
    private double hard, soft; // guarded by this
    private boolean done; // guarded by this: decided, or turned off

    GateAhead(int items, Gate gate, String candidate, String current, double currentScore, Consumer<String> onDecided) {
        this.items = items;
        this.gate = gate;
        this.candidate = candidate;
        this.current = current;
        this.currentScore = currentScore;
        this.onDecided = onDecided;
    }

    @Override public void accept(RolloutResult r) {
        String next;
        synchronized (this) {
            if (done) return;
            seen++;
            if (!r.isErrored()) {
                if (!(r.hard() >= 0 && r.hard() <= 1 && r.soft() >= 0 && r.soft() <= 1)) {
                    done = true;
                    return;
                }
                scored++;
                hard += r.hard();
                soft += r.soft();
            }
            int left = Math.max(0, items - seen), n = scored + left;
            if (n == 0) return;
            double lo = gate.score(hard / n, soft / n, candidate), hi = gate.score((hard + left) / n, (soft + left) / n, candidate);
            next = lo - MARGIN > currentScore ? candidate : hi + MARGIN <= currentScore ? current : null;
            if (next == null) return;
            done = true;
        }
        onDecided.accept(next);
    }
}
