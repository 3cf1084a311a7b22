package io.skillopt4j;

import io.skillopt4j.config.Flags;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rules of shape the compiler cannot check, on the compiled classes (a method a class calls is a Methodref in its
 * constant pool, whatever the source looks like): one assembly path for a training, config read through typed
 * accessors. {@code archfixture.PlantedViolations} shows that each rule fires.
 */
class ArchitectureTest {
    private static final Path MAIN = Path.of("target/classes"), TEST = Path.of("target/test-classes");
    private static final String P = "io/skillopt4j/", FIXTURE = P + "archfixture/";

    /** FlatConfig's reads by string key: only config/ may call them (typed accessors: Setting, ModelSettings, RunConfig). */
    static final Set<String> STRING_KEY_READS = Set.of("get", "has", "string", "integer", "longValue", "decimal", "bool").stream()
            .map(m -> P + "config/FlatConfig." + m).collect(java.util.stream.Collectors.toUnmodifiableSet());
    static final Set<String> TRAINER_ASSEMBLY = Set.of(P + "train/Trainer.builder");
    static final Set<String> MODEL_ASSEMBLY = Set.of(P + "backend/Backends.roles", P + "env/Benchmarks.create");

    static boolean inConfig(String cls) { return cls.startsWith(P + "config/"); }

    /** The one assembly class (and the Trainer itself; in tests, the Trainer's own tests, which train scripted benchmarks on purpose). */
    static boolean mayBuildTrainer(String cls) {
        return cls.equals(P + "notebook/SkillOpt") || cls.startsWith(P + "notebook/SkillOpt$") || cls.startsWith(P + "train/Trainer");
    }

    /** env.RunParts builds models and benchmark for every caller; Backends and Benchmarks may call their own overloads. */
    static boolean mayBuildModels(String cls) {
        return cls.equals(P + "env/RunParts") || cls.startsWith(P + "backend/Backends") || cls.startsWith(P + "env/Benchmarks");
    }

    @Test void configIsReadThroughTypedAccessorsOutsideConfig() throws IOException {
        List<String> bad = violations(MAIN, ArchitectureTest::inConfig, STRING_KEY_READS);
        assertTrue(bad.isEmpty(), "string-key config reads outside config/ (use RunConfig, config.Setting or config.ModelSettings;"
                + " the default belongs in the flag table):\n" + String.join("\n", bad));
    }

    @Test void aTrainingIsAssembledOnlyByTheFluentBuilder() throws IOException {
        List<String> bad = new ArrayList<>(violations(MAIN, ArchitectureTest::mayBuildTrainer, TRAINER_ASSEMBLY));
        bad.addAll(violations(TEST, c -> c.startsWith(P + "train/") || c.startsWith(FIXTURE), TRAINER_ASSEMBLY));
        assertTrue(bad.isEmpty(), "Trainer.builder() outside notebook.SkillOpt (use SkillOpt...trainer()):\n" + String.join("\n", bad));
    }

    @Test void modelsAndBenchmarkAreBuiltOnlyByRunParts() throws IOException {
        List<String> bad = violations(MAIN, ArchitectureTest::mayBuildModels, MODEL_ASSEMBLY);
        assertTrue(bad.isEmpty(), "Backends.roles / Benchmarks.create outside env.RunParts (use RunParts.assemble):\n" + String.join("\n", bad));
    }

    @Test void eachRuleFiresOnAPlantedViolation() throws IOException {
        Path planted = TEST.resolve(FIXTURE + "PlantedViolations.class");
        assertEquals(Set.of(P + "config/FlatConfig.integer", P + "config/FlatConfig.has", P + "config/FlatConfig.get"),
                calls(planted, STRING_KEY_READS));
        assertEquals(TRAINER_ASSEMBLY, calls(planted, TRAINER_ASSEMBLY));
        assertEquals(MODEL_ASSEMBLY, calls(planted, MODEL_ASSEMBLY));
        Path clean = TEST.resolve(FIXTURE + "PlantedViolations$Clean.class");
        assertTrue(calls(clean, STRING_KEY_READS).isEmpty() && calls(clean, TRAINER_ASSEMBLY).isEmpty(), "a typed read is allowed");
        // and the scans see the fixture when it is not exempt
        assertTrue(violations(TEST, c -> !c.startsWith(FIXTURE), STRING_KEY_READS).stream().anyMatch(v -> v.contains("PlantedViolations")));
    }

    private static final Pattern SETTING = Pattern.compile("Setting\\.(?:string|integer|longValue|decimal|bool|value)\\(\"([a-z_]+)\"\\)");

    @Test void everySettingNamesARowOfTheFlagTable() throws IOException {
        List<String> missing = new ArrayList<>();
        Path src = Path.of("src/main/java/io/skillopt4j");
        for (Path f : files(src, ".java")) {
            Matcher m = SETTING.matcher(Files.readString(f));
            while (m.find()) if (Flags.byKey(m.group(1)).isEmpty()) missing.add(src.relativize(f) + ": " + m.group(1));
        }
        assertTrue(missing.isEmpty(), "Setting for a key the flag table lacks:\n" + String.join("\n", missing));
    }

    /** "class: owner.method" for every call of {@code forbidden} from a class under {@code root} that is not {@code exempt}. */
    static List<String> violations(Path root, Predicate<String> exempt, Set<String> forbidden) throws IOException {
        List<String> bad = new ArrayList<>();
        for (Path f : files(root, ".class")) {
            String cls = root.relativize(f).toString().replace('\\', '/').replaceAll("\\.class$", "");
            if (exempt.test(cls)) continue;
            for (String call : calls(f, forbidden)) bad.add(cls.replace('/', '.') + ": " + call.replace('/', '.'));
        }
        return bad;
    }

    /** The members of {@code forbidden} ("owner/Class.method") the class file refers to as methods. */
    static Set<String> calls(Path classFile, Set<String> forbidden) throws IOException {
        Set<String> out = new TreeSet<>();
        for (String ref : methodRefs(classFile)) if (forbidden.contains(ref)) out.add(ref);
        return out;
    }

    /** Every Methodref / InterfaceMethodref of a class file's constant pool (JVMS 4.4), as "owner/Class.method". */
    static Set<String> methodRefs(Path classFile) throws IOException {
        try (InputStream raw = Files.newInputStream(classFile); DataInputStream in = new DataInputStream(raw)) {
            if (in.readInt() != 0xCAFEBABE) throw new IOException("not a class file: " + classFile);
            in.readUnsignedShort();
            in.readUnsignedShort();
            int n = in.readUnsignedShort();
            String[] utf8 = new String[n];
            int[] a = new int[n], b = new int[n], tag = new int[n];
            for (int i = 1; i < n; i++) {
                tag[i] = in.readUnsignedByte();
                switch (tag[i]) {
                    case 1 -> utf8[i] = in.readUTF();
                    case 3, 4 -> in.readInt();
                    case 5, 6 -> { in.readLong(); i++; }
                    case 7, 8, 16, 19, 20 -> a[i] = in.readUnsignedShort();
                    case 9, 10, 11, 12, 17, 18 -> { a[i] = in.readUnsignedShort(); b[i] = in.readUnsignedShort(); }
                    case 15 -> { in.readUnsignedByte(); a[i] = in.readUnsignedShort(); }
                    default -> throw new IOException("constant pool tag " + tag[i] + " in " + classFile);
                }
            }
            Set<String> refs = new TreeSet<>();
            for (int i = 1; i < n; i++) {
                if (tag[i] != 10 && tag[i] != 11) continue;
                String owner = utf8[a[a[i]]];
                String name = utf8[a[b[i]]];
                refs.add(owner + "." + name);
            }
            return refs;
        }
    }

    static List<Path> files(Path root, String suffix) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(suffix)).sorted().toList();
        }
    }
}
