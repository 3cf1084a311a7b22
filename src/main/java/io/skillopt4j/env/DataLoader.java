package io.skillopt4j.env;

import java.util.List;

/**
 * Thread-safe once built. A benchmark's items and how batches are drawn from them, with upstream's
 * semantics (CPython-identical shuffles): see upstream {@code SplitDataLoader}.
 */
public interface DataLoader {
    /** Returns the number of training items. */
    int trainSize();

    /** Returns all items of a split; names accept upstream aliases (valid_seen, selection, valid_unseen...). */
    List<Item> split(String name);

    /**
     * Returns the {@code stepsPerEpoch × accumulation} training batches of {@code epoch} (1-based):
     * shuffle with Random(seed + epoch×1000), consecutive slices, batch seed = seed + epoch×1000 + idx + 1.
     */
    List<BatchSpec> planTrainEpoch(int epoch, int stepsPerEpoch, int accumulation, int batchSize, long seed);

    /** Returns the first {@code batchSize} train items after a shuffle with Random(seed). */
    BatchSpec buildTrainBatch(int batchSize, long seed);

    /** Returns a split in file order, or its first {@code envNum} items when 0 < envNum < size. */
    BatchSpec buildEvalBatch(int envNum, String split, long seed);

    /**
     * Writes the split folders this loader generated in memory ({@code <out_root>/_generated_splits/...}) for
     * inspection. A training or evaluation calls it once the folder is its own (locked, checked), so a refused run writes
     * nothing; default: nothing to write.
     */
    default void writeGenerated() {}
}
