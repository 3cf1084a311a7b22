package io.skillopt4j.backend;

import java.util.Objects;

/**
 * Thread-safe. An {@link ExecAgent} decorator that prices each agent run into a {@link CostLedger} and, with a cap,
 * reserves an estimate first. An agent CLI runs many turns of its own, so unlike a chat call's this is no upper bound:
 * the cap holds between agent runs, not inside one.
 */
public final class BudgetedExecAgent implements ExecAgent {
    /** Output tokens assumed for one agent run when reserving (a chat call's default max_completion_tokens). */
    static final int OUTPUT_ESTIMATE = 16_384;

    private final ExecAgent delegate;
    private final CostLedger ledger;

    public BudgetedExecAgent(ExecAgent delegate, CostLedger ledger) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
    }

    @Override public ExecResult run(ExecTask task) {
        CostLedger.Reservation r = null;
        if (ledger.bounded()) { // a cap here, or an engine worker's share (CostReport)
            long in = CostLedger.bytes(task.prompt()) + CostLedger.bytes(task.skill()) + CostLedger.MESSAGE_TOKENS * 4L;
            for (String f : task.extraFiles().values()) in += CostLedger.bytes(f);
            r = ledger.reservePriced(ledger.prices().worstCase(delegate.model(), in, OUTPUT_ESTIMATE),
                    "exec agent model '" + delegate.model() + "'");
        }
        ExecResult res = ledger.releasedOnFailure(r, () -> delegate.run(task));
        // a CLI that reports its own cost (Claude Code's total_cost_usd) is charged that, not the table's rates
        ledger.settle(r, "target", "rollout", delegate.backend(), delegate.model(), new ChatResponse("", java.util.List.of(),
                res.usage(), res.latency(), delegate.model(), "", Billing.reported(res.reportedUsd())));
        return res;
    }

    public ExecAgent delegate() { return delegate; }

    @Override public String backend() { return delegate.backend(); }

    @Override public String model() { return delegate.model(); }

    @Override public String toString() { return "Budgeted[" + delegate + "]"; }
}
