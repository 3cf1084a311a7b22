package io.skillopt4j.backend;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Thread-safe. Counts successful calls (tokens, latency) and faults per role and stage; {@link #stageSummary()} has
 * upstream's {@code token_summary} shape, {@link #faultSummary()} the same stage → counts shape.
 */
public final class UsageMeter {
    /** Immutable. Totals of one cell. */
    public record Counts(long calls, long promptTokens, long completionTokens, long totalTokens, long cachedTokens, long latencyMillis) {
        Counts plus(Usage u, Duration latency) {
            return plus(new Counts(1, u.promptTokens(), u.completionTokens(), u.totalTokens(), u.cachedTokens(), latency.toMillis()));
        }

        Counts plus(Counts o) {
            return new Counts(calls + o.calls, promptTokens + o.promptTokens, completionTokens + o.completionTokens,
                    totalTokens + o.totalTokens, cachedTokens + o.cachedTokens, latencyMillis + o.latencyMillis);
        }

        static final Counts ZERO = new Counts(0, 0, 0, 0, 0, 0);
    }

    private static final InheritableThreadLocal<UsageMeter> HOLD = new InheritableThreadLocal<>();

    private final Map<String, Counts> cells = new TreeMap<>();
    private final Map<String, Counts> modelCells = new TreeMap<>();
    private final Map<String, Long> faults = new TreeMap<>();
    private final Map<String, Counts> hedges = new TreeMap<>();

    /** The fault kinds {@link #recordFault} accepts, in the order {@link #faultSummary} lists them. */
    public static final java.util.List<String> FAULT_KINDS = java.util.List.of("retries", "give_ups", "fast_fails", "fallbacks", "errored");

    /**
     * Runs {@code work} with every call it makes (and its threads make) recorded into {@code hold} instead of the
     * model's meter, for {@link #add} later: background rollouts count where upstream makes them, not in whichever
     * step happened to be running.
     */
    public static <T> T heldIn(UsageMeter hold, java.util.function.Supplier<T> work) {
        return io.skillopt4j.internal.ThreadScopes.with(HOLD, hold, work);
    }

    /** Records one successful call of {@code role} ("optimizer"/"target"/"judge") in {@code stage}. */
    public void record(String role, String stage, Usage usage, Duration latency) {
        into().put(role, stage, null, usage, latency);
        journal(role, stage, usage, null);
    }

    /** Also keeps the call per model, so a {@link PriceTable} can price it. */
    public void record(String role, String stage, String model, Usage usage, Duration latency) {
        record(role, stage, model, usage, latency, null);
    }

    /** With a journal attached, {@code request} names the result the call works for when no {@link #keyed} scope does. */
    public void record(String role, String stage, String model, Usage usage, Duration latency, ChatRequest request) {
        into().put(role, stage, model == null ? "" : model, usage, latency);
        journal(role, stage, usage, request);
    }

    /** The meter this thread is held in ({@link #heldIn}), else this one. */
    private UsageMeter into() {
        UsageMeter hold = HOLD.get();
        return hold != null && hold != this ? hold : this;
    }

    /** Tells this JVM's attempts apart from other sessions'. */
    private static final String SESSION = Long.toHexString(new java.security.SecureRandom().nextLong());
    private static final java.util.concurrent.atomic.AtomicLong ATTEMPTS = new java.util.concurrent.atomic.AtomicLong();
    /** The result (key) and attempt this thread's calls work for. Not inherited: a pool thread first started inside
     *  one item's scope would otherwise journal every later call under that item. */
    private static final ThreadLocal<String[]> KEY = new ThreadLocal<>();

    private volatile UsageJournal journal;

    /** Runs one attempt at the result named {@code key} (e.g. an item's folder): a later attempt at it replaces this
     *  one's calls in {@link #keptStageSummary}. */
    public static <T> T keyed(String key, java.util.concurrent.Callable<T> work) throws Exception {
        return io.skillopt4j.internal.ThreadScopes.call(KEY, new String[] {key, SESSION + "-" + ATTEMPTS.incrementAndGet()}, work);
    }

    /** Appends every later call to {@code file} (a run folder's {@link UsageJournal#FILE}), replacing an earlier journal. */
    public void attachJournal(Path file) { swapJournal(UsageJournal.open(file)); }

    /** Later calls are counted in memory only. */
    public void detachJournal() { swapJournal(null); }

    private void swapJournal(UsageJournal next) {
        UsageJournal old = journal;
        journal = next;
        if (old != null) old.close();
    }

    private void journal(String role, String stage, Usage usage, ChatRequest request) {
        UsageJournal j = journal;
        if (j == null) return;
        String[] k = KEY.get();
        String key = k != null ? k[0] : request != null ? "request:" + stage + ":" + fingerprint(request) : null;
        j.append(key, k != null ? k[1] : null, role, stage, Counts.ZERO.plus(usage, Duration.ZERO));
    }

    /** SHA-256 over the request's messages: a call repeated after a kill sends the same request. */
    private static String fingerprint(ChatRequest r) {
        StringBuilder b = new StringBuilder();
        for (ChatMessage m : r.messages())
            b.append(m.role()).append('\u0000').append(m.content()).append('\u0000').append(m.toolCalls()).append('\u0000')
                    .append(m.toolCallId()).append('\u0001');
        return java.util.HexFormat.of().formatHex(io.skillopt4j.internal.Hashes.sha256(b.toString()), 0, 12);
    }

    /** {@link #stageSummary} of the calls whose results the run kept, across sessions, from the attached journal: a run
     *  killed and resumed reports an uninterrupted run's counts. Without a journal, this meter's own. */
    public Map<String, Object> keptStageSummary() {
        UsageJournal j = journal;
        return j == null ? stageSummary() : summaryOf(byStage(UsageJournal.kept(j.file())));
    }

    /** Records one fault; {@code kind} is one of {@link #FAULT_KINDS}. Counts into the meter this thread is held in. */
    public void recordFault(String role, String stage, String kind) {
        if (!FAULT_KINDS.contains(kind)) throw new IllegalArgumentException("unknown fault kind '" + kind + "'; allowed: " + FAULT_KINDS);
        UsageMeter into = into();
        synchronized (into) {
            into.faults.merge(role + "\u0000" + stage + "\u0000" + kind, 1L, Long::sum);
        }
    }

    /** Records one hedged duplicate (charged as the winning reply's {@code usage}) apart from the calls, so upstream's
     *  token_summary counts each request once. */
    public void recordHedge(String role, String stage, Usage usage) {
        UsageMeter into = into();
        synchronized (into) {
            into.hedges.merge(role + "\u0000" + stage, Counts.ZERO.plus(usage, Duration.ZERO), Counts::plus);
        }
    }

    /** The hedged duplicates per "role/stage" key, sorted. */
    public synchronized Map<String, Counts> hedges() { return slashed(hedges); }

    /** {@code {stage: {kind: n}}} (roles summed, every kind present) and {@code "_total"}, stages sorted. */
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
        return FAULT_KINDS.stream().collect(Collectors.toMap(k -> k, k -> 0L, Long::sum, LinkedHashMap::new));
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

    /** {@link #add} into the meter this thread is held in: an engine replays its workers' calls through here. Journaled
     *  without a key, so they always count in {@link #keptStageSummary}. */
    public void absorb(UsageMeter other) { absorb(other, null, null); }

    /** For the calls of one remote model call of {@code request}: journaled as a local call is. */
    public void absorb(UsageMeter other, ChatRequest request) {
        absorb(other, "request:" + request.stage() + ":" + fingerprint(request), null);
    }

    /** For the calls of one remote rollout item: journaled under {@code itemDir} as a new attempt, as a local item's are. */
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
        into().add(other);
    }

    /** This meter's cells as JSON-ready data, for {@link #fromJson}. */
    public synchronized Map<String, Object> toJson() {
        Map<String, Object> out = io.skillopt4j.internal.Json.obj("cells", countsJson(cells), "models", countsJson(modelCells),
                "faults", new LinkedHashMap<>(faults));
        if (!hedges.isEmpty()) out.put("hedges", countsJson(hedges));
        return out;
    }

    /** A meter holding the cells of {@link #toJson} output (another JVM's calls). */
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

    /** Totals per "role/stage/model" key (calls recorded with a model), sorted. */
    public synchronized Map<String, Counts> byRoleStageAndModel() { return slashed(modelCells); }

    /** Totals per "role/stage" key, sorted. */
    public synchronized Map<String, Counts> byRoleAndStage() { return slashed(cells); }

    private static Map<String, Counts> slashed(Map<String, Counts> cells) {
        return cells.entrySet().stream().collect(Collectors.toMap(e -> e.getKey().replace('\u0000', '/'), Map.Entry::getValue,
                (a, b) -> b, LinkedHashMap::new));
    }

    /** Totals per stage (roles summed), sorted by stage. */
    public synchronized Map<String, Counts> byStage() { return byStage(cells); }

    private static Map<String, Counts> byStage(Map<String, Counts> cells) {
        return cells.entrySet().stream().collect(Collectors.toMap(e -> e.getKey().substring(e.getKey().indexOf('\u0000') + 1),
                Map.Entry::getValue, Counts::plus, TreeMap::new));
    }

    /** Upstream's token_summary map (stages plus "_total"). */
    public Map<String, Object> stageSummary() {
        return summaryOf(byStage());
    }

    private static Map<String, Object> summaryOf(Map<String, Counts> byStage) {
        Map<String, Object> out = new LinkedHashMap<>();
        byStage.forEach((stage, c) -> out.put(stage, tokenMap(c)));
        out.put("_total", tokenMap(byStage.values().stream().reduce(Counts.ZERO, Counts::plus)));
        return out;
    }

    private static Map<String, Object> tokenMap(Counts c) {
        return io.skillopt4j.internal.Json.obj("calls", c.calls(), "prompt_tokens", c.promptTokens(),
                "completion_tokens", c.completionTokens(), "total_tokens", c.totalTokens());
    }
}
