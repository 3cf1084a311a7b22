package io.skillopt4j.run;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/** Immutable. One epoch's slow-update and meta-skill files (upstream-trainer §6.8); absent files are empty. */
public record EpochArtifacts(int epoch, Map<String, Object> slowResult, List<Map<String, Object>> comparisonPairs,
                             String slowCandidateSkill, Map<String, Object> metaSkillResult) {
    public EpochArtifacts {
        slowResult = StepArtifacts.frozen(slowResult);
        comparisonPairs = comparisonPairs == null ? List.of() : Collections.unmodifiableList(comparisonPairs);
        slowCandidateSkill = slowCandidateSkill == null ? "" : slowCandidateSkill;
        metaSkillResult = StepArtifacts.frozen(metaSkillResult);
    }
}
