package io.skillopt4j.backend;

import java.util.Objects;
import java.util.Optional;

/**
 * Immutable. The models a run uses: the optimizer (reflects, merges, ranks, rewrites) and the target (runs
 * tasks with the skill). When the target backend is an exec agent, {@link #targetAgent()} is present and
 * benchmarks run tasks through it; {@link #target()} is then the same agent seen as a chat model.
 * All calls are metered into {@link #usage()}; {@link #ledger()} prices them (and holds the run's dollar cap
 * when the models were wrapped in {@link BudgetedChatModel}, as {@link Backends#roles} does).
 */
public record ModelRoles(ChatModel optimizer, ChatModel target, Optional<ExecAgent> targetAgent, UsageMeter usage, CostLedger ledger) {
    public ModelRoles {
        Objects.requireNonNull(optimizer, "optimizer");
        Objects.requireNonNull(target, "target");
        targetAgent = targetAgent == null ? Optional.empty() : targetAgent;
        usage = usage == null ? new UsageMeter() : usage;
        ledger = ledger == null ? CostLedger.unbounded(PriceTable.defaults()) : ledger;
    }

    /** Roles without a ledger of their own (an unbounded one that nothing records into). */
    public ModelRoles(ChatModel optimizer, ChatModel target, Optional<ExecAgent> targetAgent, UsageMeter usage) {
        this(optimizer, target, targetAgent, usage, null);
    }

    /** Returns roles with two chat models and a fresh meter. */
    public static ModelRoles of(ChatModel optimizer, ChatModel target) {
        return new ModelRoles(optimizer, target, Optional.empty(), new UsageMeter());
    }
}
