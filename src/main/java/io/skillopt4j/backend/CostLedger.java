package io.skillopt4j.backend;

import io.skillopt4j.config.Setting;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.skillopt4j.BudgetExceeded;
import io.skillopt4j.ConfigException;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Decimals;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Thread-safe. The cost ledger of a run: every model call priced by {@link PriceTable} (batch rate for Batch API
 * calls), at the provider's own figure where it reports one, 0 when replayed from the response cache, and
 * <em>unpriced</em> (usd null, never 0) for a model without a price.
 *
 * <p><b>Hard cap.</b> {@link #reserve} holds each call's worst case before it is sent; a call that does not fit waits
 * for calls in flight and, when none are left, throws {@link BudgetExceeded}, which every later call rethrows. So the
 * charged total never exceeds the cap unless a provider reports more than its price table allows. Calls run on engine
 * workers are reserved here too and charged when their {@link CostReport} comes back.
 */
public final class CostLedger {
    /**
     * Immutable. One priced call. {@code pricing}: table, reported, replayed or unpriced; usd null when unpriced.
     * As a cost_ledger.jsonl line: {@code calls} first and only when not 1 (a merged line), then the components.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder("calls")
    public record Entry(String phase, String role, String stage, String backend, String model, long promptTokens,
                        long cachedTokens, long cacheWriteTokens, long completionTokens, boolean batch, String pricing, Double usd,
                        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = OneCall.class) long calls) {
        public Entry(String phase, String role, String stage, String backend, String model, long promptTokens, long cachedTokens,
                     long cacheWriteTokens, long completionTokens, boolean batch, String pricing, Double usd) {
            this(phase, role, stage, backend, model, promptTokens, cachedTokens, cacheWriteTokens, completionTokens, batch, pricing, usd, 1);
        }

        public static Entry fromJson(Map<String, Object> m) {
            return new Entry(str(m, "phase"), str(m, "role"), str(m, "stage"), str(m, "backend"), str(m, "model"),
                    num(m, "prompt_tokens"), num(m, "cached_tokens"), num(m, "cache_write_tokens"), num(m, "completion_tokens"),
                    Boolean.TRUE.equals(m.get("batch")), str(m, "pricing"), m.get("usd") instanceof Number n ? n.doubleValue() : null,
                    m.get("calls") instanceof Number c ? c.longValue() : 1);
        }

        private static String str(Map<String, Object> m, String k) { return m.get(k) == null ? "" : String.valueOf(m.get(k)); }

        private static long num(Map<String, Object> m, String k) { return m.get(k) instanceof Number n ? n.longValue() : 0; }

        /** The same text as {@code Json.line(entry)}, built by hand so the first call does not wait for Jackson's introspection. */
        public String line() {
            Map<String, Object> m = calls == 1 ? new java.util.LinkedHashMap<>() : Json.obj("calls", calls);
            return Json.line(Json.put(m, "phase", phase, "role", role, "stage", stage, "backend", backend, "model", model,
                    "prompt_tokens", promptTokens, "cached_tokens", cachedTokens, "cache_write_tokens", cacheWriteTokens,
                    "completion_tokens", completionTokens, "batch", batch, "pricing", pricing, "usd", usd));
        }

        /** Jackson's filter for {@code calls}: a single call (the usual line) leaves the field out. */
        static final class OneCall {
            @Override public boolean equals(Object o) { return o instanceof Number n && n.longValue() == 1; }

            @Override public int hashCode() { return 1; }
        }
    }

    /** Immutable. What {@link #reserve} holds for one call until {@link #settle} or {@link #release}. */
    public record Reservation(double usd) {}

    /** Tokens assumed per image: above what OpenAI and Anthropic charge. */
    static final int IMAGE_TOKENS = 2_000;
    /** Framing tokens assumed per message; providers use 3-4. */
    static final int MESSAGE_TOKENS = 16;

    private final PriceTable prices;
    private final Double cap;
    private final List<Entry> entries = new ArrayList<>();
    private double spent;
    private double reserved;
    private int inFlight;
    private BudgetExceeded exhausted;
    private Path file;
    private FileChannel out;
    private volatile String phase = "";

    private CostLedger(PriceTable prices, Double cap) {
        this.prices = Objects.requireNonNull(prices, "prices");
        if (cap != null && !(cap > 0)) throw ConfigException.badValue("", "budget_usd", cap, "a number of US dollars > 0");
        this.cap = cap;
    }

    public static CostLedger unbounded(PriceTable prices) { return new CostLedger(prices, null); }

    public static CostLedger capped(PriceTable prices, double maxUsd) { return new CostLedger(prices, maxUsd); }

    /** Returns the ledger of a flat config: {@link PriceTable#from} prices and {@code budget_usd} (unset or 0 = no cap). */
    public static CostLedger from(io.skillopt4j.config.FlatConfig cfg) {
        PriceTable p = PriceTable.from(cfg);
        Object v = Setting.value("budget_usd").in(cfg).orElse(null); // blank counts as unset
        if (v == null) return unbounded(p);
        double d;
        try {
            d = v instanceof Number n ? n.doubleValue() : Double.parseDouble(String.valueOf(v).trim());
        } catch (NumberFormatException e) {
            d = Double.NaN;
        }
        if (!(d >= 0)) throw ConfigException.badValue("", "budget_usd", v, "a number of US dollars > 0 (0 = no cap)");
        return d == 0 ? unbounded(p) : capped(p, d);
    }

    public PriceTable prices() { return prices; }

    /** The cap in USD, or null. */
    public Double cap() { return cap; }
    /** USD charged so far, including earlier sessions of an attached run folder. */
    public synchronized double spent() { return spent; }
    public synchronized double reserved() { return reserved; }
    /** The cap minus what was spent (null without a cap). */
    public synchronized Double left() { return cap == null ? null : Math.max(0, cap - spent); }
    public synchronized List<Entry> entries() { return List.copyOf(entries); }
    /** The stop raised by the cap, or null while the run may still spend. */
    public synchronized BudgetExceeded exhausted() { return exhausted; }

    /** Names the phase later calls are recorded under (baseline, train, slow_update, meta_skill, test...). */
    public void phase(String p) { this.phase = p == null ? "" : p; }

    private static final InheritableThreadLocal<String> PHASE = new InheritableThreadLocal<>();

    /** Runs {@code work} with its calls (and its threads') recorded under {@code phase}: background rollouts count where
     *  they belong while the trainer is in another phase. */
    public static <T> T inPhase(String phase, java.util.function.Supplier<T> work) {
        return io.skillopt4j.internal.ThreadScopes.with(PHASE, phase, work);
    }

    /** Binds the ledger to a run folder's cost_ledger.jsonl: its entries count towards the cap (a torn last line is
     *  skipped) and new entries are appended to it. */
    public synchronized void attach(Path file) {
        if (file.equals(this.file)) { closeFile(); return; } // reopened by path at the next entry
        List<Entry> loaded = new ArrayList<>();
        for (Map<String, Object> line : Json.readObjectLines(file)) {
            try {
                loaded.add(Entry.fromJson(line));
            } catch (RuntimeException torn) {
                // a line cut by a kill mid-append; its call is not counted (at most one call)
            }
        }
        FileChannel opened;
        try {
            opened = openForAppends(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file + ": " + e.getMessage(), e);
        }
        closeFile();
        this.file = file;
        this.out = opened;
        for (Entry e : entries) append(e); // calls made before attaching
        entries.addAll(0, loaded);
        for (Entry e : loaded) if (e.usd() != null) spent += e.usd();
    }

    /** Closes cost_ledger.jsonl; a later entry reopens it (for a ledger that outlives its run folder). */
    public synchronized void closeFile() {
        if (out == null) return;
        try {
            out.close();
        } catch (IOException ignored) {
            // nothing was buffered: every line was written whole when it was recorded
        }
        out = null;
    }

    /** The caller holds this ledger's lock. */
    private void append(Entry e) {
        if (file == null) return;
        ByteBuffer b = ByteBuffer.wrap((e.line() + "\n").getBytes(StandardCharsets.UTF_8));
        try {
            if (out == null || !out.isOpen()) out = openForAppends(file);
            while (b.hasRemaining()) out.write(b);
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot append to " + file + ": " + ex.getMessage(), ex);
        }
    }

    private static FileChannel openForAppends(Path file) throws IOException {
        return AtomicFiles.inFolder(file.toAbsolutePath().getParent(),
                () -> FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND));
    }

    /** Holds the worst case of {@code request} on {@code model}; blocks while calls in flight may still free room. */
    public Reservation reserve(String role, String model, ChatRequest request) {
        if (!bounded()) return new Reservation(0);
        return reservePriced(prices.worstCase(model, promptTokensUpperBound(request), request.maxCompletionTokens()),
                "model '" + model + "' (" + role + ")");
    }

    /** Holds {@code worstUsd}, the worst case of a call of {@code what}: null (unpriced) cannot be held under a cap. */
    Reservation reservePriced(Double worstUsd, String what) {
        if (worstUsd == null) throw new ConfigException("budget_usd is set but " + what + " has no price: add it to model.price_table");
        return reserve(worstUsd.doubleValue());
    }

    /** A cap here, or a capped {@link CostReport} grant on this thread: calls must be reserved. */
    public boolean bounded() { return cap != null || CostReport.current() != null && CostReport.current().cap() != null; }

    public Reservation reserve(double worstUsd) {
        CostReport grant = CostReport.current();
        return grant != null ? grant.reserve(worstUsd) : reserveHere(worstUsd);
    }

    private synchronized Reservation reserveHere(double worstUsd) {
        if (cap == null) return new Reservation(0);
        while (true) {
            if (exhausted != null) throw exhausted;
            if (spent + reserved + worstUsd <= cap) {
                reserved += worstUsd;
                inFlight++;
                return new Reservation(worstUsd);
            }
            if (inFlight == 0) throw exhaust(worstUsd);
            awaitSettled();
        }
    }

    /** Frees a failed call's reservation (a failed call is not charged). */
    public void release(Reservation r) {
        CostReport grant = CostReport.current();
        if (grant != null) grant.release(r);
        else releaseHere(r);
    }

    /** What {@code call} returns; when it fails, {@code r} is released (a failed call is not charged) and the failure rethrown. */
    <T> T releasedOnFailure(Reservation r, java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException | Error e) {
            release(r);
            throw e;
        }
    }

    private synchronized void releaseHere(Reservation r) {
        if (cap == null || r == null) return;
        reserved = Math.max(0, reserved - r.usd());
        inFlight--;
        notifyAll();
    }

    public Entry settle(Reservation r, String role, String stage, String backend, String model, ChatResponse reply) {
        Usage u = reply.usage();
        Billing b = reply.billing();
        Double usd = b.replayed() ? Double.valueOf(0) : b.reportedUsd() != null ? b.reportedUsd() : prices.usd(model, u, b.batch());
        String pricing = b.replayed() ? "replayed" : b.reportedUsd() != null ? "reported" : usd == null ? "unpriced" : "table";
        Entry e = new Entry(currentPhase(), role, stage, backend, model, u.promptTokens(), u.cachedTokens(), u.cacheWriteTokens(),
                u.completionTokens(), b.batch(), pricing, usd);
        // hedged duplicates: charged like the reply (a cancelled call may still be billed), on a line of their own
        Entry hedge = b.hedges() <= 0 ? null : new Entry(e.phase(), role, stage + ":hedge", backend, model, u.promptTokens() * b.hedges(),
                u.cachedTokens() * b.hedges(), u.cacheWriteTokens() * b.hedges(), u.completionTokens() * b.hedges(), b.batch(), pricing,
                usd == null ? null : usd * b.hedges(), b.hedges());
        CostReport grant = CostReport.current(); // a worker's call: reported with its activity's result
        java.util.function.BiConsumer<Reservation, Entry> sink = grant != null ? grant::settle : this::charge;
        sink.accept(r, e);
        if (hedge != null) sink.accept(null, hedge);
        return e;
    }

    String currentPhase() { return PHASE.get() != null ? PHASE.get() : phase; }

    /** Records {@code e} as charged and frees {@code r} (null: nothing was held). */
    synchronized void charge(Reservation r, Entry e) {
        releaseHere(r);
        if (e.usd() != null) spent += e.usd();
        entries.add(e);
        append(e);
        notifyAll();
    }

    /**
     * Holds the room left under the cap for up to {@code n} items sent to engine workers, in as many equal shares of at
     * least {@code minUsd} as fit; waits like {@link #reserve}. Without a cap, {@code n} empty reservations.
     */
    public synchronized List<Reservation> reserveShares(int n, double minUsd) {
        List<Reservation> out = new ArrayList<>();
        while (cap != null) {
            if (exhausted != null) throw exhausted;
            double room = cap - spent - reserved;
            int k = minUsd > 0 ? (int) Math.min(n, Math.floor(room / minUsd)) : room > 0 ? n : 0;
            if (k > 0) {
                reserved += room;
                inFlight += k;
                for (int i = 0; i < k; i++) out.add(new Reservation(room / k));
                return out;
            }
            if (inFlight == 0) throw exhaust(minUsd);
            awaitSettled();
        }
        for (int i = 0; i < n; i++) out.add(new Reservation(0));
        return out;
    }

    private void awaitSettled() {
        try {
            wait();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new io.skillopt4j.BackendException.NonRetriable("budget", 0, "interrupted while waiting for budget room", e);
        }
    }

    /** Marks the run out of budget; returns the stop later calls rethrow. */
    public synchronized BudgetExceeded exhaust(double worstUsd) {
        if (exhausted == null) exhausted = new BudgetExceeded(spent, worstUsd, cap == null ? 0 : cap);
        notifyAll();
        return exhausted;
    }

    /** An upper bound of the prompt tokens of {@code r}: UTF-8 bytes of every text (a BPE token is at least one byte). */
    public static long promptTokensUpperBound(ChatRequest r) {
        long n = 0;
        for (ChatMessage m : r.messages()) {
            n += MESSAGE_TOKENS + bytes(m.content()) + (long) IMAGE_TOKENS * m.imageUrls().size();
            for (ToolCall c : m.toolCalls()) n += bytes(c.name()) + bytes(c.argumentsJson()) + MESSAGE_TOKENS;
        }
        for (ToolSpec t : r.tools()) n += bytes(t.name()) + bytes(t.description()) + bytes(Json.compact(t.parameters())) + MESSAGE_TOKENS;
        return n;
    }

    static long bytes(String s) { return s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length; }

    /** {@code $0.0123 spent, $0.0077 left of $0.0200}, in Locale.ROOT. */
    public synchronized String progressLine() {
        return cap == null ? "$" + Decimals.fixed(spent, 4) + " spent"
                : "$" + Decimals.fixed(spent, 4) + " spent, $" + Decimals.fixed(Math.max(0, cap - spent), 4) + " left of $" + Decimals.fixed(cap, 4);
    }

    @Override public synchronized String toString() {
        return "CostLedger[" + progressLine() + ", calls=" + entries.size() + (file == null ? "" : ", file=" + file) + "]";
    }
}
