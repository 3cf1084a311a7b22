package io.skillopt4j.temporal;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One batch of a stage's calls (a rollout's missing items, or one optimizer call) as a Temporal workflow: it runs
 * every call as an activity on the worker task queue, in parallel, retried, and returns their results in order.
 * The coordinator starts it under an ID derived from the run and the calls, so a restarted coordinator re-attaches
 * to it (or reads its result) instead of running the calls again.
 */
@WorkflowInterface
public interface StageWorkflow {
    /** Runs the calls of {@code spec} (JSON, see {@link StageSpec}) and returns a JSON array of their results. */
    @WorkflowMethod
    String run(String spec);
}
