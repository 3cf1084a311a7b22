package io.skillopt4j.config;

import io.skillopt4j.notebook.SkillOpt;

import java.nio.file.Path;
import java.util.Map;

/** Config tests look at warnings themselves: the fluent builder, relaxed and silent. */
public final class Cfg {
    private Cfg() {}

    public static SkillOpt load(String path) { return load(Path.of(path)); }

    public static SkillOpt load(Path path) { return SkillOpt.config(path).relaxed().onWarning(w -> { }); }

    public static SkillOpt empty() { return SkillOpt.empty().relaxed().onWarning(w -> { }); }

    public static SkillOpt fromMap(Map<String, ?> m) { return SkillOpt.config(m).relaxed().onWarning(w -> { }); }
}
