package io.skillopt4j.kernel;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarOutputStream;

import static org.junit.jupiter.api.Assertions.*;

/** %maven's resolver (Maven Resolver, offline here) on a small local repository laid out as Maven lays it out. */
class LocalMavenTest {
    @TempDir Path dir;

    /**
     * A repository where org.example:app:1.0 (parent org.example:parent:1, which manages lib's version and
     * imports a BOM for extra's) depends on lib, extra (excluding unwanted), lib-util 1.5, plus test,
     * optional and provided dependencies that must be left out; lib 2 wants lib-util 1.0 (the nearer 1.5 wins).
     */
    static Path repo(Path repo) throws IOException {
        pom(repo, "parent", "1", "pom", """
                <properties><lib.version>2</lib.version></properties>
                <dependencyManagement><dependencies>
                  <dependency><groupId>org.example</groupId><artifactId>lib</artifactId><version>${lib.version}</version></dependency>
                  <dependency><groupId>org.example</groupId><artifactId>bom</artifactId><version>1</version><type>pom</type><scope>import</scope></dependency>
                </dependencies></dependencyManagement>""");
        pom(repo, "bom", "1", "pom", """
                <dependencyManagement><dependencies>
                  <dependency><groupId>org.example</groupId><artifactId>extra</artifactId><version>3</version></dependency>
                </dependencies></dependencyManagement>""");
        pom(repo, "app", "1.0", "jar", """
                <parent><groupId>org.example</groupId><artifactId>parent</artifactId><version>1</version></parent>
                <dependencies>
                  <dependency><groupId>org.example</groupId><artifactId>lib</artifactId></dependency>
                  <dependency><groupId>org.example</groupId><artifactId>extra</artifactId>
                    <exclusions><exclusion><groupId>org.example</groupId><artifactId>unwanted</artifactId></exclusion></exclusions></dependency>
                  <dependency><groupId>org.example</groupId><artifactId>lib-util</artifactId><version>1.5</version></dependency>
                  <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13</version><scope>test</scope></dependency>
                  <dependency><groupId>org.example</groupId><artifactId>opt</artifactId><version>1</version><optional>true</optional></dependency>
                  <dependency><groupId>org.example</groupId><artifactId>prov</artifactId><version>1</version><scope>provided</scope></dependency>
                </dependencies>""");
        pom(repo, "lib", "2", "jar", """
                <dependencies><dependency><groupId>org.example</groupId><artifactId>lib-util</artifactId><version>1.0</version></dependency></dependencies>""");
        pom(repo, "extra", "3", "jar", """
                <dependencies><dependency><groupId>org.example</groupId><artifactId>unwanted</artifactId><version>1</version></dependency></dependencies>""");
        pom(repo, "lib-util", "1.5", "jar", "");
        TestJars.jar(jar(repo, "app", "1.0"), "org.example.app.App", """
                package org.example.app;
                public class App {
                    public static String describe() throws Exception {
                        return "app uses lib " + Class.forName("org.example.lib.Lib").getMethod("version").invoke(null);
                    }
                }""");
        TestJars.jar(jar(repo, "lib", "2"), "org.example.lib.Lib",
                "package org.example.lib; public class Lib { public static int version() { return 2; } }");
        emptyJar(jar(repo, "extra", "3"));
        emptyJar(jar(repo, "lib-util", "1.5"));
        return repo;
    }

    private static void pom(Path repo, String artifact, String version, String packaging, String body) throws IOException {
        Path pom = repo.resolve("org/example/" + artifact + "/" + version + "/" + artifact + "-" + version + ".pom");
        Files.createDirectories(pom.getParent());
        Files.writeString(pom, "<project xmlns=\"http://maven.apache.org/POM/4.0.0\"><modelVersion>4.0.0</modelVersion>"
                + "<groupId>org.example</groupId><artifactId>" + artifact + "</artifactId><version>" + version + "</version>"
                + "<packaging>" + packaging + "</packaging>" + body + "</project>");
    }

    private static Path jar(Path repo, String artifact, String version) {
        return repo.resolve("org/example/" + artifact + "/" + version + "/" + artifact + "-" + version + ".jar");
    }

    private static void emptyJar(Path jar) throws IOException {
        try (OutputStream os = Files.newOutputStream(jar); JarOutputStream jos = new JarOutputStream(os)) {
            jos.flush();
        }
    }

    @Test void resolvesTransitivelyWithManagementBomsExclusionsAndNearestWins() throws Exception {
        Path repo = repo(dir);
        List<String> names = new LocalMaven(repo, true).resolve("org.example:app:1.0").stream().map(p -> p.getFileName().toString()).toList();
        assertEquals(List.of("app-1.0.jar", "lib-2.jar", "extra-3.jar", "lib-util-1.5.jar"), names);
    }

    @Test void aMissingArtifactIsOneLineNamingItAndTheRepository() throws Exception {
        Path repo = repo(dir);
        Files.delete(dir.resolve("org/example/lib-util/1.5/lib-util-1.5.jar"));
        var e = assertThrows(LocalMaven.MavenException.class, () -> new LocalMaven(repo, true).resolve("org.example:app:1.0"));
        assertTrue(e.getMessage().contains("org.example:lib-util:jar:1.5") && e.getMessage().contains(repo + ", offline"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        var top = assertThrows(LocalMaven.MavenException.class, () -> new LocalMaven(repo, true).resolve("org.example:nothing:1"));
        assertTrue(top.getMessage().contains("org.example:nothing"), top.getMessage());
    }

    @Test void badCoordinatesAreAnErrorAndRangesResolveFromTheRepositoryMetadata() throws Exception {
        var e = assertThrows(LocalMaven.MavenException.class, () -> new LocalMaven(dir, true).resolve("just-a-name"));
        assertTrue(e.getMessage().contains("is not group:artifact:version"), e.getMessage());
        Path repo = repo(dir);
        Files.writeString(repo.resolve("org/example/lib-util/maven-metadata-local.xml"), """
                <metadata><groupId>org.example</groupId><artifactId>lib-util</artifactId>
                  <versioning><versions><version>1.5</version></versions></versioning></metadata>""");
        List<String> names = new LocalMaven(repo, true).resolve("org.example:lib-util:[1.0,2)").stream().map(p -> p.getFileName().toString()).toList();
        assertEquals(List.of("lib-util-1.5.jar"), names);
    }

    @Test void resolvesARealArtifactFromThisMachinesRepository() {
        // Tablesaw is a dependency of this build, so it is in the local repository wherever the tests run.
        List<String> names = new LocalMaven(LocalMaven.defaultRepository(), true).resolve("tech.tablesaw:tablesaw-core:0.44.4")
                .stream().map(p -> p.getFileName().toString()).toList();
        assertEquals("tablesaw-core-0.44.4.jar", names.get(0));
        assertTrue(names.stream().anyMatch(n -> n.startsWith("RoaringBitmap-")), names.toString());
        assertTrue(names.stream().noneMatch(n -> n.startsWith("junit")), names.toString());
    }
}
