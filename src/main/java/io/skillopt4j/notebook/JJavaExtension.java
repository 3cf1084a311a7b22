package io.skillopt4j.notebook;

import org.dflib.jjava.jupyter.Extension;
import org.dflib.jjava.jupyter.kernel.BaseKernel;

/**
 * Stateless. Plugs the toolkit into JJava (IJava's maintained successor): JJava finds this class through
 * {@code META-INF/services/org.dflib.jjava.jupyter.Extension} when {@code %classpath}, {@code %maven} or
 * {@code JJAVA_CLASSPATH} adds our jar, and calls {@link #install}. Afterwards the session has the same
 * imports as the SkillOpt4J kernel and renders tables as HTML, plots as PNG, skills as Markdown and diffs
 * as HTML; no {@code Display.register()} in a cell. Only JJava loads this class (it is compiled against
 * JJava's API jar, which the toolkit does not ship).
 */
public final class JJavaExtension implements Extension {
    @Override public void install(BaseKernel kernel) {
        Display.attach(kernel);
        Display.register();
        // evalRaw exists in every JJava from 1.0-a6 on (deprecated later in favour of evalBuilder, same effect).
        kernel.evalRaw(Startup.session());
    }

    @Override public void uninstall(BaseKernel kernel) {
        Display.detach(kernel);
    }
}
