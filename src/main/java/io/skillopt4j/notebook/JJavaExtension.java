package io.skillopt4j.notebook;

import org.dflib.jjava.jupyter.Extension;
import org.dflib.jjava.jupyter.kernel.BaseKernel;

/**
 * Stateless. Plugs the toolkit into JJava, which finds this class through {@code META-INF/services} when our jar
 * is added: the session gets our kernel's imports and renderers. Only JJava loads it (we do not ship its API jar).
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
