package io.skillopt4j.backend;

/**
 * Immutable. How a reply is to be charged, beyond its token counts: {@code reportedUsd} is the cost the
 * provider reported itself (Claude Code's {@code total_cost_usd}; null when not reported), {@code replayed}
 * marks a reply served from the local response cache (costs nothing), {@code batch} a reply that came through
 * a provider's Batch API (priced at the model's batch rate), {@code hedges} the duplicates of the call that were
 * sent as hedged requests (each charged like the reply, under the stage {@code <stage>:hedge}).
 */
public record Billing(Double reportedUsd, boolean replayed, boolean batch, int hedges) {
    /** A billing without hedged duplicates. */
    public Billing(Double reportedUsd, boolean replayed, boolean batch) { this(reportedUsd, replayed, batch, 0); }

    /** A reply from a normal, paid call. */
    public static final Billing DIRECT = new Billing(null, false, false);
    /** A reply replayed from the response cache. */
    public static final Billing REPLAYED = new Billing(null, true, false);
    /** A reply from a provider batch. */
    public static final Billing BATCH = new Billing(null, false, true);

    /** Returns a direct-call billing with a provider-reported cost (null = not reported). */
    public static Billing reported(Double usd) { return usd == null ? DIRECT : new Billing(usd, false, false); }

    /** Returns this billing with {@code n} hedged duplicates. */
    public Billing withHedges(int n) { return n == hedges ? this : new Billing(reportedUsd, replayed, batch, n); }
}
