package io.skillopt4j.notebook;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Not thread-safe; {@link Display} guards it. A reflective binding to a running kernel built on
 * jupyter-jvm-basekernel (IJava, ours) or JJava's fork of it, so no kernel jar is needed at run time. Their
 * display APIs differ only in package names, which are read off the kernel's {@code BaseKernel} superclass.
 */
final class KernelBridge {
    /** How to find a kernel: a class with a static accessor for the running instance. */
    record Flavor(String name, String entryClass, String accessor) {}

    static final List<Flavor> FLAVORS = List.of(
            new Flavor("jjava", "org.dflib.jjava.kernel.JavaNotebookStatics", "kernel"),
            // any kernel built on JJava's base (the accessor exists from 1.0-a6 on)
            new Flavor("jjava", "org.dflib.jjava.jupyter.kernel.BaseKernel", "notebookKernel"),
            new Flavor("ijava", "io.github.spencerpark.ijava.IJava", "getKernelInstance"));

    final Flavor flavor;
    final Object kernel;
    private final Object renderer;
    private final Class<?> renderFunction;
    private final Method createRegistration;
    private final Method render;
    private final Method display;
    private final Class<?> displayData;
    private final Set<Class<?>> registered = new HashSet<>();

    private KernelBridge(Flavor flavor, Object kernel) throws ReflectiveOperationException {
        this.flavor = flavor;
        this.kernel = kernel;
        this.renderer = kernel.getClass().getMethod("getRenderer").invoke(kernel);
        ClassLoader cl = renderer.getClass().getClassLoader();
        String display = basePackage(kernel.getClass()) + ".kernel.display.";
        this.renderFunction = Class.forName(display + "RenderFunction", false, cl);
        this.displayData = Class.forName(display + "DisplayData", false, cl);
        this.createRegistration = renderer.getClass().getMethod("createRegistration", Class.class);
        this.render = renderer.getClass().getMethod("render", Object.class);
        this.display = kernel.getClass().getMethod("display", displayData);
    }

    /** {@code io.github.spencerpark.jupyter} or {@code org.dflib.jjava.jupyter}: the package above {@code BaseKernel}'s. */
    private static String basePackage(Class<?> kernelClass) throws ClassNotFoundException {
        for (Class<?> c = kernelClass; c != null; c = c.getSuperclass()) {
            if (c.getSimpleName().equals("BaseKernel") && c.getPackageName().endsWith(".kernel")) {
                return c.getPackageName().substring(0, c.getPackageName().length() - ".kernel".length());
            }
        }
        throw new ClassNotFoundException(kernelClass.getName() + " does not extend a jupyter-jvm-basekernel BaseKernel");
    }

    /** The flavour of a kernel that announced itself: JJava's base, IJava, else (our kernel) {@code skillopt}. */
    static Flavor attachedFlavor(Object kernel) {
        for (Class<?> c = kernel.getClass(); c != null; c = c.getSuperclass()) {
            if (c.getName().startsWith("org.dflib.jjava.")) return new Flavor("jjava", "", "");
            if (c.getName().startsWith("io.github.spencerpark.ijava.")) return new Flavor("ijava", "", "");
        }
        return new Flavor("skillopt", "", "");
    }

    /** The running kernel: the attached one, else JJava or IJava if this JVM hosts one. */
    static Optional<KernelBridge> detect(Object attached) {
        if (attached != null) {
            try {
                return Optional.of(new KernelBridge(attachedFlavor(attached), attached));
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new IllegalStateException("the attached kernel has no basekernel display API: " + e, e);
            }
        }
        for (Flavor f : FLAVORS) {
            Object kernel = instance(f);
            if (kernel == null) continue;
            try {
                return Optional.of(new KernelBridge(f, kernel));
            } catch (ReflectiveOperationException | RuntimeException e) {
                System.err.println("skillopt: found a " + f.name() + " kernel but cannot bind its display API ("
                        + e + "); falling back to text output");
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    boolean isStale(Object attached) {
        if (attached != null || flavor.entryClass().isEmpty()) return attached != kernel;
        return instance(flavor) != kernel;
    }

    private static Object instance(Flavor f) {
        for (ClassLoader cl : new ClassLoader[] {KernelBridge.class.getClassLoader(), Thread.currentThread().getContextClassLoader()}) {
            if (cl == null) continue;
            try {
                Class<?> c = Class.forName(f.entryClass(), true, cl);
                return c.getMethod(f.accessor()).invoke(null);
            } catch (ClassNotFoundException | LinkageError e) {
                // this flavour is not on the class path: try the next loader / flavour
            } catch (ReflectiveOperationException e) {
                return null; // JJava's accessors throw when no kernel runs
            }
        }
        return null;
    }

    /** Registers {@code fn} for {@code type} with the kernel's renderer, once per type. */
    void register(Class<?> type, String preferredMime, Function<Object, Rendering> fn) {
        if (!registered.add(type)) return;
        try {
            Object reg = createRegistration.invoke(renderer, type);
            reg.getClass().getMethod("preferring", String[].class).invoke(reg, (Object) new String[] {preferredMime});
            reg.getClass().getMethod("supporting", String[].class).invoke(reg, (Object) new String[] {Rendering.TEXT});
            Object function = Proxy.newProxyInstance(renderFunction.getClassLoader(), new Class<?>[] {renderFunction}, handler(fn));
            reg.getClass().getMethod("register", renderFunction).invoke(reg, function);
        } catch (ReflectiveOperationException e) {
            registered.remove(type);
            throw fail("register a renderer for " + type.getName() + " with", e);
        }
    }

    private static InvocationHandler handler(Function<Object, Rendering> fn) {
        return (proxy, method, args) -> switch (method.getName()) {
            case "render" -> {
                Rendering r = fn.apply(args[0]);
                Object out = args[1].getClass().getMethod("getOutputContainer").invoke(args[1]);
                Method put = out.getClass().getMethod("putData", String.class, Object.class);
                for (Map.Entry<String, String> e : r.data().entrySet()) put.invoke(out, e.getKey(), e.getValue());
                yield null;
            }
            case "equals" -> proxy == args[0];
            case "hashCode" -> System.identityHashCode(proxy);
            case "toString" -> "skillopt render function";
            default -> throw new UnsupportedOperationException(method.getName());
        };
    }

    /** Publishes {@code value} as {@code display_data}; with a {@code displayId}, {@link #update} replaces it. */
    void display(Object value, String displayId) {
        try {
            Object data = displayData.isInstance(value) ? value : render.invoke(renderer, value);
            if (displayId != null) data.getClass().getMethod("setDisplayId", String.class).invoke(data, displayId);
            display.invoke(kernel, data);
        } catch (ReflectiveOperationException e) {
            throw fail("display through", e);
        }
    }

    /** basekernel sends {@code update_display_data} through {@code getIO().display}; a kernel's own method wins. */
    void update(Object value, String displayId) {
        try {
            Object data = render.invoke(renderer, value);
            try {
                kernel.getClass().getMethod("updateDisplay", String.class, displayData).invoke(kernel, displayId, data);
            } catch (NoSuchMethodException basekernel) {
                Object io = kernel.getClass().getMethod("getIO").invoke(kernel);
                Object stream = io.getClass().getField("display").get(io);
                stream.getClass().getMethod("updateDisplay", String.class, displayData).invoke(stream, displayId, data);
            }
        } catch (ReflectiveOperationException e) {
            throw fail("update a display through", e);
        }
    }

    private IllegalStateException fail(String what, ReflectiveOperationException e) {
        Throwable cause = e instanceof InvocationTargetException ite && ite.getCause() != null ? ite.getCause() : e;
        return new IllegalStateException("cannot " + what + " the " + flavor.name() + " kernel: " + cause, e);
    }
}
