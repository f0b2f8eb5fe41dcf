/**
 * The commonly used part of TornadoVM's public API ({@code uk.ac.manchester.tornado.api}) on Squall's runtime, so that
 * TornadoVM programs build with Maven and run on Squall unchanged. Kernels are found and translated at build time by
 * Squall's annotation processor ({@code squall-compiler}): any static method passed to {@code TaskGraph.task} is a kernel.
 * The module is named as TornadoVM's is ({@code tornado.api}), so modular programs keep {@code requires tornado.api;}.
 */
module tornado.api {
    requires transitive dev.squall.tasks.runtime;

    exports uk.ac.manchester.tornado.api;
    exports uk.ac.manchester.tornado.api.annotations;
    exports uk.ac.manchester.tornado.api.common;
    exports uk.ac.manchester.tornado.api.enums;
    exports uk.ac.manchester.tornado.api.exceptions;
    exports uk.ac.manchester.tornado.api.math;
    exports uk.ac.manchester.tornado.api.runtime;
    exports uk.ac.manchester.tornado.api.types.arrays;
    exports uk.ac.manchester.tornado.api.types.collections;
    exports uk.ac.manchester.tornado.api.types.matrix;
    exports uk.ac.manchester.tornado.api.types.vectors;
}
