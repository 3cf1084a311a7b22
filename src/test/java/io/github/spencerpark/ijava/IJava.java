package io.github.spencerpark.ijava;

/** Test double with IJava's entry-point shape ({@code IJava.getKernelInstance()}), to test Display's detection. */
public final class IJava {
    private static Object kernel;

    public static Object getKernelInstance() {
        return kernel;
    }

    public static void setKernelInstance(Object k) {
        kernel = k;
    }
}
