package io.skillopt4j.env;

import java.util.List;
import java.util.Objects;

/**
 * Immutable. One batch of items to roll out, as upstream's {@code BatchSpec}: phase "train" or "eval", the
 * split it came from, its seed (the batch seed that also seeds reflect's minibatch shuffle), and the items.
 */
public record BatchSpec(String phase, String split, long seed, List<Item> items) {
    public BatchSpec {
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(split, "split");
        items = List.copyOf(items);
    }

    public int size() { return items.size(); }
}
