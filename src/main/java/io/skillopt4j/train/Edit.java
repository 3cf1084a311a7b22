package io.skillopt4j.train;

import java.util.Objects;

/** Immutable. One patch-mode edit; targets match the first exact occurrence, as upstream. */
public sealed interface Edit {
    String op();

    /** Returns the exact text the edit anchors on ("" for append). */
    String target();

    /** Returns the Markdown the edit writes ("" for delete). */
    String content();

    /** Adds content before the first protected region, or at the end. */
    record Append(String content) implements Edit {
        public Append { content = Objects.requireNonNullElse(content, ""); }
        public String op() { return "append"; }
        public String target() { return ""; }
    }

    /** Inserts content on the line after the one holding the end of the target (append when target is absent). */
    record InsertAfter(String target, String content) implements Edit {
        public InsertAfter { target = Objects.requireNonNullElse(target, ""); content = Objects.requireNonNullElse(content, ""); }
        public String op() { return "insert_after"; }
    }

    /** Replaces the first occurrence of target with content. */
    record Replace(String target, String content) implements Edit {
        public Replace { target = Objects.requireNonNullElse(target, ""); content = Objects.requireNonNullElse(content, ""); }
        public String op() { return "replace"; }
    }

    /** Deletes the first occurrence of target. */
    record Delete(String target) implements Edit {
        public Delete { target = Objects.requireNonNullElse(target, ""); }
        public String op() { return "delete"; }
        public String content() { return ""; }
    }

    /** Builds the edit of a known op (case-sensitive, as upstream); null for any other op, a null one included. */
    static Edit of(String op, String target, String content) {
        return op == null ? null : switch (op) {
            case "append" -> new Append(content);
            case "insert_after" -> new InsertAfter(target, content);
            case "replace" -> new Replace(target, content);
            case "delete" -> new Delete(target);
            default -> null;
        };
    }
}
