package io.skillopt4j.backend;

import java.util.Objects;

/**
 * Thread-safe. A {@link ChatModel} decorator that prices every call into a {@link CostLedger}, reserving its worst case
 * first when the ledger has a cap; a failed call is not charged.
 *
 * <pre>{@code
 * CostLedger ledger = CostLedger.capped(PriceTable.defaults(), 5.00);
 * ChatModel m = new BudgetedChatModel(raw, "optimizer", ledger);
 * }</pre>
 */
public final class BudgetedChatModel implements ChatModel {
    private final ChatModel delegate;
    private final String role;
    private final CostLedger ledger;

    public BudgetedChatModel(ChatModel delegate, String role, CostLedger ledger) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.role = role == null || role.isBlank() ? "target" : role;
        this.ledger = Objects.requireNonNull(ledger, "ledger");
    }

    @Override public ChatResponse chat(ChatRequest request) {
        CostLedger.Reservation r = ledger.reserve(role, delegate.model(), request);
        ChatResponse reply = ledger.releasedOnFailure(r, () -> delegate.chat(request));
        // the configured model, not the reply's: providers answer with dated names the table may not list
        String priced = ledger.prices().find(delegate.model()) != null || reply.model().isEmpty() ? delegate.model() : reply.model();
        ledger.settle(r, role, request.stage(), delegate.backend(), priced, reply);
        return reply;
    }

    public ChatModel delegate() { return delegate; }

    public CostLedger ledger() { return ledger; }

    @Override public String backend() { return delegate.backend(); }

    @Override public String model() { return delegate.model(); }

    @Override public String toString() { return "Budgeted[" + delegate + "]"; }
}
