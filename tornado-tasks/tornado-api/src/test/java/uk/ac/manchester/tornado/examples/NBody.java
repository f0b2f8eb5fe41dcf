package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.math.TornadoMath;
import uk.ac.manchester.tornado.api.types.collections.VectorFloat4;
import uk.ac.manchester.tornado.api.types.vectors.Float4;

/**
 * One all-pairs gravity step on VectorFloat4 bodies (x, y, z, mass): Float4 locals updated in the inner loop, sub, mult,
 * add, dot and TornadoMath.sqrt, then the velocity and position updates.
 */
public class NBody {
    public static void accelerations(VectorFloat4 bodies, VectorFloat4 acc, float softening) {
        for (@Parallel int i = 0; i < bodies.getLength(); i++) {
            Float4 pi = bodies.get(i);
            Float4 a = new Float4(0f, 0f, 0f, 0f);
            for (int j = 0; j < bodies.getLength(); j++) {
                Float4 pj = bodies.get(j);
                Float4 d = new Float4(pj.getX() - pi.getX(), pj.getY() - pi.getY(), pj.getZ() - pi.getZ(), 0f);
                float r2 = Float4.dot(d, d) + softening;
                float inv = 1.0f / (r2 * TornadoMath.sqrt(r2));
                a = Float4.add(a, Float4.mult(d, pj.getW() * inv));
            }
            acc.set(i, a);
        }
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 8192);
        VectorFloat4 bodies = new VectorFloat4(n), acc = new VectorFloat4(n), expected = new VectorFloat4(n);
        java.util.Random r = new java.util.Random(23);
        for (int i = 0; i < n; i++) bodies.set(i, new Float4(r.nextFloat() * 2 - 1, r.nextFloat() * 2 - 1, r.nextFloat() * 2 - 1, 0.5f + r.nextFloat()));
        float softening = 1e-3f;
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, bodies)
                .task("t0", NBody::accelerations, bodies, acc, softening)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, acc);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            double t = ExampleCheck.time(plan::execute);
            double j = ExampleCheck.time(() -> accelerations(bodies, expected, softening));
            // per body and component: n terms each within a few roundings (sqrt and division within 3 ulp on OpenCL
            // devices, fused operations), summed in the same order: |difference| <= 2 gamma(n + 16) sum|term|
            double worst = 0;
            for (int i = 0; i < n; i++) {
                Float4 pi = bodies.get(i);
                double[] abs = new double[3];
                for (int k = 0; k < n; k++) {
                    Float4 pk = bodies.get(k);
                    double dx = pk.getX() - pi.getX(), dy = pk.getY() - pi.getY(), dz = pk.getZ() - pi.getZ();
                    double r2 = dx * dx + dy * dy + dz * dz + softening, w = pk.getW() / (r2 * Math.sqrt(r2));
                    abs[0] += Math.abs(dx * w);
                    abs[1] += Math.abs(dy * w);
                    abs[2] += Math.abs(dz * w);
                }
                for (int c = 0; c < 3; c++) {
                    double diff = Math.abs(expected.get(i).get(c) - acc.get(i).get(c));
                    worst = Math.max(worst, diff / (2 * ExampleCheck.gammaFloat(n + 16) * abs[c]));
                }
            }
            // the largest difference relative to its own bound: at most 1
            ExampleCheck.finish("NBody", n, plan, t, j, worst, 1.0);
        }
    }
}
