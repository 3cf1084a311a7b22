package io.skillopt4j.env.alfworld;

import io.skillopt4j.config.Setting;
import io.skillopt4j.ConfigException;
import io.skillopt4j.backend.ChatMessage;
import io.skillopt4j.env.BenchmarkContext;
import io.skillopt4j.env.BenchmarkFactory;
import io.skillopt4j.env.ChatBenchmark;
import io.skillopt4j.env.Item;
import io.skillopt4j.env.RolloutResult;
import io.skillopt4j.env.RolloutRunner;
import io.skillopt4j.env.RuntimeScratch;
import io.skillopt4j.env.SplitDataLoader;
import io.skillopt4j.internal.AtomicFiles;
import io.skillopt4j.internal.Json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Thread-safe. ALFWorld: text games played through a Python bridge process per episode; each step the target sees the
 * task, the last 2 steps and the admissible actions; hard = soft = won within {@code max_steps}.
 */
public final class AlfWorldBenchmark extends ChatBenchmark {
    static final List<String> TYPES = List.of("pick_and_place", "pick_two_obj_and_place", "look_at_obj_in_light",
            "pick_heat_then_place_in_recep", "pick_cool_then_place_in_recep", "pick_clean_then_place_in_recep");
    static final String SYSTEM = "You are an expert agent operating in the ALFRED Embodied Environment.";
    private static final String BRIDGE_SCRIPT = "alfworld_bridge.py";
    private final RuntimeScratch scratch;
    private final List<String> bridgeCommand;
    private final boolean bundled;
    private final String alfworldData;

    public static final class Factory extends BenchmarkFactory.Named {
        public Factory() { super("alfworld", "embodied text games (ALFWorld) via a Python bridge; success = won",
                AlfWorldBenchmark::new); }
    }

    public AlfWorldBenchmark(BenchmarkContext ctx) {
        super("alfworld", ctx, loader(ctx, dataRoot(ctx)));
        this.alfworldData = dataRoot(ctx);
        this.scratch = new RuntimeScratch(ctx.outRoot(), "alfworld");
        this.bridgeCommand = bridge(ctx);
        this.bundled = Setting.string("alfworld_bridge").of(ctx.config()).isBlank();
    }

    static String dataRoot(BenchmarkContext ctx) {
        String d = Setting.string("alfworld_data").of(ctx.config()).trim();
        if (d.isEmpty()) d = Setting.string("data_root").of(ctx.config()).trim();
        return d.isEmpty() ? Objects.requireNonNullElse(System.getenv("ALFWORLD_DATA"), "") : d;
    }

    static SplitDataLoader loader(BenchmarkContext ctx, String root) {
        return SplitDataLoader.builder("alfworld", ctx).mapper((row, ref) -> {
            String id = ref.requireString(row, "id");
            String gf = ref.requireString(row, "gamefile");
            Path p = Path.of(gf);
            if (!p.isAbsolute()) {
                if (root.isEmpty()) throw ref.bad("gamefile", "absolute, or relative to $ALFWORLD_DATA (set it or alfworld_data)", gf);
                p = Path.of(root).resolve(p);
            }
            if (!Files.isRegularFile(p)) throw ref.bad("gamefile", "an existing game file (run alfworld-download)", p.toString());
            return new Item(id, Json.put(new LinkedHashMap<>(row), "gamefile_path", p.toString(), "task_type", taskType(gf)));
        }).build();
    }

    /** The first ALFWorld family that is a substring of the game path, else "other". */
    static String taskType(String gamefile) {
        return TYPES.stream().filter(gamefile::contains).findFirst().orElse("other");
    }

    /** Resolves the bridge command and checks, in a temp folder, that the runtime answers (before any model call). */
    List<String> bridge(BenchmarkContext ctx) {
        String custom = Setting.string("alfworld_bridge").of(ctx.config()).trim();
        String py = Setting.string("python_executable").of(ctx.config()).trim();
        List<String> cmd = !custom.isEmpty() ? List.of(custom.split("\\s+"))
                : List.of(py.isEmpty() ? "python3" : py, scratch.path(BRIDGE_SCRIPT).toString());
        RuntimeScratch.probe("alfworld", tmp -> {
            List<String> check = cmd;
            if (custom.isEmpty()) {
                Path script = tmp.resolve(BRIDGE_SCRIPT);
                AtomicFiles.writeString(script, resource("alfworld", BRIDGE_SCRIPT));
                check = List.of(cmd.get(0), script.toString());
            }
            try (Bridge b = new Bridge(check, tmp, alfworldData)) {
                return b.call(Map.of("cmd", "check"));
            } catch (Exception e) {
                throw new ConfigException("alfworld needs the ALFWorld runtime (" + e.getMessage().replace('\n', ' ')
                        + "); install it with `pip install alfworld` and fetch games with `alfworld-download`, set ALFWORLD_DATA, "
                        + "or point alfworld_bridge at a bridge command");
            }
        });
        return cmd;
    }

    @Override protected Duration itemTimeout() {
        int t = Setting.integer("task_timeout").of(cfg);
        return t > 0 ? Duration.ofSeconds(t) : null;
    }

    @Override public List<String> taskTypes() { return TYPES; }

    static String admissible(List<String> actions) {
        return actions.stream().filter(s -> !s.equals("help")).map(s -> "'" + s + "'").collect(Collectors.joining("\n "));
    }

    static String withHistory(String task, int stepsTaken, List<String[]> history, String obs, List<String> actions) {
        int start = Math.max(0, history.size() - 2);
        String h = java.util.stream.IntStream.range(start, history.size()).mapToObj(i -> "[Observation " + (i + 1) + ": '"
                + history.get(i)[0] + "', Action " + (i + 1) + ": '" + history.get(i)[1] + "']").collect(Collectors.joining("\n"));
        return "Your task is to: " + task + "\nPrior to this step, you have already taken " + stepsTaken + " step(s). Below are the most "
                + "recent " + (history.size() - start) + " observations and the corresponding actions you took: " + h
                + "\nYou are now at step " + (stepsTaken + 1) + " and your current observation is: " + obs + actionsAndAsk(actions);
    }

    private static String actionsAndAsk(List<String> actions) {
        return "\nYour admissible actions of the current situation are: [\n " + admissible(actions)
                + "\n].\n\nNow it's your turn to take an action.\nFirst reason step by step inside <think></think> tags, then choose "
                + "exactly one admissible action and put it inside <action></action> tags.";
    }

    static String skillBlock(String skill) {
        String s = skill == null ? "" : skill.trim();
        return s.isEmpty() ? "" : "## Skill Knowledge\nThe following skill document holds strategies learned from earlier episodes; use them.\n\n" + s + "\n";
    }

    /** Lower-cased text between the first {@code <action>} and {@code </action>}, else the last 30 chars. */
    static String projectAction(String response) {
        String r = response.toLowerCase(java.util.Locale.ROOT);
        int a = r.indexOf("<action>");
        int b = a < 0 ? -1 : r.indexOf("</action>", a);
        if (a >= 0 && b > a) return r.substring(a + "<action>".length(), b).trim();
        return r.length() > 30 ? r.substring(r.length() - 30).trim() : r.trim();
    }

    static String think(String response) {
        int a = response.indexOf("<think>");
        int b = a < 0 ? -1 : response.indexOf("</think>", a);
        return a >= 0 && b > a ? response.substring(a + 7, b).trim() : "";
    }

    static String cleanObs(String obs) {
        String o = obs == null ? "" : obs;
        int w = o.indexOf("-= Welcome to TextWorld, ALFRED! =-");
        if (w >= 0) o = o.substring(w + "-= Welcome to TextWorld, ALFRED! =-".length());
        return o.trim();
    }

    @Override
    @SuppressWarnings("unchecked")
    protected RolloutRunner.Outcome runItem(Item item, RolloutRunner.Context ctx) throws Exception {
        int maxSteps = Math.max(1, Setting.integer("max_steps").of(cfg));
        String skill = skillBlock(ctx.request().skill());
        List<Map<String, Object>> conv = new ArrayList<>();
        List<String[]> history = new ArrayList<>();
        boolean won = false;
        boolean done = false;
        int steps = 0;
        String task = "";
        String firstUser = "";
        if (bundled) scratch.file(BRIDGE_SCRIPT, () -> resource("alfworld", BRIDGE_SCRIPT)); // the run's copy, at first use
        try (Bridge bridge = new Bridge(bridgeCommand, ctx.workspace(), alfworldData)) {
            Map<String, Object> state = bridge.call(Map.of("cmd", "reset", "gamefile", item.str("gamefile_path"), "max_steps", maxSteps));
            String obs = cleanObs(String.valueOf(state.get("obs")));
            int at = obs.indexOf("Your task is to: ");
            if (at >= 0) task = obs.substring(at + "Your task is to: ".length()).split("\n")[0].trim();
            for (int step = 0; step < maxSteps && !done; step++) {
                List<String> actions = (List<String>) state.getOrDefault("admissible", List.of());
                String body = step == 0 ? "Your current observation is: " + obs + actionsAndAsk(actions)
                        : withHistory(task, step, history, obs, actions);
                String user = skill + "\n" + body;
                if (step == 0) firstUser = user;
                // a call that failed after its retries errors the item (SkillOpt plays "look" on and scores the episode)
                String response = chat(List.of(ChatMessage.system(SYSTEM), ChatMessage.user(user))).text();
                if (response.isBlank()) response = "<think>empty model response</think><action>look</action>";
                else if (!response.toLowerCase(java.util.Locale.ROOT).contains("<action>")) response = "<think>missing action tag</think><action>look</action>";
                String action = projectAction(response);
                state = bridge.call(Map.of("cmd", "step", "action", action));
                String feedback = cleanObs(String.valueOf(state.get("obs")));
                done = Boolean.TRUE.equals(state.get("done"));
                won = Boolean.TRUE.equals(state.get("won"));
                steps = step + 1;
                history.add(new String[] {obs, action});
                conv.add(Json.obj("step", steps, "action", action, "reasoning", think(response), "model_response", response,
                        "env_feedback", feedback, "reward", won ? 10.0 : 0.0, "done", done));
                obs = feedback;
            }
        }
        Map<String, Object> f = Json.obj("n_turns", steps);
        if (!won) f.put("fail_reason", done ? "Episode ended without completing the task" : "Timeout after " + maxSteps + " steps");
        Json.put(f, "agent_ok", true, "task_type", item.str("task_type"), "gamefile", item.str("gamefile"),
                "task_description", task.isEmpty() ? item.str("task_type") : task, "instruction_type", item.str("task_type"));
        double s = won ? 1 : 0;
        return new RolloutRunner.Outcome(new RolloutResult(item.id(), s, s, f), conv, SYSTEM, firstUser, Map.of());
    }

}
