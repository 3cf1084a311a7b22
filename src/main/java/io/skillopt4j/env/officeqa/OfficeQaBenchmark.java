package io.skillopt4j.env.officeqa;

import io.skillopt4j.config.Setting;
import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.ChatMessage;
import io.skillopt4j.backend.ChatResponse;
import io.skillopt4j.backend.ToolCall;
import io.skillopt4j.env.Answers;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.BenchmarkFactory;
import io.skillopt4j.env.ChatBenchmark;
import io.skillopt4j.env.Fields;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.env.RowRef;
import io.skillopt4j.env.SplitDataLoader;
import io.skillopt4j.internal.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/** Thread-safe. OfficeQA (offline): Treasury Bulletin questions answered with glob/read/grep tools; EM and F1. */
public final class OfficeQaBenchmark extends ChatBenchmark {
    private final List<Path> roots;

    public static final class Factory extends BenchmarkFactory.Named {
        public Factory() { super("officeqa", "Treasury Bulletin QA with glob/read/grep tools; normalised EM (hard) / F1 (soft)",
                OfficeQaBenchmark::new); }
    }

    public OfficeQaBenchmark(BenchmarkContext ctx) {
        super("officeqa", ctx, SplitDataLoader.builder("officeqa", ctx)
                .reader(SplitDataLoader::readFirstCsvOrJson).mapper(OfficeQaBenchmark::item).build());
        String mode = Setting.string("search_mode").of(ctx.config()).trim();
        if (!mode.equals("offline")) {
            throw ConfigException.badValue("", "search_mode", mode, "\"offline\" (custom_search and azure_search need live web search, which this port does not implement)");
        }
        this.roots = docRoots(ctx);
        requireExecInputs(false, true); // the agent searches the document corpus itself
    }

    /** Upstream hands exec targets the document roots as data_dirs. */
    @Override protected List<Path> dataDirs() { return roots; }

    static List<Path> docRoots(BenchmarkContext ctx) {
        List<String> candidates = new ArrayList<>();
        Object dd = Setting.value("data_dirs").in(ctx.config()).orElse(null);
        if (dd instanceof List<?> l) l.forEach(o -> candidates.add(String.valueOf(o)));
        else if (dd != null && !String.valueOf(dd).isBlank()) candidates.add(String.valueOf(dd));
        String env = System.getenv("OFFICEQA_DOCS_DIR");
        if (env != null && !env.isBlank()) candidates.add(env);
        String home = System.getProperty("user.home");
        candidates.addAll(List.of("data/officeqa_smoke_docs", home + "/officeqa-sparse/treasury_bulletins_parsed",
                home + "/officeqa/treasury_bulletins_parsed"));
        List<Path> roots = candidates.stream().map(c -> Path.of(c).toAbsolutePath().normalize()).filter(Files::isDirectory)
                .map(p -> Files.isDirectory(p.resolve("transformed")) ? p.resolve("transformed") : p).toList();
        if (roots.isEmpty()) {
            throw new ConfigException("officeqa: no document folder found; set data_dirs (e.g. [data/officeqa_docs_official]) "
                    + "or OFFICEQA_DOCS_DIR to the Treasury Bulletin text files (tried: " + String.join(", ", candidates) + ")");
        }
        return roots;
    }

    /** JSON list, newline-separated, or comma-separated text (not split when the value ends in .txt). */
    static List<String> listField(Object v) {
        if (v instanceof List<?> l) {
            return l.stream().filter(o -> o != null && !String.valueOf(o).isBlank()).map(o -> String.valueOf(o).trim()).toList();
        }
        String s = v == null ? "" : String.valueOf(v).trim();
        if (s.isEmpty()) return List.of();
        if (s.startsWith("[")) {
            try { return listField(Json.parseArray(s)); } catch (IllegalArgumentException ignored) { /* plain text */ }
        }
        String[] parts = s.contains("\n") ? s.split("\n") : s.endsWith(".txt") && !s.contains(".txt,") ? new String[] {s} : s.split(",");
        return java.util.Arrays.stream(parts).filter(p -> !p.isBlank()).map(String::trim).toList();
    }

    static Item item(Map<String, Object> row, RowRef ref) {
        Object idv = ref.requireFirst(row, "the question id, e.g. UID0002", "uid", "id");
        String question = ref.requireString(row, "question");
        Object gt = ref.requireFirst(row, "the gold answer", "ground_truth", "answer");
        String cat = RowRef.firstOr("", row, "category", "difficulty");
        return new Item(String.valueOf(idv), Json.put(new LinkedHashMap<>(row), "uid", String.valueOf(idv), "question", question,
                "ground_truth", String.valueOf(gt), "answers", List.of(String.valueOf(gt)),
                "task_type", cat.isEmpty() ? "officeqa" : cat, "category", cat,
                "source_files", listField(row.get("source_files")), "source_docs", listField(row.get("source_docs"))));
    }

    @Override protected int defaultWorkers() { return 4; }

    /** A model that never answers is a task failure here, not a backend outage (upstream aborts only SearchQA). */
    @Override protected boolean abortWhenAllFail() { return false; }

    List<Path> candidates(Item item) {
        Set<String> names = new HashSet<>(item.list("source_files"));
        List<Path> out = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> st = Files.walk(root)) {
                st.filter(Files::isRegularFile).filter(p -> names.isEmpty() || names.contains(p.getFileName().toString()))
                        .sorted().forEach(out::add);
            } catch (IOException e) {
                throw new IllegalStateException("cannot list " + root + ": " + e.getMessage(), e);
            }
        }
        return out.size() > 20 ? out.subList(0, 20) : out;
    }

    String userPrompt(Item item, String oracle, List<Path> candidates) {
        StringBuilder sb = new StringBuilder("## Question\n").append(item.str("question")).append("\n\n");
        if (!oracle.isEmpty()) sb.append("## Oracle Parsed Pages\n").append(oracle).append("\n\n");
        sb.append("## Candidate Files\n");
        candidates.forEach(p -> sb.append("- ").append(p).append('\n'));
        List<String> docs = item.list("source_docs");
        if (!docs.isEmpty()) {
            sb.append("\n## Source Hints\n");
            docs.forEach(d -> sb.append("- ").append(d).append('\n'));
        }
        return sb.toString().stripTrailing();
    }

    @Override
    protected RolloutRunner.Outcome runItem(Item item, RolloutRunner.Context ctx) {
        String template = resource("officeqa", "rollout_system.md");
        String system = renderSystem(template, ctx.request().skill());
        List<String> files = item.list("source_files");
        String oracle = OraclePages.render(item.list("source_docs"), files, roots);
        List<Path> cands = candidates(item);
        String user = userPrompt(item, oracle, cands);
        List<Map<String, Object>> conv = new ArrayList<>();
        conv.add(Json.obj("role", "user", "content", user));
        String failure = "";
        String finalText = "";
        String finishReason = "";
        if (agent().isPresent()) {
            finalText = ask(ctx, template, user, List.of());
            conv.add(Json.obj("type", "message", "content", finalText));
        } else {
            DocTools tools = new DocTools(roots, new HashSet<>(files));
            List<ChatMessage> msgs = new ArrayList<>(List.of(ChatMessage.system(system), ChatMessage.user(user)));
            int maxTurns = Math.max(1, Setting.integer("max_tool_turns").of(cfg));
            boolean answered = false;
            for (int turn = 0; turn < maxTurns && !answered; turn++) {
                ChatResponse r = target().chat(targetRequest().messages(msgs).tools(DocTools.SPECS).toolChoice("auto").build());
                if (!r.text().isBlank()) conv.add(Json.obj("type", "message", "content", r.text()));
                if (!r.toolCalls().isEmpty()) {
                    msgs.add(ChatMessage.assistant(r.text(), r.toolCalls()));
                    for (ToolCall call : r.toolCalls()) {
                        Map<String, Object> args;
                        try { args = Json.parseObject(call.argumentsJson()); } catch (IllegalArgumentException e) { args = Map.of(); }
                        String obs = args.isEmpty() && !call.argumentsJson().trim().equals("{}") ? "error: arguments are not a JSON object"
                                : tools.call(call.name(), args);
                        msgs.add(ChatMessage.tool(call.id(), obs));
                        conv.add(Json.obj("type", "tool_call", "cmd", DocTools.render(call.name(), args), "obs", obs));
                    }
                    finishReason = "tool_calls";
                    continue;
                }
                finalText = r.text();
                finishReason = "stop";
                if (Answers.firstTag(finalText) != null) answered = true;
                else { failure = "Model neither produced a tool request nor a final answer"; break; }
            }
            if (!answered && failure.isEmpty()) failure = "tool budget exhausted after " + maxTurns + " turns without a final answer";
        }
        String predicted = Answers.firstTag(finalText);
        String gold = item.str("ground_truth");
        int em = predicted == null ? 0 : OfficeQaScore.exactMatch(predicted, gold);
        double f1 = predicted == null ? 0 : OfficeQaScore.f1(predicted, gold);
        Map<String, Object> f = itemFields(item);
        Json.put(f, "task_description", item.str("question"), "predicted_answer", predicted == null ? "" : predicted,
                "response", finalText, "ground_truth", gold, "source_files", files,
                "resolved_source_paths", cands.stream().map(Path::toString).toList(), "oracle_parsed_pages_included", !oracle.isEmpty(),
                "oracle_parsed_pages_chars", oracle.length(), "use_local_tools", agent().isEmpty());
        if (!failure.isEmpty()) f.put("fail_reason", failure);
        else if (em == 0) f.put("fail_reason", "predicted " + Fields.pyRepr(predicted == null ? "" : predicted) + " but expected " + Fields.pyRepr(gold));
        Json.put(f, "agent_ok", failure.isEmpty(), "n_turns", conv.size(), "last_finish_reason", finishReason);
        return new RolloutRunner.Outcome(new RolloutResult(item.id(), em, f1, f), conv, system, user, Map.of());
    }
}
