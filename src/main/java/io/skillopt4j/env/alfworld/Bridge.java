package io.skillopt4j.env.alfworld;

import io.skillopt4j.env.ChildProcess;
import io.skillopt4j.internal.Json;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Not thread-safe; one per episode. A JSON-lines bridge process with a scrubbed environment, killed on close. */
final class Bridge implements AutoCloseable {
    private final Process process;
    private final BufferedWriter in;
    private final BufferedReader out;

    Bridge(List<String> command, Path cwd, String alfworldData) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> env = pb.environment();
        ChildProcess.scrub(env, List.of("PATH", "LANG", "LC_ALL", "TZ"), cwd);
        env.put("PYTHONIOENCODING", "utf-8");
        env.put("PYTHONUNBUFFERED", "1");
        if (alfworldData != null && !alfworldData.isBlank()) env.put("ALFWORLD_DATA", alfworldData);
        java.nio.file.Files.createDirectories(cwd);
        process = pb.start();
        in = process.outputWriter(StandardCharsets.UTF_8);
        out = process.inputReader(StandardCharsets.UTF_8);
    }

    /** Sends one request and returns the reply; a dead bridge or an error reply throws with its one-line reason. */
    Map<String, Object> call(Map<String, Object> request) throws IOException {
        in.write(Json.compact(request));
        in.write('\n');
        in.flush();
        String line = out.readLine();
        if (line == null) throw new IOException("alfworld bridge exited (code " + (process.isAlive() ? "?" : process.exitValue()) + ")");
        Map<String, Object> reply = Json.parseObject(line);
        if (!Boolean.TRUE.equals(reply.get("ok"))) throw new IOException("alfworld bridge: " + reply.get("error"));
        return reply;
    }

    @Override
    public void close() {
        try {
            call(Map.of("cmd", "close"));
        } catch (IOException | RuntimeException ignored) {
            // already gone
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
