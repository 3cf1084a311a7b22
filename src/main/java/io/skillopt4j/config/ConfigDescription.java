package io.skillopt4j.config;

import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Immutable (static functions). Builds the key / value / source / default table of a resolved config. */
public final class ConfigDescription {
    private ConfigDescription() {}

    /** Returns one row per resolved flat key: key, value (secrets masked), source (file, flag, override, default), default?. */
    public static Table describe(ConfigRequest req, ResolvedConfig resolved) {
        ConfigLoader loader = new ConfigLoader(new ArrayList<>());
        if (req.config() != null) loader.load(req.config());
        List<ConfigLoader.Layer> layers = loader.layers();
        StringColumn key = StringColumn.create("key");
        StringColumn value = StringColumn.create("value");
        StringColumn source = StringColumn.create("source");
        BooleanColumn isDefault = BooleanColumn.create("default");
        for (Map.Entry<String, Object> e : resolved.redactedSorted().entrySet()) {
            key.append(e.getKey());
            value.append(String.valueOf(e.getValue()));
            source.append(sourceOf(e.getKey(), req, layers));
            Object v = resolved.flat().get(e.getKey());
            isDefault.append(Flags.byKey(e.getKey()).filter(f -> Objects.equals(f.defaultValue(), v)).isPresent());
        }
        return Table.create("config", key, value, source, isDefault);
    }

    private static String sourceOf(String flatKey, ConfigRequest req, List<ConfigLoader.Layer> layers) {
        FlagSpec f = Flags.byKey(flatKey).orElse(null);
        String flag = f == null ? flatKey : f.flag();
        if (flag != null && req.flags().containsKey(flag)) return "--" + flag;
        String path = f == null ? "env." + flatKey : f.path();
        if (req.overrides().stream().map(o -> o.key().strip()).anyMatch(k -> k.equals(path) || k.equals(flatKey))) {
            return "--cfg-options";
        }
        if (flatKey.equals("out_root")) return "auto";
        for (int i = layers.size() - 1; i >= 0; i--) {
            Map<String, Object> c = layers.get(i).content();
            if (c.containsKey(flatKey) || Values.hasNested(c, path)) {
                Path file = layers.get(i).path();
                return (file.getParent() == null ? "" : file.getParent().getFileName() + "/") + file.getFileName();
            }
        }
        if (req.config() == null && (req.base().containsKey(flatKey) || Values.hasNested(req.base(), path))) return "map";
        return List.of("model_backend", "optimizer_backend", "target_backend").contains(flatKey) ? "backend rules" : "default";
    }
}
