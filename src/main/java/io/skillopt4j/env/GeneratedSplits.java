package io.skillopt4j.env;

import io.skillopt4j.internal.AtomicFiles;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Immutable. Split folders generated in memory, written only once a run's folder is its own. */
public record GeneratedSplits(Path dir, List<List<?>> rows, Map<String, Object> manifest) {
    public GeneratedSplits {
        if (rows.size() != RatioSplit.SPLITS.size()) throw new IllegalArgumentException("one row list per split, got " + rows.size());
        rows = List.copyOf(rows);
        manifest = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(manifest));
    }

    /** Writes the split files, then the manifest. */
    public void write() {
        for (int i = 0; i < rows.size(); i++) AtomicFiles.writeJson(dir.resolve(RatioSplit.SPLITS.get(i)).resolve("items.json"), rows.get(i));
        AtomicFiles.writeJson(dir.resolve("split_manifest.json"), manifest);
    }
}
