package io.skillopt4j.env;

import io.skillopt4j.internal.AtomicFiles;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Immutable. Split folders a loader generated in memory (a ratio split, a generated benchmark's data), to be written for
 * inspection as {@code dir/{train,val,test}/items.json} and {@code dir/split_manifest.json}. A run writes them only once
 * its folder is checked and its own ({@link DataLoader#writeGenerated()}), so a refused run leaves no trace.
 */
public record GeneratedSplits(Path dir, List<List<?>> rows, Map<String, Object> manifest) {
    public GeneratedSplits {
        if (rows.size() != RatioSplit.SPLITS.size()) throw new IllegalArgumentException("one row list per split, got " + rows.size());
        rows = List.copyOf(rows);
        manifest = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(manifest));
    }

    /** Writes the split files and the manifest (each by temp file + rename), the manifest last. */
    public void write() {
        for (int i = 0; i < rows.size(); i++) AtomicFiles.writeJson(dir.resolve(RatioSplit.SPLITS.get(i)).resolve("items.json"), rows.get(i));
        AtomicFiles.writeJson(dir.resolve("split_manifest.json"), manifest);
    }
}
