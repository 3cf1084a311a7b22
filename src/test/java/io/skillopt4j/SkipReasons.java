package io.skillopt4j;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Prints one line per skipped test with its reason, so a build without the machine extras some tests need (the
 * shared reference material in ../shared, Chromium, python3 with openpyxl) says in its log what it did not check.
 * Surefire itself only counts skipped tests. Registered through META-INF/services.
 */
public final class SkipReasons implements TestExecutionListener {
    @Override public void executionSkipped(TestIdentifier test, String reason) {
        System.out.println("[SKIPPED] " + test.getLegacyReportingName() + " in " + source(test) + ": " + reason);
    }

    @Override public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() != TestExecutionResult.Status.ABORTED) return;
        String reason = result.getThrowable().map(Throwable::getMessage).orElse("aborted");
        System.out.println("[SKIPPED] " + test.getLegacyReportingName() + " in " + source(test) + ": " + reason);
    }

    private static String source(TestIdentifier test) {
        return test.getSource().map(s -> s instanceof org.junit.platform.engine.support.descriptor.MethodSource m ? m.getClassName()
                : s.toString()).orElse("?");
    }
}
