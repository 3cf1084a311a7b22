package io.skillopt4j.train;

import io.skillopt4j.env.RolloutResult;

import java.util.function.Consumer;

/** Thread-safe. Decides the gate from the first selection rows once the rest can't change it; the step uses all. */
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
