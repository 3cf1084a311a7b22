package io.skillopt4j.kernel;

import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.artifact.Artifact;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.collection.CollectRequest;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.resolution.ArtifactResult;
import org.eclipse.aether.resolution.DependencyRequest;
import org.eclipse.aether.resolution.DependencyResolutionException;
import org.eclipse.aether.supplier.RepositorySystemSupplier;
import org.eclipse.aether.supplier.SessionBuilderSupplier;
import org.eclipse.aether.util.artifact.JavaScopes;
import org.eclipse.aether.util.filter.DependencyFilterUtils;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Not thread-safe; one per session. Resolves {@code %maven group:artifact:version} with Maven Resolver configured
 * as Maven 3 does: the jar plus its compile and runtime dependencies, transitively, from the local repository and,
 * unless offline, Maven Central. The local repository and offline mode come from Maven's own settings.
 */
final class LocalMaven {
    /** Thrown with a one-line message for the notebook. */
    static final class MavenException extends RuntimeException {
        MavenException(String message) {
            super(message);
        }
    }

    static final String CENTRAL = "https://repo.maven.apache.org/maven2/";

    private final Path repo;
    private final boolean offline;
    private RepositorySystem system; // built at the first %maven: a session that never uses it never loads it

    LocalMaven(Path repo, boolean offline) {
        this.repo = repo;
        this.offline = offline;
    }

    /** The local repository and offline mode of Maven's settings, Maven Central as the remote. */
    static LocalMaven fromSettings() {
        return new LocalMaven(defaultRepository(), "true".equals(setting("offline")));
    }

    /** {@code -Dmaven.repo.local}, settings.xml's {@code localRepository}, else {@code ~/.m2/repository}. */
    static Path defaultRepository() {
        String prop = System.getProperty("maven.repo.local");
        if (prop != null && !prop.isBlank()) return Path.of(prop);
        String local = setting("localRepository");
        if (local != null) return Path.of(local.replace("${user.home}", System.getProperty("user.home")));
        return Path.of(System.getProperty("user.home"), ".m2", "repository");
    }

    /** A top-level element of {@code ~/.m2/settings.xml}, trimmed; null when absent, empty or unreadable. */
    private static String setting(String name) {
        Path settings = Path.of(System.getProperty("user.home"), ".m2", "settings.xml");
        if (!Files.isRegularFile(settings)) return null;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document doc = f.newDocumentBuilder().parse(settings.toFile());
            NodeList nodes = doc.getDocumentElement().getElementsByTagName(name);
            String text = nodes.getLength() == 0 ? "" : nodes.item(0).getTextContent().strip();
            return text.isEmpty() ? null : text;
        } catch (Exception unreadable) {
            return null; // Maven would refuse the file; %maven then uses Maven's defaults
        }
    }

    /** The jars of {@code coordinates} ({@code g:a:v}, {@code g:a:ext:v} or {@code g:a:ext:classifier:v}) and its dependencies, root first. */
    List<Path> resolve(String coordinates) {
        DefaultArtifact artifact;
        try {
            artifact = new DefaultArtifact(coordinates.strip());
        } catch (IllegalArgumentException e) {
            throw new MavenException("'" + coordinates + "' is not group:artifact:version (or group:artifact:extension[:classifier]:version)");
        }
        if (system == null) system = new RepositorySystemSupplier().get();
        List<RemoteRepository> remotes = List.of(new RemoteRepository.Builder("central", "default", CENTRAL).build());
        // a dependency, not the root: its own optional and test dependencies stay out, as in a POM
        CollectRequest collect = new CollectRequest(List.of(new Dependency(artifact, JavaScopes.COMPILE)), List.of(), remotes);
        DependencyRequest request = new DependencyRequest(collect, DependencyFilterUtils.classpathFilter(JavaScopes.RUNTIME));
        try (RepositorySystemSession.CloseableSession session = new SessionBuilderSupplier(system).get()
                .withLocalRepositoryBaseDirectories(repo).setOffline(offline).setSystemProperties(System.getProperties()).build()) {
            return system.resolveDependencies(session, request).getArtifactResults().stream()
                    .map(ArtifactResult::getArtifact).filter(a -> a != null && a.getPath() != null)
                    .map(Artifact::getPath).toList();
        } catch (DependencyResolutionException e) {
            throw new MavenException(oneLine(e) + " (local repository " + repo + (offline ? ", offline" : ", then " + CENTRAL) + ")");
        }
    }

    /** The resolver's own message and, when it adds something, its innermost cause's, on one line. */
    private static String oneLine(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        String top = String.valueOf(e.getMessage()), inner = t.getMessage() == null ? t.toString() : t.getMessage();
        return (top.contains(inner) ? top : top + ": " + inner).replaceAll("\\s+", " ").strip();
    }
}
