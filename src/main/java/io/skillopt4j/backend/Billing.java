package io.skillopt4j.backend;

/**
 * Immutable. How a reply is to be charged, beyond its token counts: the cost the provider reported itself (null
 * when not), replayed from the response cache (free), through a Batch API (batch rate), and the hedges sent.
 */
public record Billing(Double reportedUsd, boolean replayed, boolean batch, int hedges) {
    public static final Billing DIRECT = new Billing(null, false, false, 0);
    public static final Billing REPLAYED = new Billing(null, true, false, 0);
    public static final Billing BATCH = new Billing(null, false, true, 0);

    /** A direct-call billing with a provider-reported cost (null = not reported). */
    public static Billing reported(Double usd) { return usd == null ? DIRECT : new Billing(usd, false, false, 0); }

    public Billing withHedges(int n) { return n == hedges ? this : new Billing(reportedUsd, replayed, batch, n); }
}
