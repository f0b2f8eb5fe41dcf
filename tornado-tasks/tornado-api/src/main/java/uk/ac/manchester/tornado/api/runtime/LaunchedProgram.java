package uk.ac.manchester.tornado.api.runtime;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;

/**
 * How {@code scripts/tornado} starts a program from the class path: {@code LaunchedProgram MAIN_CLASS ARGS...} calls
 * {@code MAIN_CLASS.main(ARGS)}. A device property that names no device ({@link DeviceChoiceException}) is the user's
 * mistake, reported in one line with exit code 2; every other exception propagates as it would from the program's own
 * {@code main} (stack trace, exit code 1).
 */
public final class LaunchedProgram {
    private LaunchedProgram() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            System.err.println("tornado: give a main class");
            System.exit(2);
        }
        Method main;
        try {
            Class<?> c = Class.forName(args[0], false, Thread.currentThread().getContextClassLoader());
            main = c.getMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers())) throw new NoSuchMethodException("main is not static");
        } catch (ClassNotFoundException e) {
            System.err.println("tornado: main class " + args[0] + " is not on the class path (-cp)");
            System.exit(2);
            return;
        } catch (NoSuchMethodException e) {
            System.err.println("tornado: " + args[0] + " has no public static void main(String[])");
            System.exit(2);
            return;
        }
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
                if (t instanceof DeviceChoiceException d) {
                    System.err.println("tornado: " + d.getMessage());
                    System.exit(2);
                }
            }
            throw e.getCause();
        }
    }
}
