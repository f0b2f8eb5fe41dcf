package dev.squall.tasks.compiler;

import com.sun.source.tree.Tree;

/** A construct outside the kernel language, reported by javac as an error at {@link #tree}. */
final class KernelLanguageException extends RuntimeException {
    final transient Tree tree;

    KernelLanguageException(Tree tree, String message) {
        super(message, null, false, false);
        this.tree = tree;
    }
}
