package io.skillopt4j.backend;

import java.util.Objects;
import java.util.Optional;

/**
 * Immutable. The models a run uses. With an exec-agent target, {@link #targetAgent()} is present and {@link #target()}
 * is the same agent seen as a chat model. {@link #ledger()} holds the run's dollar cap when the models were wrapped in
 * {@link BudgetedChatModel}, as {@link Backends#roles} does.
 */
public record ModelRoles(ChatModel optimizer, ChatModel target, Optional<ExecAgent> targetAgent, UsageMeter usage, CostLedger ledger) {
    public ModelRoles {
        Objects.requireNonNull(optimizer, "optimizer");
        Objects.requireNonNull(target, "target");
        targetAgent = targetAgent == null ? Optional.empty() : targetAgent;
        usage = usage == null ? new UsageMeter() : usage;
        ledger = ledger == null ? CostLedger.unbounded(PriceTable.defaults()) : ledger;
    }

    /** With an unbounded ledger that nothing records into. */
    public ModelRoles(ChatModel optimizer, ChatModel target, Optional<ExecAgent> targetAgent, UsageMeter usage) {
        this(optimizer, target, targetAgent, usage, null);
    }

    public static ModelRoles of(ChatModel optimizer, ChatModel target) {
        return new ModelRoles(optimizer, target, Optional.empty(), new UsageMeter());
    }
}
