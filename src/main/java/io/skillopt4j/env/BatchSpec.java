package io.skillopt4j.env;

import java.util.List;
import java.util.Objects;

/** Immutable. One batch to roll out, as upstream's {@code BatchSpec} (its seed also seeds reflect's minibatches). */
public record BatchSpec(String phase, String split, long seed, List<Item> items) {
    public BatchSpec {
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(split, "split");
        items = List.copyOf(items);
    }

    public int size() { return items.size(); }
}
