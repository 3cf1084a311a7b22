package io.skillopt4j.backend;

import io.skillopt4j.BudgetExceeded;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Thread-safe. The calls one engine activity makes on a worker machine, for the coordinator's {@link CostLedger}: inside
 * {@link #during}, budgeted calls are reserved against this report's cap (the share the coordinator reserved) and
 * kept here; they travel back with the result and are charged by {@link #chargeTo}, so the run's dollar cap and
 * {@code cost_ledger.jsonl} cover every worker.
 *
 * <pre>{@code
 * CostReport report = new CostReport(grantUsd);                 // worker: the share sent with the activity
 * String result = CostReport.during(report, () -> runActivity());
 * CostReport.chargeTo(ledger, reservation, report.toJson());    // coordinator: with the activity's result
 * }</pre>
 */
public final class CostReport {
    private static final InheritableThreadLocal<CostReport> CURRENT = new InheritableThreadLocal<>();
    /** The worker prices the same request as the coordinator did, to the last bit or so. */
    private static final double SLACK = 1e-9;

    private final Double cap;
    private final List<CostLedger.Entry> entries = new ArrayList<>();
    private double used;
    private double held;
    private double needed;

    /** A report whose calls may cost at most {@code capUsd} in all (null: no cap, entries are only collected). */
    public CostReport(Double capUsd) { this.cap = capUsd; }

    /** Runs {@code work} with its calls (and its threads') reserved against and kept in {@code report}. */
    public static <T> T during(CostReport report, Supplier<T> work) {
        return io.skillopt4j.internal.ThreadScopes.with(CURRENT, report, work);
    }

    /** The report this thread's calls go to, or null (calls go to the model's own ledger). */
    static CostReport current() { return CURRENT.get(); }

    public Double cap() { return cap; }

    synchronized CostLedger.Reservation reserve(double worstUsd) {
        if (cap == null) return new CostLedger.Reservation(0);
        if (used + held + worstUsd > cap * (1 + SLACK)) {
            needed = Math.max(needed, used + held + worstUsd);
            throw new BudgetExceeded(used, worstUsd, cap);
        }
        held += worstUsd;
        return new CostLedger.Reservation(worstUsd);
    }

    synchronized void release(CostLedger.Reservation r) {
        if (cap != null && r != null) held = Math.max(0, held - r.usd());
    }

    synchronized void settle(CostLedger.Reservation r, CostLedger.Entry e) {
        release(r);
        if (e.usd() != null) used += e.usd();
        entries.add(e);
    }

    /** What the activity needed when a call did not fit (0 when every call fitted): a share sent again must be this large. */
    public synchronized double needed() { return needed; }

    public synchronized List<CostLedger.Entry> entries() { return List.copyOf(entries); }

    /** The entries as JSON-ready maps (their cost_ledger.jsonl fields). */
    public synchronized List<Map<String, Object>> toJson() {
        return entries.stream().map(e -> io.skillopt4j.internal.Json.parseObject(e.line())).toList();
    }

    /** Charges {@link #toJson} output (null: none) to {@code ledger} under this thread's phase, as if the calls had been
     *  made here, and frees {@code r}, the share reserved for them. */
    public static void chargeTo(CostLedger ledger, CostLedger.Reservation r, List<Map<String, Object>> reported) {
        List<Map<String, Object>> all = reported == null ? List.of() : reported;
        String phase = ledger.currentPhase();
        for (int i = 0; i < all.size(); i++) {
            CostLedger.Entry e = CostLedger.Entry.fromJson(all.get(i));
            ledger.charge(i == 0 ? r : null, new CostLedger.Entry(phase, e.role(), e.stage(), e.backend(), e.model(), e.promptTokens(),
                    e.cachedTokens(), e.cacheWriteTokens(), e.completionTokens(), e.batch(), e.pricing(), e.usd(), e.calls()));
        }
        if (all.isEmpty()) ledger.release(r);
    }
}
