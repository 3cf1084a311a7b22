package io.skillopt4j.env;

import io.skillopt4j.config.Setting;
import io.skillopt4j.backend.ChatMessage;
import io.skillopt4j.backend.ChatModel;
import io.skillopt4j.backend.ChatRequest;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.ExecAgent;
import io.skillopt4j.backend.ExecResult;
import io.skillopt4j.backend.ExecTask;
import io.skillopt4j.config.FlatConfig;
import io.skillopt4j.internal.Resources;
import io.skillopt4j.internal.Json;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.stream.Stream;

/** Thread-safe. Base of the chat-target benchmarks: rollouts through {@link RolloutRunner}, target calls. */
public abstract class ChatBenchmark implements Benchmark {
    private final Map<String, Optional<String>> prompts = new ConcurrentHashMap<>();
    protected final String name;
    protected final BenchmarkContext context;
    protected final FlatConfig cfg;
    protected final DataLoader data;
    private volatile RolloutRunner.Progress progress;

    protected ChatBenchmark(String name, BenchmarkContext context, DataLoader data) {
        this.name = name;
        this.context = context;
        this.cfg = context.config();
        this.data = data;
    }

    @Override public String name() { return name; }

    /** E.g. {@code benchmark searchqa (SearchQaBenchmark, 8 workers)}, for notebook cells. */
    @Override public String toString() {
        return "benchmark " + name + " (" + getClass().getSimpleName() + ", " + workers() + " workers)";
    }

    @Override public DataLoader data() { return data; }

    @Override public void onProgress(RolloutRunner.Progress p) { this.progress = p; }

    /** Upstream's default workers for this benchmark when {@code workers} is unset. */
    protected int defaultWorkers() { return 8; }

    @Override public int workers() { return Math.max(1, Setting.integer("workers").in(cfg).orElse(defaultWorkers())); }

    /** Upstream's per-call timeout in seconds when {@code exec_timeout} is unset. */
    protected int defaultExecTimeout() { return 120; }

    protected Duration callTimeout() { return Duration.ofSeconds(Setting.integer("exec_timeout").in(cfg).orElse(defaultExecTimeout())); }

    /** Per-item wall timeout: call timeout + 60 s (upstream), or {@code task_timeout} when set. */
    protected Duration itemTimeout() {
        int t = Setting.integer("task_timeout").of(cfg);
        return t > 0 ? Duration.ofSeconds(t) : callTimeout().plusSeconds(60);
    }

    /** Whether a batch where every row has agent_ok=false throws (a systemic backend failure). */
    protected boolean abortWhenAllFail() { return true; }

    /** Runs one item: prompts, target call, score; returns the row and its trajectory. */
    protected abstract RolloutRunner.Outcome runItem(Item item, RolloutRunner.Context ctx) throws Exception;

    @Override
    public List<RolloutResult> rollout(RolloutRequest request) {
        return RolloutRunner.builder().workers(workers()).itemTimeout(itemTimeout())
                .progress(request.reportProgress() ? progress : null).defaultTaskType(name).abortWhenAllFail(abortWhenAllFail()).build().run(request, this::runItem);
    }

    /** Fills {@code {skill_section}} as upstream: {@code "## Skill\n<trimmed skill>\n\n"}, or "" for an empty skill. */
    public static String renderSystem(String template, String skill) {
        String s = SkillBundle.view(skill, SkillBundle.DEFAULT_REFERENCE_BUDGET).trim(); // a bundle's references up to the budget
        return template.replace("{skill_section}", s.isEmpty() ? "" : "## Skill\n" + s + "\n\n");
    }

    /** Loads a bundled text resource {@code /io/skillopt4j/env/<env>/<file>} (cached); missing → error. */
    public static String resource(String env, String file) {
        return Resources.text("/io/skillopt4j/env/" + (env.isEmpty() ? "" : env + "/") + file);
    }

    /** As upstream's env overrides: the analyst prompt plus {@code analyst_focus.json}'s domain, or a bundled one. */
    @Override
    public Optional<String> prompt(String promptName) {
        return prompts.computeIfAbsent(promptName, this::composePrompt);
    }

    @SuppressWarnings("unchecked")
    private Optional<String> composePrompt(String promptName) {
        Optional<String> own = Resources.find("/io/skillopt4j/env/" + name + "/prompts/" + promptName + ".md");
        if (own.isPresent()) return own;
        if (!promptName.equals("analyst_error") && !promptName.equals("analyst_success")) return Optional.empty();
        Object focus = Json.parseObject(resource("", "analyst_focus.json")).get(name);
        if (!(focus instanceof Map<?, ?> f)) return Optional.empty();
        return Resources.find("/prompts/" + promptName + ".md").map(generic -> {
            StringBuilder sb = new StringBuilder(generic.stripTrailing()).append("\n\n## Benchmark\n").append(f.get("domain"));
            if (promptName.equals("analyst_error")) {
                sb.append("\nUse these failure types in failure_summary: ").append(String.join(", ", (List<String>) f.get("failure_types"))).append('.');
            }
            return sb.append('\n').toString();
        });
    }

    /** A request builder preset with the target's call settings. */
    protected ChatRequest.Builder targetRequest() {
        CallSettings s = callSettings();
        return ChatRequest.builder().stage("rollout").maxCompletionTokens(s.maxCompletionTokens())
                .reasoningEffort(s.effort()).timeout(s.timeout()).retries(5);
    }

    /** Immutable. The target's call settings, read from the config once. */
    private record CallSettings(int maxCompletionTokens, String effort, Duration timeout, int maxTurns) {}

    private volatile CallSettings callSettings;

    private CallSettings callSettings() {
        CallSettings s = callSettings;
        if (s == null) {
            String effort = Setting.string("reasoning_effort").of(cfg).trim();
            s = new CallSettings(Setting.integer("max_completion_tokens").of(cfg), effort.isEmpty() ? null : effort, callTimeout(),
                    Math.max(1, Setting.integer("max_turns").of(cfg)));
            callSettings = s;
        }
        return s;
    }

    protected ChatResponse chat(List<ChatMessage> messages) {
        return target().chat(targetRequest().messages(messages).build());
    }

    protected ChatModel target() { return context.roles().target(); }

    protected Optional<ExecAgent> agent() { return context.roles().targetAgent(); }

    /** One target turn, to the exec agent (skill in its workspace, images attached) or the chat model. */
    protected String ask(RolloutRunner.Context ctx, String systemTemplate, String user, List<Path> images) {
        List<Path> imgs = images == null ? List.of() : images;
        Optional<ExecAgent> a = agent();
        if (a.isPresent()) {
            StringBuilder prompt = new StringBuilder(user);
            if (!imgs.isEmpty()) {
                prompt.append("\n\nThe task's image").append(imgs.size() == 1 ? " is" : "s are").append(" attached in this workspace "
                        + "(see ATTACHMENTS.md). Open and inspect ").append(imgs.size() == 1 ? "it" : "them").append(" before answering; do not answer from memory.");
            }
            if (!dataDirs().isEmpty()) {
                prompt.append("\n\nThe task's documents are readable under: ")
                        .append(String.join(", ", dataDirs().stream().map(Path::toString).toList())).append('.');
            }
            prompt.append("\n\nWork in this workspace, then give your final answer inside <answer>...</answer>.");
            SkillDelivery d = SkillDelivery.of(Setting.string("skill_delivery").of(cfg), true);
            String skill = ctx.request().skill();
            ExecResult r = a.get().run(new ExecTask(ctx.item().id(), prompt.toString(), d.execSkill(skill), ctx.workspace(),
                    ctx.itemDir(), itemTimeout(), d.workspaceFiles(skill), imgs, dataDirs()));
            if (!r.ok() && r.finalMessage().isEmpty()) throw new IllegalStateException("exec agent failed: " + r.error());
            return Answers.hasTag(r.finalMessage()) || r.answer().isEmpty() ? r.finalMessage() : "<answer>" + r.answer() + "</answer>";
        }
        return chat(List.of(ChatMessage.system(renderSystem(systemTemplate, ctx.request().skill())),
                imgs.isEmpty() ? ChatMessage.user(user) : ChatMessage.user(user, imgs.stream().map(Images::dataUrl).toList()))).text();
    }

    /** Immutable. A chat rollout's last reply, turns and conversation (a mutable list, for the evaluation entry). */
    protected record Turns(String reply, int turns, List<Map<String, Object>> conversation) {}

    /** Asks an exec agent once, or chats up to {@code max_turns}; {@code nudge} gives the next message (null: stop). */
    protected Turns converse(RolloutRunner.Context ctx, String systemTemplate, String user, BiFunction<Integer, String, String> nudge) {
        List<Map<String, Object>> conv = new ArrayList<>();
        if (agent().isPresent()) {
            String reply = ask(ctx, systemTemplate, user, List.of());
            conv.add(turn(1, reply));
            return new Turns(reply, 1, conv);
        }
        List<ChatMessage> msgs = new ArrayList<>(List.of(ChatMessage.system(renderSystem(systemTemplate, ctx.request().skill())), ChatMessage.user(user)));
        String reply = chat(msgs).text();
        conv.add(turn(1, reply));
        int turns = 1, maxTurns = callSettings().maxTurns();
        String next;
        while (turns < maxTurns && (next = nudge.apply(turns, reply)) != null) {
            msgs.add(ChatMessage.assistant(reply));
            msgs.add(ChatMessage.user(next));
            reply = chat(msgs).text();
            conv.add(turn(++turns, reply));
        }
        return new Turns(reply, turns, conv);
    }

    /** One target reply as a conversation entry (keys in SkillOpt's order, as every conversation entry). */
    protected static Map<String, Object> turn(int n, String reply) {
        return Json.obj("type", "message", "turn", n, "content", reply);
    }

    /** The evaluation entry that closes a rollout's conversation. */
    protected static Map<String, Object> evaluation(String text) {
        return Json.obj("role", "system", "content", "[EVALUATION RESULT]\n" + text);
    }

    /** An item's outcome without files; its system prompt is {@code template} rendered with the request's skill. */
    protected static RolloutRunner.Outcome outcome(Item item, double hard, double soft, Map<String, Object> fields, List<?> conv,
            RolloutRunner.Context ctx, String template, String user) {
        return new RolloutRunner.Outcome(new RolloutResult(item.id(), hard, soft, fields), conv,
                renderSystem(template, ctx.request().skill()), user, Map.of());
    }

    /** The first fields of an item's result: question, task type, then {@code more} (key, value, ...). */
    protected static Map<String, Object> itemFields(Item item, Object... more) {
        return Json.put(Json.obj("question", item.str("question"), "task_type", item.str("task_type")), more);
    }

    /** The last fields of a chat rollout's result: the reply, why it failed (null: it did not), agent_ok and n_turns. */
    protected static Map<String, Object> replyFields(Map<String, Object> f, String reply, String failReason, int turns) {
        f.put("response", reply);
        if (failReason != null) f.put("fail_reason", failReason);
        return Json.put(f, "agent_ok", true, "n_turns", turns);
    }

    /** The task types the data names, sorted. */
    @Override public List<String> taskTypes() { return taskTypesOfData(List.of()); }

    /** The task types of all splits' items, sorted; {@code whenNone} when the data names none. */
    protected List<String> taskTypesOfData(List<String> whenNone) {
        List<String> t = Stream.of("train", "val", "test").flatMap(s -> data.split(s).stream()).map(i -> i.str("task_type"))
                .distinct().sorted().toList();
        return t.isEmpty() ? whenNone : t;
    }

    /** Folders an exec target must be able to read (OfficeQA's documents). */
    protected List<Path> dataDirs() { return List.of(); }

    /** Fails before any model call when the run's exec target cannot take images or data folders every task needs. */
    protected void requireExecInputs(boolean images, boolean dataDirs) {
        agent().ifPresent(x -> x.requireInputs(images, dataDirs));
    }
}
