package io.skillopt4j.notebook;

import io.github.spencerpark.jupyter.kernel.BaseKernel;
import io.github.spencerpark.jupyter.kernel.LanguageInfo;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;

import java.util.ArrayList;
import java.util.List;

/** Not thread-safe. A basekernel kernel that is never connected and records what cells display. */
final class RecordingKernel extends BaseKernel {
    final List<DisplayData> displayed = new ArrayList<>();
    final List<DisplayData> updates = new ArrayList<>();

    @Override public DisplayData eval(String expr) {
        throw new UnsupportedOperationException();
    }

    @Override public LanguageInfo getLanguageInfo() {
        return new LanguageInfo("java", "17", "text/x-java", ".jshell", "java", "java", "java");
    }

    @Override public void display(DisplayData data) {
        displayed.add(data);
    }

    /** Stands in for basekernel's {@code getIO().display.updateDisplay}, which needs a connected kernel. */
    public void updateDisplay(String id, DisplayData data) {
        data.setDisplayId(id);
        updates.add(data);
    }
}
