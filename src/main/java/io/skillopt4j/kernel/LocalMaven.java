package io.skillopt4j.kernel;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Not thread-safe; one per session. Resolves {@code %maven group:artifact:version} from the local Maven
 * repository only (never the network): the artifact's jar plus its compile and runtime dependencies,
 * transitively, nearest declaration winning as in Maven. POMs are read with their parents, properties,
 * {@code dependencyManagement} and imported BOMs; test, provided, system and optional dependencies and
 * exclusions are left out. Not supported (an error names them): version ranges, and anything Maven
 * would have to download first.
 */
final class LocalMaven {
    /** Thrown with a one-line message for the notebook. */
    static final class MavenException extends RuntimeException {
        MavenException(String message) {
            super(message);
        }
    }

    private record Coord(String group, String artifact, String type, String classifier, String version) {
        String key() {
            return group + ":" + artifact + ":" + type + ":" + classifier;
        }

        String path(String ext) {
            return group.replace('.', '/') + "/" + artifact + "/" + version + "/" + artifact + "-" + version
                    + (classifier.isEmpty() ? "" : "-" + classifier) + "." + ext;
        }

        @Override public String toString() {
            return group + ":" + artifact + ":" + version;
        }
    }

    private record Dep(Coord coord, String scope, boolean optional, Set<String> exclusions) {}

    /** A POM with its parents merged in: what resolution needs. */
    private record Model(Coord coord, String packaging, Map<String, String> props, Map<String, Dep> managed, List<Dep> deps) {}

    private static final Pattern PROPERTY = Pattern.compile("\\$\\{([^}]+)}");

    private final Path repo;
    private final Map<String, Model> models = new HashMap<>();

    LocalMaven(Path repo) {
        this.repo = repo;
    }

    /** The local repository Maven uses: {@code -Dmaven.repo.local}, {@code ~/.m2/settings.xml}'s {@code localRepository}, else {@code ~/.m2/repository}. */
    static Path defaultRepository() {
        String prop = System.getProperty("maven.repo.local");
        if (prop != null && !prop.isBlank()) return Path.of(prop);
        Path m2 = Path.of(System.getProperty("user.home"), ".m2");
        try {
            Path settings = m2.resolve("settings.xml");
            if (Files.isRegularFile(settings)) {
                Matcher m = Pattern.compile("<localRepository>\\s*([^<]+?)\\s*</localRepository>").matcher(Files.readString(settings));
                if (m.find()) return Path.of(m.group(1).replace("${user.home}", System.getProperty("user.home")));
            }
        } catch (java.io.IOException e) {
            // unreadable settings: Maven's default location
        }
        return m2.resolve("repository");
    }

    Path repository() {
        return repo;
    }

    /** The jars of {@code coordinates} ({@code g:a:v}, {@code g:a:type:v} or {@code g:a:type:classifier:v}) and its dependencies, root first. */
    List<Path> resolve(String coordinates) {
        Coord root = parse(coordinates);
        Map<String, Path> jars = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        record Todo(Coord coord, Set<String> exclusions) {}
        Deque<Todo> queue = new ArrayDeque<>(List.of(new Todo(root, Set.of())));
        seen.add(root.group() + ":" + root.artifact());
        while (!queue.isEmpty()) {
            Todo t = queue.removeFirst();
            Model m = model(t.coord(), t.coord() == root ? null : root);
            if (!t.coord().type().equals("pom") && !"pom".equals(m.packaging())) {
                Path jar = repo.resolve(t.coord().path("jar"));
                if (!Files.isRegularFile(jar)) {
                    throw new MavenException(t.coord() + " has a POM but no jar in " + repo + " (" + jar.getFileName() + ")");
                }
                jars.put(t.coord().key(), jar);
            }
            for (Dep d : m.deps()) {
                if (d.optional() || !(d.scope().equals("compile") || d.scope().equals("runtime"))) continue;
                String ga = d.coord().group() + ":" + d.coord().artifact();
                if (t.exclusions().contains(ga) || t.exclusions().contains(d.coord().group() + ":*") || !seen.add(ga)) continue;
                Set<String> ex = new HashSet<>(t.exclusions());
                ex.addAll(d.exclusions());
                queue.addLast(new Todo(d.coord(), ex));
            }
        }
        return List.copyOf(jars.values());
    }

    private static Coord parse(String s) {
        String[] p = s.strip().split(":");
        return switch (p.length) {
            case 3 -> new Coord(p[0], p[1], "jar", "", p[2]);
            case 4 -> new Coord(p[0], p[1], p[2], "", p[3]);
            case 5 -> new Coord(p[0], p[1], p[2], p[3], p[4]);
            default -> throw new MavenException("'" + s + "' is not group:artifact:version (or group:artifact:type[:classifier]:version)");
        };
    }

    private Model model(Coord c, Coord requestedBy) {
        String key = c.group() + ":" + c.artifact() + ":" + c.version();
        Model cached = models.get(key);
        if (cached != null) return cached;
        if (c.version().isEmpty() || c.version().startsWith("[") || c.version().startsWith("(") || c.version().contains("${")) {
            throw new MavenException("cannot resolve version '" + c.version() + "' of " + c.group() + ":" + c.artifact()
                    + " (version ranges and unset versions are not supported)");
        }
        Path pom = repo.resolve(new Coord(c.group(), c.artifact(), "pom", "", c.version()).path("pom"));
        if (!Files.isRegularFile(pom)) {
            throw new MavenException(c + " is not in the local Maven repository " + repo
                    + (requestedBy == null ? " (mvn install it first)" : " (needed by " + requestedBy + ")"));
        }
        Element project;
        try {
            var f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(false);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document doc = f.newDocumentBuilder().parse(pom.toFile());
            project = doc.getDocumentElement();
        } catch (Exception e) {
            throw new MavenException("cannot read " + pom + ": " + e.getMessage());
        }
        Element parentEl = child(project, "parent");
        Model parent = null;
        if (parentEl != null) {
            parent = model(new Coord(text(parentEl, "groupId"), text(parentEl, "artifactId"), "pom", "", text(parentEl, "version")), c);
        }
        String group = or(text(project, "groupId"), parent == null ? c.group() : parent.coord().group());
        String version = or(text(project, "version"), parent == null ? c.version() : parent.coord().version());
        Map<String, String> props = new HashMap<>(parent == null ? Map.of() : parent.props());
        Element propsEl = child(project, "properties");
        if (propsEl != null) for (Element p : children(propsEl)) props.put(p.getTagName(), p.getTextContent().strip());
        props.put("project.groupId", group);
        props.put("project.artifactId", c.artifact());
        props.put("project.version", version);
        props.put("pom.version", version);
        props.put("version", version);
        if (parent != null) props.put("project.parent.version", parent.coord().version());
        Map<String, Dep> managed = new LinkedHashMap<>();
        Element dm = child(project, "dependencyManagement");
        List<Dep> imports = new ArrayList<>();
        if (dm != null && child(dm, "dependencies") != null) {
            for (Element d : children(child(dm, "dependencies"))) {
                Dep dep = dep(d, props, Map.of(), c);
                if (dep.scope().equals("import")) imports.add(dep);
                else managed.put(dep.coord().key(), dep);
            }
        }
        for (Dep bom : imports) model(bom.coord(), c).managed().forEach(managed::putIfAbsent);
        if (parent != null) parent.managed().forEach(managed::putIfAbsent);
        Map<String, Dep> deps = new LinkedHashMap<>();
        Element depsEl = child(project, "dependencies");
        if (depsEl != null) for (Element d : children(depsEl)) {
            Dep dep = dep(d, props, managed, c);
            deps.put(dep.coord().key(), dep);
        }
        if (parent != null) for (Dep d : parent.deps()) deps.putIfAbsent(d.coord().key(), d);
        Model m = new Model(new Coord(group, c.artifact(), c.type(), c.classifier(), version),
                or(text(project, "packaging"), "jar"), props, managed, List.copyOf(deps.values()));
        models.put(key, m);
        return m;
    }

    private Dep dep(Element d, Map<String, String> props, Map<String, Dep> managed, Coord owner) {
        String g = interpolate(text(d, "groupId"), props), a = interpolate(text(d, "artifactId"), props);
        String type = or(interpolate(text(d, "type"), props), "jar"), cls = or(interpolate(text(d, "classifier"), props), "");
        Dep m = managed.get(g + ":" + a + ":" + type + ":" + cls);
        String v = or(interpolate(text(d, "version"), props), m == null ? "" : m.coord().version());
        String scope = or(interpolate(text(d, "scope"), props), m == null ? "compile" : m.scope());
        Set<String> ex = new HashSet<>(m == null ? Set.of() : m.exclusions());
        Element exEl = child(d, "exclusions");
        if (exEl != null) for (Element e : children(exEl)) ex.add(text(e, "groupId") + ":" + text(e, "artifactId"));
        if (v.isEmpty() && !scope.equals("test") && !scope.equals("provided")) {
            throw new MavenException(owner + " declares " + g + ":" + a + " without a version that can be found");
        }
        return new Dep(new Coord(g, a, type, cls, v), scope, "true".equals(interpolate(text(d, "optional"), props)), ex);
    }

    private static String interpolate(String s, Map<String, String> props) {
        if (s == null || !s.contains("${")) return s;
        for (int round = 0; round < 10 && s.contains("${"); round++) {
            Matcher m = PROPERTY.matcher(s);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                String v = props.getOrDefault(m.group(1), System.getProperty(m.group(1)));
                m.appendReplacement(sb, Matcher.quoteReplacement(v == null ? m.group() : v));
            }
            m.appendTail(sb);
            if (sb.toString().equals(s)) break;
            s = sb.toString();
        }
        return s;
    }

    private static String or(String s, String fallback) {
        return s == null || s.isEmpty() ? fallback : s;
    }

    private static Element child(Element e, String name) {
        for (Element c : children(e)) if (c.getTagName().equals(name)) return c;
        return null;
    }

    private static String text(Element e, String name) {
        Element c = child(e, name);
        return c == null ? null : c.getTextContent().strip();
    }

    private static List<Element> children(Element e) {
        List<Element> out = new ArrayList<>();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) if (n instanceof Element el) out.add(el);
        return out;
    }
}
