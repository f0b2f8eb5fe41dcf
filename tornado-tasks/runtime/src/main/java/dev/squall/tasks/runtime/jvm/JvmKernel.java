package dev.squall.tasks.runtime.jvm;

import dev.squall.tasks.api.KernelArray;
import dev.squall.tasks.api.spi.KernelInfo;
import dev.squall.tasks.runtime.spi.BoundLaunch;
import dev.squall.tasks.runtime.spi.DeviceKernel;
import dev.squall.tasks.runtime.spi.KernelArg;
import dev.squall.tasks.runtime.spi.NativeQueue;

/**
 * A kernel of the JVM device. Binding turns the device-order arguments back into the kernel's Java arguments:
 * a buffer is its array (the length after it is dropped), scalars are boxed as the kernel declares them. A launch
 * runs on the runner of the queue it is given ({@link JvmQueue}).
 */
final class JvmKernel implements DeviceKernel {
    private final JvmDevice device;
    private final KernelInfo info;
    private final JvmProgram.Launcher launcher;

    JvmKernel(JvmDevice device, KernelInfo info, JvmProgram.Launcher launcher) {
        this.device = device;
        this.info = info;
        this.launcher = launcher;
    }

    @Override
    public String name() {
        return info.name();
    }

    @Override
    public BoundLaunch bind(KernelArg[] args) {
        Object[] java = new Object[info.parameters().size()];
        int k = 0;
        for (int i = 0; i < java.length; i++) {
            KernelInfo.Param p = info.parameters().get(i);
            if (p.kind() == KernelInfo.Kind.CONTEXT) {
                java[i] = JvmKernelRunner.placeholderContext();
                continue;
            }
            if (k >= args.length) throw tooFew(args.length);
            KernelArg a = args[k++];
            java[i] = switch (p.kind()) {
                case ARRAY -> {
                    KernelArray array = a instanceof KernelArg.Buffer(JvmBuffer b) ? b.array() : null;
                    if (array == null) {
                        throw new IllegalArgumentException("kernel " + info.name() + ": argument " + i + " (" + p.name() + ") must be a Squall array's buffer, got " + a);
                    }
                    if (k >= args.length || !(args[k++] instanceof KernelArg.I64)) throw tooFew(args.length);
                    yield array;
                }
                case SCALAR -> scalar(p, a);
                case CONTEXT -> throw new IllegalStateException("unreachable");
            };
        }
        if (k != args.length) throw new IllegalArgumentException("kernel " + info.name() + " takes " + k + " device arguments, got " + args.length);
        return new BoundLaunch() {
            @Override
            public void launch(long[] global, long[] local) {
                launch(device.defaultQueue(), global, local);
            }

            /** Submits the kernel to the queue's runner; a failure is reported by the queue's next event or synchronize. */
            @Override
            public void launch(NativeQueue queue, long[] global, long[] local) {
                if (!(queue instanceof JvmQueue q) || q.device() != device) {
                    throw new IllegalArgumentException("kernel " + info.name() + " runs on " + device + ", not on " + queue);
                }
                q.submit(() -> launcher.launch(java, global, local));
            }

            @Override
            public void release() {
            }
        };
    }

    /** Nothing to report: the JVM's JIT allocates registers. */
    @Override
    public String resourceReport() {
        return "";
    }

    private Object scalar(KernelInfo.Param p, KernelArg a) {
        Object v = switch (a) {
            case KernelArg.I32(int x) when p.type().equals("boolean") -> x != 0;
            case KernelArg.I32(int x) when p.type().equals("int") -> x;
            case KernelArg.I64(long x) when p.type().equals("long") -> x;
            case KernelArg.F32(float x) when p.type().equals("float") -> x;
            case KernelArg.F64(double x) when p.type().equals("double") -> x;
            case KernelArg.I16(short x) when p.type().equals("short") -> x;
            case KernelArg.I8(byte x) when p.type().equals("byte") -> x;
            default -> null;
        };
        if (v == null) throw new IllegalArgumentException("kernel " + info.name() + ": parameter " + p.name() + " is " + p.type() + ", got " + a);
        return v;
    }

    private IllegalArgumentException tooFew(int got) {
        return new IllegalArgumentException("kernel " + info.name() + " takes more device arguments than the " + got + " given");
    }
}
