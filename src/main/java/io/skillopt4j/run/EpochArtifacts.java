package io.skillopt4j.run;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Immutable. The epoch-boundary files of one epoch (upstream-trainer §6.8): {@code slow_update/epoch_EE/
 * slow_result.json}, its {@code comparison_pairs.json} and {@code meta_skill/epoch_EE/meta_skill_result.json};
 * absent files are empty.
 */
public record EpochArtifacts(int epoch, Map<String, Object> slowResult, List<Map<String, Object>> comparisonPairs,
                             String slowCandidateSkill, Map<String, Object> metaSkillResult) {
    public EpochArtifacts {
        slowResult = StepArtifacts.frozen(slowResult);
        comparisonPairs = comparisonPairs == null ? List.of() : Collections.unmodifiableList(comparisonPairs);
        slowCandidateSkill = slowCandidateSkill == null ? "" : slowCandidateSkill;
        metaSkillResult = StepArtifacts.frozen(metaSkillResult);
    }
}
