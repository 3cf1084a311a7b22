package io.skillopt4j.env;

/** Thread-safe. Grades a free-form answer against a gold one (SimpleQA grades); {@link LlmJudge} is the real one. */
@FunctionalInterface
public interface Judge {
    /** Immutable. A grade: {@code CORRECT}, {@code INCORRECT} or {@code NOT_ATTEMPTED}, with the judge's raw reply. */
    record Verdict(String grade, String raw) {
        public boolean correct() { return "CORRECT".equals(grade); }
    }

    Verdict grade(String question, String gold, String predicted);
}
