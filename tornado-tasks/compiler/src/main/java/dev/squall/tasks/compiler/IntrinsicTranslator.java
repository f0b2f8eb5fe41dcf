package dev.squall.tasks.compiler;

import com.sun.source.tree.*;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;

import javax.lang.model.element.*;
import javax.lang.model.type.*;
import java.util.*;

/**
 * Translates the calls that C spells differently from Java: {@code KernelContext} fields and intrinsics (barriers,
 * fences, sub-group operations, mma, atomics), {@code Math}, {@code KernelMath}, and the bit functions of
 * {@code Integer}, {@code Long}, {@code Float} and {@code Double}.
 */
final class IntrinsicTranslator {
    private final Trees trees;
    private final CDialect d;
    private final Set<String> helpers;
    private final FunctionScope scope;
    private final ExpressionTranslator exprs;

    IntrinsicTranslator(CTranslator program, FunctionScope scope, ExpressionTranslator exprs) {
        this.trees = program.trees;
        this.d = program.d;
        this.helpers = program.helpers;
        this.scope = scope;
        this.exprs = exprs;
    }

    /** A KernelContext id or size field (ctx.globalIdx, ...). */
    String contextField(Tree t, String name) {
        return switch (name) {
            case "globalIdx" -> d.globalId(0);
            case "globalIdy" -> d.globalId(1);
            case "globalIdz" -> d.globalId(2);
            case "localIdx" -> d.localId(0);
            case "localIdy" -> d.localId(1);
            case "localIdz" -> d.localId(2);
            case "groupIdx" -> d.groupId(0);
            case "groupIdy" -> d.groupId(1);
            case "groupIdz" -> d.groupId(2);
            case "globalGroupSizeX" -> d.globalSize(0);
            case "globalGroupSizeY" -> d.globalSize(1);
            case "globalGroupSizeZ" -> d.globalSize(2);
            case "localGroupSizeX" -> d.localSize(0);
            case "localGroupSizeY" -> d.localSize(1);
            case "localGroupSizeZ" -> d.localSize(2);
            default -> throw new KernelLanguageException(t, "KernelContext has no field " + name);
        };
    }

    /** A KernelContext method: barriers, fences, asynchronous copies, sub-group operations, mma, atomics. */
    String contextCall(MethodInvocationTree mi, String name, ExecutableElement m, List<TreePath> args) {
        if (!scope.spmd && scope.kernel) throw new KernelLanguageException(mi, "KernelContext is for SPMD kernels");
        switch (name) {
            case "localBarrier", "globalBarrier" -> {
                scope.noteBarrier();
                return d.barrier();
            }
            case "asyncCopy" -> {
                return asyncCopy(mi, args);
            }
            case "asyncCopyTile" -> {
                return asyncCopyTile(mi, args);
            }
            case "asyncCopyChunk" -> {
                return asyncCopyChunk(mi, args);
            }
            case "asyncCommit" -> {
                if (!scope.kernel) throw new KernelLanguageException(mi, "asynchronous copies are committed in kernels only, not in device "
                        + "functions: call ctx.asyncCommit() in the kernel");
                if (d.hasHelper("sq_async_commit")) helpers.add("sq_async_commit");
                return d.asyncCommit();
            }
            case "asyncWaitGroups" -> {
                if (!scope.kernel) throw new KernelLanguageException(mi, "asynchronous copies are awaited in kernels only, not in device "
                        + "functions: call ctx.asyncWaitGroups(n) in the kernel");
                Long n = exprs.constantValue(args.get(0));
                if (n == null || n < 0 || n > 7) {
                    throw new KernelLanguageException(args.get(0).getLeaf(), "ctx.asyncWaitGroups takes a constant from 0 to 7 (the groups "
                            + "left in flight), not " + args.get(0).getLeaf());
                }
                scope.noteAsyncWait();
                if (d.hasHelper("sq_async_wait_groups")) helpers.add("sq_async_wait_groups");
                return d.asyncWaitGroups(n.intValue());
            }
            case "asyncWait" -> {
                if (!scope.kernel) throw new KernelLanguageException(mi, "asynchronous copies are made and awaited in kernels only, not in "
                        + "device functions: call ctx.asyncWait() in the kernel");
                scope.noteAsyncWait();
                if (d.hasHelper("sq_async_wait")) helpers.add("sq_async_wait");
                return d.asyncWait();
            }
            case "globalFence" -> {
                return d.globalFence();
            }
            case "subgroupSize" -> {
                helpers.add("sq_sgsize");
                return "sq_sgsize()";
            }
            case "subgroupLocalId" -> {
                helpers.add("sq_sglane");
                return "sq_sglane()";
            }
            case "localLinearId" -> {
                helpers.add("sq_lid");
                return "sq_lid()";
            }
            case "shuffle", "shuffleDown", "shuffleXor", "subgroupReduceAdd" -> {
                if (!scope.kernel) throw new KernelLanguageException(mi, "sub-group operations are allowed in kernels only, not in device functions; "
                        + "return the value and shuffle in the kernel");
                TypeKind k = m.getParameters().get(0).asType().getKind();
                String v = exprs.top(args.get(0));
                if (d.needsExchangeBuffer()) scope.useExchangeBuffer();
                if (name.equals("subgroupReduceAdd")) {
                    helpers.add(d.hasHelper("sq_shfl") ? "sq_shfl" : "sq_sg_add_" + CDialect.letter(k));
                    return d.subgroupAdd(k, v);
                }
                String mode = name.equals("shuffleXor") ? "xor" : name.equals("shuffle") ? "idx" : "down";
                helpers.add(d.hasHelper("sq_shfl") ? "sq_shfl" : "sq_shfl_" + mode + "_" + CDialect.letter(k));
                return d.shuffle(mode, k, v, exprs.top(args.get(1)));
            }
            case "mma8x8x4", "mma16x8x4" -> {
                if (!scope.kernel) throw new KernelLanguageException(mi, "sub-group operations are allowed in kernels only, not in device functions; "
                        + "call " + name + " in the kernel");
                // the accumulator is the argument before the last: (a, b, acc, at) or (a0, a1, b, acc, at)
                TreePath acc = args.get(args.size() - 2);
                Element accEl = trees.getElement(acc);
                if (!(LoopNest.strip((ExpressionTree) acc.getLeaf()) instanceof IdentifierTree) || accEl == null || !scope.isPrivateArray(accEl)) {
                    throw new KernelLanguageException(mi, name + " accumulates into a private array of the kernel, by name "
                            + "(double[] acc = new double[K]), not local memory or an expression");
                }
                if (d.needsExchangeBuffer()) scope.useExchangeBuffer();
                String at = exprs.top(args.get(args.size() - 1));
                if (name.equals("mma8x8x4")) {
                    helpers.add("sq_mma884");
                    return d.mma884(exprs.top(args.get(0)), exprs.top(args.get(1)), scope.name(accEl), at);
                }
                helpers.add("sq_mma1684");
                return d.mma1684(exprs.top(args.get(0)), exprs.top(args.get(1)), exprs.top(args.get(2)), scope.name(accEl), at);
            }
            default -> {
            }
        }
        if (name.startsWith("allocate")) {
            String elem = name.replace("allocate", "").replace("LocalArray", "").toLowerCase(Locale.ROOT);
            throw new KernelLanguageException(mi, "local memory is allocated as the initializer of a declaration: " + elem + "[] t = ctx." + name + "(K)");
        }
        if (name.startsWith("atomic")) return atomic(mi, name, m, args);
        if (name.equals("volatileLoad") || name.equals("volatileStore")) return volatileAccess(mi, name, m, args);
        throw new KernelLanguageException(mi, "KernelContext." + name + " is not a kernel intrinsic");
    }

    /** ctx.asyncCopy(local, localOffset, src, srcOffset, count): a work-group copy from a kernel array into local memory. */
    private String asyncCopy(MethodInvocationTree mi, List<TreePath> args) {
        if (!scope.kernel) throw new KernelLanguageException(mi, "asynchronous copies are made in kernels only, not in device functions: "
                + "every work-item of the group makes the same call, in the kernel");
        TreePath dst = args.get(0), src = args.get(2);
        Element de = trees.getElement(dst);
        if (!(LoopNest.strip((ExpressionTree) dst.getLeaf()) instanceof IdentifierTree) || de == null || !scope.isLocalArray(de)) {
            throw new KernelLanguageException(dst.getLeaf(), "asyncCopy copies into local memory: pass an array from ctx.allocate...LocalArray "
                    + "by its name, not a private array (new T[K]) or an expression");
        }
        Element se = trees.getElement(src);
        if (!(LoopNest.strip((ExpressionTree) src.getLeaf()) instanceof IdentifierTree) || se == null || se.getKind() != ElementKind.PARAMETER
                || scope.name(se) == null) {
            throw new KernelLanguageException(src.getLeaf(), "asyncCopy copies from a kernel array parameter (global memory), by its name");
        }
        scope.noteAsyncCopy(mi);
        TypeKind k = ((ArrayType) de.asType()).getComponentType().getKind();
        helpers.add(d.hasHelper("sq_async_copy") ? "sq_async_copy" : "sq_async_copy_" + CDialect.letter(k));
        String dstPtr = "(" + scope.name(de) + " + (" + exprs.top(args.get(1)) + "))";
        String srcPtr = "(" + scope.name(se) + " + (" + exprs.top(args.get(3)) + "))";
        return d.asyncCopy(k, dstPtr, srcPtr, exprs.top(args.get(4)));
    }

    /**
     * ctx.asyncCopyTile(local, localOffset, localStride, src, srcOffset, srcStride, rows, cols, srcRows, srcCols): a work-group
     * copy of a 2-D tile from a kernel array into local memory, zero outside srcRows x srcCols.
     */
    private String asyncCopyTile(MethodInvocationTree mi, List<TreePath> args) {
        if (!scope.kernel) throw new KernelLanguageException(mi, "asynchronous copies are made in kernels only, not in device functions: "
                + "every work-item of the group makes the same call, in the kernel");
        TreePath dst = args.get(0), src = args.get(3);
        Element de = trees.getElement(dst);
        if (!(LoopNest.strip((ExpressionTree) dst.getLeaf()) instanceof IdentifierTree) || de == null || !scope.isLocalArray(de)) {
            throw new KernelLanguageException(dst.getLeaf(), "asyncCopyTile copies into local memory: pass an array from "
                    + "ctx.allocate...LocalArray by its name, not a private array (new T[K]) or an expression");
        }
        Element se = trees.getElement(src);
        if (!(LoopNest.strip((ExpressionTree) src.getLeaf()) instanceof IdentifierTree) || se == null || se.getKind() != ElementKind.PARAMETER
                || scope.name(se) == null) {
            throw new KernelLanguageException(src.getLeaf(), "asyncCopyTile copies from a kernel array parameter (global memory), by its name");
        }
        scope.noteAsyncCopy(mi);
        TypeKind k = ((ArrayType) de.asType()).getComponentType().getKind();
        String h = d.hasHelper("sq_async_tile") ? "sq_async_tile" : "sq_async_tile_" + CDialect.letter(k);
        helpers.add(h);
        List<String> a = new ArrayList<>();
        a.add("(" + scope.name(de) + " + (" + exprs.top(args.get(1)) + "))");
        a.add("(int) (" + exprs.top(args.get(2)) + ")");
        a.add("(" + scope.name(se) + " + (" + exprs.top(args.get(4)) + "))");
        a.add("(" + d.longType() + ") (" + exprs.top(args.get(5)) + ")");
        for (int i = 6; i < 10; i++) a.add("(int) (" + exprs.top(args.get(i)) + ")");
        return h + "(" + String.join(", ", a) + ")";
    }

    /** ctx.asyncCopyChunk(local, localOffset, src, srcOffset, count): this work-item's copy of two doubles into local memory. */
    private String asyncCopyChunk(MethodInvocationTree mi, List<TreePath> args) {
        if (!scope.kernel) throw new KernelLanguageException(mi, "asynchronous copies are made in kernels only, not in device functions: "
                + "call ctx.asyncCopyChunk in the kernel");
        TreePath dst = args.get(0), src = args.get(2);
        Element de = trees.getElement(dst);
        if (!(LoopNest.strip((ExpressionTree) dst.getLeaf()) instanceof IdentifierTree) || de == null || !scope.isLocalArray(de)) {
            throw new KernelLanguageException(dst.getLeaf(), "asyncCopyChunk copies into local memory: pass an array from "
                    + "ctx.allocateDoubleLocalArray by its name, not a private array (new T[K]) or an expression");
        }
        Element se = trees.getElement(src);
        if (!(LoopNest.strip((ExpressionTree) src.getLeaf()) instanceof IdentifierTree) || se == null || se.getKind() != ElementKind.PARAMETER
                || scope.name(se) == null) {
            throw new KernelLanguageException(src.getLeaf(), "asyncCopyChunk copies from a kernel array parameter (global memory), by its name");
        }
        scope.noteAsyncCopy(mi);
        helpers.add("sq_async_chunk");
        return "sq_async_chunk(" + scope.name(de) + " + (" + exprs.top(args.get(1)) + "), " + scope.name(se) + " + (" + exprs.top(args.get(3))
                + "), (int) (" + exprs.top(args.get(4)) + "))";
    }

    private String atomic(MethodInvocationTree mi, String name, ExecutableElement m, List<TreePath> args) {
        TypeMirror at = m.getParameters().get(0).asType();
        TreePath target = args.get(0);
        Element arr = trees.getElement(target);
        if (!(LoopNest.strip((ExpressionTree) target.getLeaf()) instanceof IdentifierTree) || arr == null || scope.name(arr) == null) {
            throw new KernelLanguageException(mi, "the first argument of an atomic is a kernel array parameter or a local array, by name");
        }
        if (scope.isReadOnly(arr)) throw new KernelLanguageException(mi, scope.name(arr) + " is @ReadOnly; atomics write it");
        // a Java array is local memory, unless it is a TornadoVM kernel's array parameter (global)
        String space = !(at instanceof ArrayType) || (arr.getKind() == ElementKind.PARAMETER && scope.kernel) ? "global" : "local";
        TypeKind k = at instanceof ArrayType a ? a.getComponentType().getKind() : KernelTypes.kindOfName(KernelTypes.arrayElement(at));
        String ptr = "&" + scope.name(arr) + "[" + exprs.top(args.get(1)) + "]";
        String v = exprs.top(args.get(2));
        switch (name) {
            case "atomicAdd" -> {
                // OpenCL has no float atomics: a compare-and-swap helper (CUDA has none registered, nor needs one)
                String helper = k == TypeKind.FLOAT || k == TypeKind.DOUBLE ? "sq_atomic_add_" + CDialect.letter(k) + "_" + space : null;
                if (helper != null && d.hasHelper(helper)) helpers.add(helper);
                return d.atomicAdd(k, space, ptr, v);
            }
            case "atomicMin", "atomicMax" -> {
                return d.atomicMinMax(name.equals("atomicMax"), k, space, ptr, v);
            }
            case "atomicCompareAndSwap" -> {
                return d.atomicCas(k, space, ptr, v, exprs.top(args.get(3)));
            }
            default -> throw new KernelLanguageException(mi, "KernelContext." + name + " is not a kernel intrinsic");
        }
    }

    /** ctx.volatileLoad(a, i) and ctx.volatileStore(a, i, v) on a kernel array parameter: device-coherent accesses. */
    private String volatileAccess(MethodInvocationTree mi, String name, ExecutableElement m, List<TreePath> args) {
        TreePath target = args.get(0);
        Element arr = trees.getElement(target);
        if (!(LoopNest.strip((ExpressionTree) target.getLeaf()) instanceof IdentifierTree) || arr == null || arr.getKind() != ElementKind.PARAMETER
                || scope.name(arr) == null || m.getParameters().get(0).asType() instanceof ArrayType) {
            throw new KernelLanguageException(mi, "the first argument of " + name + " is a kernel array parameter (global memory), by name");
        }
        boolean store = name.equals("volatileStore");
        if (store && scope.isReadOnly(arr)) throw new KernelLanguageException(mi, scope.name(arr) + " is @ReadOnly; volatileStore writes it");
        TypeKind k = KernelTypes.kindOfName(KernelTypes.arrayElement(m.getParameters().get(0).asType()));
        String access = d.volatileElement(k, "&" + scope.name(arr) + "[" + exprs.top(args.get(1)) + "]");
        return store ? "(" + access + " = " + exprs.top(args.get(2)) + ")" : access;
    }

    String mathCall(MethodInvocationTree mi, String name, ExecutableElement m, List<TreePath> args) {
        List<String> a = new ArrayList<>();
        List<TypeKind> pk = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            TypeKind k = m.getParameters().get(i).asType().getKind();
            pk.add(k);
            a.add("(" + d.type(k) + ") " + exprs.expr(args.get(i)));
        }
        TypeKind k0 = pk.isEmpty() ? TypeKind.DOUBLE : pk.get(0);
        boolean isFloat = k0 == TypeKind.FLOAT;
        switch (name) {
            case "sqrt", "cbrt", "exp", "expm1", "log", "log1p", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "atan2",
                 "sinh", "cosh", "tanh", "pow", "hypot", "floor", "ceil", "rint", "fma" -> {
                return (isFloat ? d.floatFn(name) : name) + "(" + String.join(", ", a) + ")";
            }
            case "copySign" -> {
                return (isFloat ? d.floatFn("copysign") : "copysign") + "(" + String.join(", ", a) + ")";
            }
            case "abs", "min", "max" -> {
                if (k0 == TypeKind.INT || k0 == TypeKind.LONG) {
                    String h = "sq_" + name + "_" + CDialect.letter(k0);
                    helpers.add(h);
                    return h + "(" + String.join(", ", a) + ")";
                }
                String f = name.equals("abs") ? "fabs" : "f" + name;
                return (isFloat ? d.floatFn(f) : f) + "(" + String.join(", ", a) + ")";
            }
            case "round" -> {
                String h = isFloat ? "sq_round_f" : "sq_round_d";
                helpers.add(h);
                return h + "(" + a.get(0) + ")";
            }
            case "multiplyHigh", "unsignedMultiplyHigh" -> {
                return d.multiplyHigh(name.startsWith("unsigned"), a.get(0), a.get(1));
            }
            case "signum" -> {
                String h = isFloat ? "sq_signum_f" : "sq_signum_d";
                helpers.add(h);
                return h + "(" + a.get(0) + ")";
            }
            default -> throw new KernelLanguageException(mi, "Math." + name + " is not in the kernel language; supported: abs min max sqrt cbrt "
                    + "exp expm1 log log1p log10 sin cos tan asin acos atan atan2 sinh cosh tanh pow hypot floor ceil rint round signum copySign fma "
                    + "multiplyHigh unsignedMultiplyHigh");
        }
    }

    /** TornadoVM's {@code TornadoMath}: Java's Math functions in the arguments' precision, plus clamp, log2 and exp2. */
    String tornadoMathCall(MethodInvocationTree mi, String name, ExecutableElement m, List<TreePath> args) {
        if (m.getParameters().isEmpty()) throw new KernelLanguageException(mi, "TornadoMath." + name + " is not in the kernel language");
        TypeKind k = m.getParameters().get(0).asType().getKind();
        boolean isFloat = k == TypeKind.FLOAT;
        switch (name) {
            case "clamp" -> {
                List<String> a = new ArrayList<>();
                for (TreePath p : args) a.add("(" + d.type(k) + ") " + exprs.expr(p));
                if (k == TypeKind.INT || k == TypeKind.LONG) {
                    String l = CDialect.letter(k);
                    helpers.add("sq_min_" + l);
                    helpers.add("sq_max_" + l);
                    return "sq_min_" + l + "(sq_max_" + l + "(" + a.get(0) + ", " + a.get(1) + "), " + a.get(2) + ")";
                }
                String f = isFloat ? d.floatFn("fmin") : "fmin", g = isFloat ? d.floatFn("fmax") : "fmax";
                return f + "(" + g + "(" + a.get(0) + ", " + a.get(1) + "), " + a.get(2) + ")";
            }
            case "log2", "exp2" -> {
                return (isFloat ? d.floatFn(name) : name) + "((" + d.type(k) + ") " + exprs.expr(args.get(0)) + ")";
            }
            default -> {
                try {
                    return mathCall(mi, name, m, args);
                } catch (KernelLanguageException e) {
                    throw new KernelLanguageException(mi, "TornadoMath." + name + " is not in the kernel language; supported: the Math functions "
                            + "(abs min max sqrt exp log sin cos tan atan atan2 tanh pow floor ceil fma signum ...), clamp, log2, exp2");
                }
            }
        }
    }

    String kernelMathCall(MethodInvocationTree mi, String name, ExecutableElement m, List<TreePath> args) {
        List<String> a = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            a.add("(" + d.type(m.getParameters().get(i).asType().getKind()) + ") " + exprs.expr(args.get(i)));
        }
        boolean isFloat = m.getParameters().get(0).asType().getKind() == TypeKind.FLOAT;
        String fast = d.fast(name);
        if (fast != null) {
            if (fast.startsWith("sq_")) helpers.add(fast);
            return fast + "(" + String.join(", ", a) + ")";
        }
        return switch (name) {
            case "sqrt", "exp", "log", "sin", "cos", "pow", "rsqrt", "fma" -> (isFloat ? d.floatFn(name) : name) + "(" + String.join(", ", a) + ")";
            default -> throw new KernelLanguageException(mi, "KernelMath." + name + " is not a kernel intrinsic");
        };
    }

    String bitsCall(MethodInvocationTree mi, String name, TypeKind k, List<TreePath> args) {
        if (!Set.of("bitCount", "numberOfLeadingZeros", "numberOfTrailingZeros", "lowestOneBit", "highestOneBit", "rotateLeft", "rotateRight").contains(name)) {
            throw new KernelLanguageException(mi, (k == TypeKind.LONG ? "Long." : "Integer.") + name + " is not in the kernel language; "
                    + "supported: bitCount numberOfTrailingZeros numberOfLeadingZeros lowestOneBit highestOneBit rotateLeft rotateRight");
        }
        String l = CDialect.letter(k);
        String x = args.isEmpty() ? "" : "(" + d.type(k) + ") " + exprs.expr(args.get(0));
        switch (name) {
            case "bitCount" -> {
                return d.bitCount(k, x);
            }
            case "numberOfLeadingZeros" -> {
                return d.leadingZeros(k, x);
            }
            case "numberOfTrailingZeros", "lowestOneBit", "highestOneBit" -> {
                String h = "sq_" + switch (name) {
                    case "numberOfTrailingZeros" -> "ntz";
                    case "lowestOneBit" -> "lob";
                    default -> "hob";
                } + "_" + l;
                helpers.add(h);
                return h + "(" + x + ")";
            }
            case "rotateLeft", "rotateRight" -> {
                String h = "sq_rot" + (name.equals("rotateLeft") ? "l" : "r") + "_" + l;
                helpers.add(h);
                return h + "(" + x + ", (int) " + exprs.expr(args.get(1)) + ")";
            }
            default -> throw new KernelLanguageException(mi, (k == TypeKind.LONG ? "Long." : "Integer.") + name + " is not in the kernel language; "
                    + "supported: bitCount numberOfTrailingZeros numberOfLeadingZeros lowestOneBit highestOneBit rotateLeft rotateRight");
        }
    }

    String floatBitsCall(MethodInvocationTree mi, String name, List<TreePath> args) {
        if (!Set.of("floatToRawIntBits", "floatToIntBits", "intBitsToFloat", "doubleToRawLongBits", "doubleToLongBits", "longBitsToDouble").contains(name)) {
            throw new KernelLanguageException(mi, "Float/Double." + name + " is not in the kernel language; supported: "
                    + "floatToRawIntBits intBitsToFloat doubleToRawLongBits longBitsToDouble");
        }
        String x = args.isEmpty() ? "" : exprs.expr(args.get(0));
        return switch (name) {
            case "floatToRawIntBits", "floatToIntBits" -> d.floatToIntBits(x);
            case "intBitsToFloat" -> d.intBitsToFloat(x);
            case "doubleToRawLongBits", "doubleToLongBits" -> d.doubleToLongBits(x);
            case "longBitsToDouble" -> d.longBitsToDouble(x);
            default -> throw new KernelLanguageException(mi, "Float/Double." + name + " is not in the kernel language; supported: "
                    + "floatToRawIntBits intBitsToFloat doubleToRawLongBits longBitsToDouble");
        };
    }
}
