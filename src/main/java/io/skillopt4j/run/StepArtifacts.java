package io.skillopt4j.run;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Immutable. What one {@code steps/step_NNNN/} folder holds (upstream-trainer §6.5); absent files are empty.
 * {@code patches} maps a minibatch file name (e.g. {@code batch_1/minibatch_succ_000}) to the analyst's raw patch.
 */
public record StepArtifacts(int step, Path dir, Map<String, Object> record, Map<String, Object> mergedPatch,
                            Map<String, Object> rankedEdits, List<Map<String, Object>> editApplyReport,
                            Map<String, Map<String, Object>> patches, String candidateSkill, Map<String, Object> lrDecision) {
    public StepArtifacts {
        record = frozen(record);
        mergedPatch = frozen(mergedPatch);
        rankedEdits = frozen(rankedEdits);
        editApplyReport = editApplyReport == null ? List.of() : Collections.unmodifiableList(editApplyReport);
        patches = patches == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(patches));
        candidateSkill = candidateSkill == null ? "" : candidateSkill;
        lrDecision = frozen(lrDecision);
    }

    static Map<String, Object> frozen(Map<String, Object> m) {
        return m == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }
}
