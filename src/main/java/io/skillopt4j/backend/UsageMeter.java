package io.skillopt4j.backend;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Thread-safe. Counts successful calls per role and stage (calls, prompt/completion/total/cached tokens,
 * latency). {@link #stageSummary()} has upstream's {@code token_summary} shape:
 * {@code {stage: {calls, prompt_tokens, completion_tokens, total_tokens}, "_total": {...}}}.
 * Also counts faults per role and stage ({@link #recordFault}): retries, give-ups, fast fails, fallbacks and
 * errored items, which {@link #faultSummary()} reports in the same stage → counts shape.
 */
public final class UsageMeter {
    /** Immutable. Totals of one (role, stage) cell. */
    public record Counts(long calls, long promptTokens, long completionTokens, long totalTokens, long cachedTokens, long latencyMillis) {
        Counts plus(Usage u, Duration latency) {
            return new Counts(calls + 1, promptTokens + u.promptTokens(), completionTokens + u.completionTokens(),
                    totalTokens + u.totalTokens(), cachedTokens + u.cachedTokens(), latencyMillis + latency.toMillis());
        }

        Counts plus(Counts o) {
            return new Counts(calls + o.calls, promptTokens + o.promptTokens, completionTokens + o.completionTokens,
                    totalTokens + o.totalTokens, cachedTokens + o.cachedTokens, latencyMillis + o.latencyMillis);
        }

        static final Counts ZERO = new Counts(0, 0, 0, 0, 0, 0);
    }

    /** Where calls of this thread (and of threads it starts) record instead; see {@link #heldIn}. */
    private static final InheritableThreadLocal<UsageMeter> HOLD = new InheritableThreadLocal<>();

    private final Map<String, Counts> cells = new TreeMap<>();
    private final Map<String, Counts> modelCells = new TreeMap<>();
    private final Map<String, Long> faults = new TreeMap<>();
    private final Map<String, Counts> hedges = new TreeMap<>();

    /** The fault kinds {@link #recordFault} accepts, in the order {@link #faultSummary} lists them. */
    public static final java.util.List<String> FAULT_KINDS = java.util.List.of("retries", "give_ups", "fast_fails", "fallbacks", "errored");

    /**
     * Runs {@code work} with every call it makes — on this thread and on threads started inside it, such as a
     * rollout's worker pool — recorded into {@code hold} instead of the model's meter; {@link #add} moves them
     * over later. The trainer's background rollouts use it so their calls count where upstream makes them,
     * not in whichever step happened to be running.
     */
    public static <T> T heldIn(UsageMeter hold, java.util.function.Supplier<T> work) {
        return io.skillopt4j.internal.ThreadScopes.with(HOLD, hold, work);
    }

    /** Records one successful call of {@code role} ("optimizer"/"target"/"judge") in {@code stage}. */
    public void record(String role, String stage, Usage usage, Duration latency) {
        UsageMeter hold = HOLD.get();
        (hold != null && hold != this ? hold : this).put(role, stage, null, usage, latency);
        journal(role, stage, usage, null);
    }

    /** Records one successful call and also keeps it per model, so a {@link PriceTable} can price it. */
    public void record(String role, String stage, String model, Usage usage, Duration latency) {
        record(role, stage, model, usage, latency, null);
    }

    /**
     * Records one successful call of {@code request} (kept per model, as above); with a journal attached, the request
     * names the result the call works for when no {@link #keyed} scope does.
     */
    public void record(String role, String stage, String model, Usage usage, Duration latency, ChatRequest request) {
        UsageMeter hold = HOLD.get();
        (hold != null && hold != this ? hold : this).put(role, stage, model == null ? "" : model, usage, latency);
        journal(role, stage, usage, request);
    }

    // ---- the run folder's token_usage.jsonl (see UsageJournal): what a resumed run's token_summary is built from

    /** This JVM's attempts are told apart from other sessions' by this prefix. */
    private static final String SESSION = Long.toHexString(new java.security.SecureRandom().nextLong());
    private static final java.util.concurrent.atomic.AtomicLong ATTEMPTS = new java.util.concurrent.atomic.AtomicLong();
    /**
     * The result (key) and attempt the calls of this thread work for. Not inherited: a pool thread first started inside
     * one item's scope would otherwise journal every later call it makes under that item.
     */
    private static final ThreadLocal<String[]> KEY = new ThreadLocal<>();

    private volatile UsageJournal journal;

    /**
     * Runs {@code work} (one attempt at the result named {@code key}, e.g. a rollout item's folder) with its calls
     * journaled under that key: a later attempt at the same key replaces this one's calls in {@link #keptStageSummary}.
     */
    public static <T> T keyed(String key, java.util.concurrent.Callable<T> work) throws Exception {
        return io.skillopt4j.internal.ThreadScopes.call(KEY, new String[] {key, SESSION + "-" + ATTEMPTS.incrementAndGet()}, work);
    }

    /**
     * Appends every later call to {@code file} (a run folder's {@link UsageJournal#FILE}; earlier sessions' lines are
     * kept), for {@link #keptStageSummary}; replaces a journal attached before.
     */
    public void attachJournal(Path file) {
        UsageJournal j = UsageJournal.open(file), old = journal;
        journal = j;
        if (old != null) old.close();
    }

    /** Closes the attached journal (the run has ended); later calls are counted in memory only. */
    public void detachJournal() {
        UsageJournal j = journal;
        journal = null;
        if (j != null) j.close();
    }

    private void journal(String role, String stage, Usage usage, ChatRequest request) {
        UsageJournal j = journal;
        if (j == null) return;
        String[] k = KEY.get();
        String key = k != null ? k[0] : request != null ? "request:" + stage + ":" + fingerprint(request) : null;
        j.append(key, k != null ? k[1] : null, role, stage, Counts.ZERO.plus(usage, Duration.ZERO));
    }

    /** SHA-256 over the request's messages (the key adds its stage): a call repeated after a kill sends the same request. */
    private static String fingerprint(ChatRequest r) {
        StringBuilder b = new StringBuilder();
        for (ChatMessage m : r.messages())
            b.append(m.role()).append('\u0000').append(m.content()).append('\u0000').append(m.toolCalls()).append('\u0000')
                    .append(m.toolCallId()).append('\u0001');
        return java.util.HexFormat.of().formatHex(io.skillopt4j.internal.Hashes.sha256(b.toString()), 0, 12);
    }

    /**
     * Upstream's token_summary (as {@link #stageSummary}) of the calls whose results the run kept, across sessions:
     * read from the attached journal, so a run killed and resumed reports an uninterrupted run's counts; without a
     * journal, this meter's own.
     */
    public Map<String, Object> keptStageSummary() {
        UsageJournal j = journal;
        if (j == null) return stageSummary();
        Map<String, Counts> byStage = new TreeMap<>();
        UsageJournal.kept(j.file()).forEach((k, v) -> byStage.merge(k.substring(k.indexOf('\u0000') + 1), v, Counts::plus));
        return summaryOf(byStage);
    }

    /**
     * Records one fault of {@code role} in {@code stage}: {@code kind} is one of {@link #FAULT_KINDS} — "retries"
     * (one more attempt of a call), "give_ups" (a call failed after its retries), "fast_fails" (a call failed at
     * once, without retrying), "fallbacks" (an answer replaced by a fallback), "errored" (an item or analyst call
     * recorded as errored). Like {@link #record}, counts into the meter this thread is held in.
     */
    public void recordFault(String role, String stage, String kind) {
        if (!FAULT_KINDS.contains(kind)) throw new IllegalArgumentException("unknown fault kind '" + kind + "'; allowed: " + FAULT_KINDS);
        UsageMeter hold = HOLD.get();
        UsageMeter into = hold != null && hold != this ? hold : this;
        synchronized (into) {
            into.faults.merge(role + "\u0000" + stage + "\u0000" + kind, 1L, Long::sum);
        }
    }

    /**
     * Records one hedged duplicate of a call of {@code role} in {@code stage} (charged as {@code usage}, the winning
     * reply's): kept apart from the calls, so upstream's token_summary counts each request once; see {@link #hedges()}.
     */
    public void recordHedge(String role, String stage, Usage usage) {
        UsageMeter hold = HOLD.get();
        UsageMeter into = hold != null && hold != this ? hold : this;
        synchronized (into) {
            into.hedges.merge(role + "\u0000" + stage, Counts.ZERO.plus(usage, Duration.ZERO), Counts::plus);
        }
    }

    /** Returns the hedged duplicates per "role/stage" key, sorted (empty when hedging is off). */
    public synchronized Map<String, Counts> hedges() {
        Map<String, Counts> out = new LinkedHashMap<>();
        hedges.forEach((k, v) -> out.put(k.replace('\u0000', '/'), v));
        return out;
    }

    /**
     * Returns fault counts per stage (roles summed) and {@code "_total"}: {@code {stage: {kind: n}}}, every kind
     * of {@link #FAULT_KINDS} present (0 when none), stages sorted; only {@code "_total"} when nothing faulted.
     */
    public Map<String, Map<String, Long>> faultSummary() {
        Map<String, Long> f;
        synchronized (this) {
            f = new TreeMap<>(faults);
        }
        Map<String, Map<String, Long>> stages = new TreeMap<>();
        Map<String, Long> total = zeroFaults();
        f.forEach((k, n) -> {
            String[] p = k.split("\u0000", -1);
            stages.computeIfAbsent(p[1], s -> zeroFaults()).merge(p[2], n, Long::sum);
            total.merge(p[2], n, Long::sum);
        });
        Map<String, Map<String, Long>> out = new LinkedHashMap<>(stages);
        out.put("_total", total);
        return out;
    }

    private static Map<String, Long> zeroFaults() {
        Map<String, Long> m = new LinkedHashMap<>();
        FAULT_KINDS.forEach(k -> m.put(k, 0L));
        return m;
    }

    private synchronized void put(String role, String stage, String model, Usage usage, Duration latency) {
        Counts one = Counts.ZERO.plus(usage, latency == null ? Duration.ZERO : latency);
        cells.merge(role + "\u0000" + stage, one, Counts::plus);
        if (model != null) modelCells.merge(role + "\u0000" + stage + "\u0000" + model, one, Counts::plus);
    }

    /** Adds everything {@code other} counted to this meter (and leaves {@code other} empty). */
    public void add(UsageMeter other) {
        Map<String, Counts> c, m, h;
        Map<String, Long> f;
        synchronized (other) {
            c = new TreeMap<>(other.cells);
            m = new TreeMap<>(other.modelCells);
            f = new TreeMap<>(other.faults);
            h = new TreeMap<>(other.hedges);
            other.cells.clear();
            other.modelCells.clear();
            other.faults.clear();
            other.hedges.clear();
        }
        synchronized (this) {
            c.forEach((k, v) -> cells.merge(k, v, Counts::plus));
            m.forEach((k, v) -> modelCells.merge(k, v, Counts::plus));
            f.forEach((k, v) -> faults.merge(k, v, Long::sum));
            h.forEach((k, v) -> hedges.merge(k, v, Counts::plus));
        }
    }

    /**
     * Adds everything {@code other} counted (leaving it empty) to this meter, or — as {@link #record} does — to the
     * meter this thread is held in: an execution engine replays its workers' calls through here. Journaled without a
     * key: these calls always count in {@link #keptStageSummary}.
     */
    public void absorb(UsageMeter other) { absorb(other, null, null); }

    /** As {@link #absorb(UsageMeter)}, for the calls of one remote model call of {@code request}: journaled as a local call is. */
    public void absorb(UsageMeter other, ChatRequest request) {
        absorb(other, "request:" + request.stage() + ":" + fingerprint(request), null);
    }

    /**
     * As {@link #absorb(UsageMeter)}, for the calls of one remote rollout item whose files go to {@code itemDir}: journaled
     * under that folder as a new attempt, as a local item's calls are (a result read again after a resume counts once).
     */
    public void absorbItem(UsageMeter other, Path itemDir) {
        absorb(other, itemDir.toAbsolutePath().normalize().toString(), SESSION + "-" + ATTEMPTS.incrementAndGet());
    }

    private void absorb(UsageMeter other, String key, String attempt) {
        UsageJournal j = journal;
        if (j != null) { // calls made on other machines: journaled as they arrive
            Map<String, Counts> c;
            synchronized (other) {
                c = new TreeMap<>(other.cells);
            }
            c.forEach((k, v) -> j.append(key, attempt, k.substring(0, k.indexOf('\u0000')), k.substring(k.indexOf('\u0000') + 1), v));
        }
        UsageMeter hold = HOLD.get();
        (hold != null && hold != this ? hold : this).add(other);
    }

    /**
     * Returns this meter's cells as JSON-ready data ({@code cells}, {@code models}: key → six counts; {@code faults}:
     * key → count), for {@link #fromJson}.
     */
    public synchronized Map<String, Object> toJson() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("cells", countsJson(cells));
        out.put("models", countsJson(modelCells));
        out.put("faults", new LinkedHashMap<>(faults));
        if (!hedges.isEmpty()) out.put("hedges", countsJson(hedges));
        return out;
    }

    /** Returns a meter holding the cells of {@link #toJson} output (another JVM's calls). */
    public static UsageMeter fromJson(Map<String, ?> json) {
        UsageMeter m = new UsageMeter();
        readCounts(json.get("cells"), m.cells);
        readCounts(json.get("models"), m.modelCells);
        readCounts(json.get("hedges"), m.hedges);
        if (json.get("faults") instanceof Map<?, ?> f)
            f.forEach((k, v) -> { if (v instanceof Number n) m.faults.put(String.valueOf(k), n.longValue()); });
        return m;
    }

    private static Map<String, Object> countsJson(Map<String, Counts> cells) {
        Map<String, Object> out = new LinkedHashMap<>();
        cells.forEach((k, c) -> out.put(k, java.util.List.of(c.calls(), c.promptTokens(), c.completionTokens(), c.totalTokens(),
                c.cachedTokens(), c.latencyMillis())));
        return out;
    }

    private static void readCounts(Object json, Map<String, Counts> into) {
        if (!(json instanceof Map<?, ?> m)) return;
        m.forEach((k, v) -> {
            if (!(v instanceof java.util.List<?> l) || l.size() != 6) return;
            long[] n = new long[6];
            for (int i = 0; i < 6; i++) n[i] = l.get(i) instanceof Number x ? x.longValue() : 0;
            into.put(String.valueOf(k), new Counts(n[0], n[1], n[2], n[3], n[4], n[5]));
        });
    }

    /** Returns totals per "role/stage/model" key (calls recorded with a model), sorted. */
    public synchronized Map<String, Counts> byRoleStageAndModel() {
        Map<String, Counts> out = new LinkedHashMap<>();
        modelCells.forEach((k, v) -> out.put(k.replace('\u0000', '/'), v));
        return out;
    }

    /** Returns totals per "role/stage" key, sorted. */
    public synchronized Map<String, Counts> byRoleAndStage() {
        Map<String, Counts> out = new LinkedHashMap<>();
        cells.forEach((k, v) -> out.put(k.replace('\u0000', '/'), v));
        return out;
    }

    /** Returns totals per stage (roles summed), sorted by stage. */
    public synchronized Map<String, Counts> byStage() {
        Map<String, Counts> out = new TreeMap<>();
        cells.forEach((k, v) -> out.merge(k.substring(k.indexOf('\u0000') + 1), v, Counts::plus));
        return out;
    }

    /** Returns upstream's token_summary map (stages plus "_total"). */
    public Map<String, Object> stageSummary() {
        return summaryOf(byStage());
    }

    private static Map<String, Object> summaryOf(Map<String, Counts> byStage) {
        Map<String, Object> out = new LinkedHashMap<>();
        Counts total = Counts.ZERO;
        for (Map.Entry<String, Counts> e : byStage.entrySet()) {
            Counts c = e.getValue();
            total = total.plus(c);
            out.put(e.getKey(), tokenMap(c, true));
        }
        out.put("_total", tokenMap(total, true));
        return out;
    }

    /** Returns {calls, prompt_tokens, completion_tokens[, total_tokens]} for one cell. */
    public static Map<String, Object> tokenMap(Counts c, boolean withTotal) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("calls", c.calls());
        m.put("prompt_tokens", c.promptTokens());
        m.put("completion_tokens", c.completionTokens());
        if (withTotal) m.put("total_tokens", c.totalTokens());
        return m;
    }
}
