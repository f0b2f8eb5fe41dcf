package dev.squall.tasks.runtime.jvm;

import dev.squall.tasks.api.KernelContext;
import dev.squall.tasks.api.spi.GeneratedKernels;
import dev.squall.tasks.api.spi.KernelInfo;
import dev.squall.tasks.runtime.DeviceException;
import dev.squall.tasks.runtime.KernelRegistry;
import dev.squall.tasks.runtime.KernelSource;
import dev.squall.tasks.runtime.spi.DeviceKernel;
import dev.squall.tasks.runtime.spi.DeviceProgram;

import java.lang.reflect.Method;
import java.util.List;
import java.util.function.Function;

/**
 * A "program" of the JVM device: nothing is compiled; its kernels launch Java code through {@link JvmKernelRunner}
 * (the compiler's generated launcher and the {@code @Kernel} methods themselves, or a run-time kernel's Java body).
 */
final class JvmProgram implements DeviceProgram {
    /** What a bound launch runs, given the kernel's Java arguments and the grid. */
    interface Launcher {
        void launch(Object[] args, long[] global, long[] local);
    }

    private final Function<String, JvmKernel> kernels;

    private JvmProgram(Function<String, JvmKernel> kernels) {
        this.kernels = kernels;
    }

    /** The compiled kernels of {@code owner}: loop kernels through the generated launcher, SPMD kernels by calling the method per work-item. */
    static JvmProgram compiled(JvmDevice device, Class<?> owner) {
        GeneratedKernels gen = KernelRegistry.generated(owner);
        return new JvmProgram(name -> {
            KernelInfo info = gen.kernels().stream().filter(k -> k.name().equals(name)).findFirst()
                    .orElseThrow(() -> new DeviceException(DeviceException.Kind.NOT_FOUND, "no kernel " + name + " in " + owner.getName()));
            if (info.style() == KernelInfo.Style.LOOP) return new JvmKernel(device, info, (args, global, local) -> JvmKernelRunner.runLoop(gen, info, args));
            Method m = method(owner, name);
            return new JvmKernel(device, info, (args, global, local) -> JvmKernelRunner.runSpmd(gen, m, info, args, global, local));
        });
    }

    /** A run-time kernel whose body is Java. */
    static JvmProgram runtime(JvmDevice device, KernelInfo info, KernelSource.JvmBody body) {
        JvmKernel kernel;
        GeneratedKernels runner = new RuntimeBody(info, body);
        if (info.style() == KernelInfo.Style.LOOP) {
            kernel = new JvmKernel(device, info, (args, global, local) -> JvmKernelRunner.runLoop(runner, info, args));
        } else {
            Method dispatch = method(JvmProgram.class, "dispatch");
            kernel = new JvmKernel(device, info, (args, global, local) -> JvmKernelRunner.runSpmd(runner, dispatch, info,
                    new Object[] {JvmKernelRunner.placeholderContext(), new BodyCall(body, args)}, global, local));
        }
        return new JvmProgram(name -> {
            if (!name.equals(info.name())) throw new DeviceException(DeviceException.Kind.NOT_FOUND, "no kernel " + name + " in runtime kernel " + info.name());
            return kernel;
        });
    }

    @Override
    public DeviceKernel kernel(String name) {
        return kernels.apply(name);
    }

    /** Nothing is compiled on the JVM. */
    @Override
    public double buildMillis() {
        return 0;
    }

    /** Nothing comes from the build cache on the JVM. */
    @Override
    public boolean fromCache() {
        return false;
    }

    private static Method method(Class<?> owner, String name) {
        for (Method m : owner.getDeclaredMethods()) if (m.getName().equals(name)) return m;
        throw new DeviceException(DeviceException.Kind.NOT_FOUND, "no method " + owner.getName() + "::" + name);
    }

    /** A run-time SPMD kernel's body with the launch's arguments: what {@link #dispatch} gets for each work-item. */
    private record BodyCall(KernelSource.JvmBody body, Object[] args) {
    }

    /** Runs one work-item of a run-time SPMD kernel; {@link JvmKernelRunner#runSpmd} calls it with each item's context. */
    @SuppressWarnings("unused")
    private static void dispatch(KernelContext item, BodyCall call) {
        call.body().run(item, call.args());
    }

    /**
     * A run-time kernel's Java body in the shape of the compiler's launchers: a loop kernel runs iterations
     * {@code [0, args[0])}, one body call each; an SPMD kernel has no work-group runner, so its items run one by one
     * (concurrently within a group when it declares barriers) through {@link #dispatch}.
     */
    private record RuntimeBody(KernelInfo info, KernelSource.JvmBody body) implements GeneratedKernels {
        @Override
        public String ownerClass() {
            return "runtime kernel " + info.name();
        }

        @Override
        public List<KernelInfo> kernels() {
            return List.of(info);
        }

        @Override
        public long[] tripCounts(String kernel, Object[] args) {
            long n = ((Number) args[0]).longValue();
            if (n > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("runtime kernel " + info.name() + ": " + n + " iterations exceed the JVM body's int work-item id");
            }
            return new long[] {n};
        }

        @Override
        public void runRange(String kernel, Object[] args, long from, long to) {
            KernelContext item = new KernelContext();
            item.globalGroupSizeX = ((Number) args[0]).intValue();
            for (long i = from; i < to; i++) {
                item.globalIdx = (int) i;
                body.run(item, args);
            }
        }
    }
}
