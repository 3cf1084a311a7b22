package io.skillopt4j.temporal;

import io.skillopt4j.ConfigException;
import io.skillopt4j.internal.Json;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.workflow.ActivityStub;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Workflow code (deterministic: no I/O, no clocks): fans the spec's calls out as activities, all at once, hands each
 * result to the waiting coordinator as it arrives ({@link Handoff}) and returns them all in order.
 */
public final class StageWorkflowImpl implements StageWorkflow {
    @Override
    public String run(String specJson) {
        StageSpec spec = StageSpec.parse(specJson);
        ActivityOptions options = ActivityOptions.newBuilder()
                .setTaskQueue(spec.taskQueue())
                .setStartToCloseTimeout(Duration.ofSeconds(spec.startToCloseSeconds()))
                .setHeartbeatTimeout(Duration.ofSeconds(spec.heartbeatSeconds()))
                .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(spec.maxAttempts())
                        .setInitialInterval(Duration.ofMillis(200)).setBackoffCoefficient(2).setMaximumInterval(Duration.ofSeconds(10))
                        // a config the worker cannot build fails the same way on every worker
                        .setDoNotRetry(ConfigException.class.getName()).build())
                .build();
        ActivityStub stub = Workflow.newUntypedActivityStub(options);
        String id = Workflow.getInfo().getWorkflowId();
        List<Promise<String>> calls = new ArrayList<>();
        for (int i = 0; i < spec.inputs().size(); i++) {
            int k = i;
            calls.add(stub.executeAsync(spec.activityType(), String.class, spec.inputs().get(i)).thenApply(r -> {
                Handoff.deliver(id, k, r);
                return r;
            }));
        }
        return Json.compact(calls.stream().map(Promise::get).toList());
    }
}
