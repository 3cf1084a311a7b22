package io.skillopt4j.env;

import java.util.List;

/** Thread-safe once built. A benchmark's items and how batches are drawn, as upstream's {@code SplitDataLoader}. */
public interface DataLoader {
    int trainSize();

    /** All items of a split; names accept upstream aliases (valid_seen, selection, valid_unseen...). */
    List<Item> split(String name);

    /** The training batches of {@code epoch} (1-based): slices of a shuffle with Random(seed + epoch×1000). */
    List<BatchSpec> planTrainEpoch(int epoch, int stepsPerEpoch, int accumulation, int batchSize, long seed);

    /** The first {@code batchSize} train items after a shuffle with Random(seed). */
    BatchSpec buildTrainBatch(int batchSize, long seed);

    /** A split in file order, or its first {@code envNum} items when 0 < envNum < size. */
    BatchSpec buildEvalBatch(int envNum, String split, long seed);

    /** Writes the split folders generated in memory, once the run's folder is its own. */
    default void writeGenerated() {}
}
