package io.skillopt4j.frames;

/**
 * Immutable constants. Column names of the run frames, for static import in cells
 * ({@code import static io.skillopt4j.frames.Cols.*;} then {@code steps.summarize(SELECTION_HARD, max).by(EPOCH)});
 * plain strings in any case or spelling work too.
 */
public final class Cols {
    private Cols() {}

    public static final String RUN = "run";
    public static final String EPOCH = "epoch";
    public static final String STEP = "step";
    public static final String ACTION = "action";
    public static final String ACCEPTED = "accepted";
    public static final String NEW_BEST = "new_best";
    public static final String EDIT_BUDGET = "edit_budget";
    public static final String TRAIN_HARD = "train_hard";
    public static final String TRAIN_SOFT = "train_soft";
    public static final String SELECTION_HARD = "selection_hard";
    public static final String SELECTION_SOFT = "selection_soft";
    public static final String CANDIDATE_GATE_SCORE = "candidate_gate_score";
    public static final String CURRENT_SCORE = "current_score";
    public static final String BEST_SCORE = "best_score";
    public static final String TOKENS = "tokens";
    public static final String SECONDS = "seconds";
    public static final String OP = "op";
    public static final String TARGET = "target";
    public static final String CONTENT = "content";
    public static final String SELECTED = "selected";
    public static final String STATUS = "status";
    public static final String APPLIED = "applied";
    public static final String PHASE = "phase";
    public static final String SPLIT = "split";
    public static final String ID = "id";
    public static final String TASK_TYPE = "task_type";
    public static final String HARD = "hard";
    public static final String SOFT = "soft";
    public static final String KIND = "kind";
    public static final String TOOL = "tool";
    public static final String STAGE = "stage";
    public static final String ROLE = "role";
    public static final String TOTAL_TOKENS = "total_tokens";
    public static final String COST_USD = "cost_usd";
}
