package io.skillopt4j.temporal;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One batch of a stage's calls as a Temporal workflow: every call an activity, in parallel, retried; results in order.
 * Its ID derives from the run and the calls, so a restarted coordinator re-attaches instead of calling again.
 */
@WorkflowInterface
public interface StageWorkflow {
    /** Runs the calls of {@code spec} (JSON, see {@link StageSpec}) and returns a JSON array of their results. */
    @WorkflowMethod
    String run(String spec);
}
