package io.skillopt4j.env;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RuntimeScratchTest {
    @TempDir Path tmp;

    @Test
    void filesAreWrittenAtTheirFirstUseOnlyAndOnce() throws Exception {
        RuntimeScratch scratch = new RuntimeScratch(tmp.resolve("run"), "demo");
        Path f = scratch.path("tool.py");
        assertEquals(tmp.resolve("run/_demo_runtime/tool.py").toAbsolutePath(), f);
        assertFalse(Files.exists(tmp.resolve("run")), "naming the scratch writes nothing");
        AtomicInteger reads = new AtomicInteger();
        assertEquals(f, scratch.file("tool.py", () -> { reads.incrementAndGet(); return "print(1)\n"; }));
        assertEquals(f, scratch.file("tool.py", () -> { reads.incrementAndGet(); return "print(2)\n"; }));
        assertEquals("print(1)\n", Files.readString(f));
        assertEquals(1, reads.get(), "a file already there is not rewritten");
    }

    @Test
    void aProbeFolderIsRemovedAfterTheCheckPassedOrFailed() {
        Path[] seen = new Path[1];
        assertEquals("ok", RuntimeScratch.probe("demo", dir -> { seen[0] = dir; assertTrue(Files.isDirectory(dir)); return "ok"; }));
        assertFalse(Files.exists(seen[0]));
        assertThrows(IllegalStateException.class, () -> RuntimeScratch.probe("demo", dir -> {
            seen[0] = dir;
            throw new IllegalStateException("no runtime");
        }));
        assertFalse(Files.exists(seen[0]));
    }
}
