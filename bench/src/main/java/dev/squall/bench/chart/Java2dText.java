package dev.squall.bench.chart;

import java.awt.Graphics2D;
import java.awt.image.BufferedImage;

/**
 * Whether this Java can draw text into an image. Java2D takes its fonts from the host (fontconfig on Linux); a bare
 * GPU server may have none, and then every chart fails inside {@code sun.font}. The charts are the only part of
 * Squall that needs this, so they alone are passed over, with a message that says why.
 */
public final class Java2dText {
    private Java2dText() {
    }

    /** Null when text can be drawn, else the failure that drawing a short string into a small image raised. */
    public static Throwable failure() {
        try {
            BufferedImage img = new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB);
            Graphics2D g = img.createGraphics();
            try {
                g.drawString("x", 0, 6);
                g.getFontMetrics().stringWidth("x");
            } finally {
                g.dispose();
            }
            return null;
        } catch (RuntimeException | Error e) {
            if (!fromJava2d(e)) throw e;
            return e;
        }
    }

    /** True when {@code e} was raised by Java2D's fonts or native libraries rather than by Squall's code. */
    public static boolean fromJava2d(Throwable e) {
        if (e instanceof java.awt.AWTError || e instanceof UnsatisfiedLinkError) return true;
        for (StackTraceElement f : e.getStackTrace()) {
            String c = f.getClassName();
            if (c.startsWith("sun.font.") || c.startsWith("sun.awt.") || c.startsWith("sun.java2d.") || c.startsWith("java.awt.")) return true;
        }
        return false;
    }
}
