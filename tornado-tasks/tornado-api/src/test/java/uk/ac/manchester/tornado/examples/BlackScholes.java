package uk.ac.manchester.tornado.examples;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/** Black-Scholes call and put prices in double; the normal CDF is a helper method (a device function). */
public class BlackScholes {
    public static void blackScholes(double[] price, double[] strike, double[] call, double[] put) {
        double r = 0.02, v = 0.30, t = 1.5;
        for (@Parallel int i = 0; i < price.length; i++) {
            double d1 = (Math.log(price[i] / strike[i]) + (r + 0.5 * v * v) * t) / (v * Math.sqrt(t));
            double d2 = d1 - v * Math.sqrt(t);
            double discounted = strike[i] * Math.exp(-r * t);
            call[i] = price[i] * cnd(d1) - discounted * cnd(d2);
            put[i] = discounted * cnd(-d2) - price[i] * cnd(-d1);
        }
    }

    /** The cumulative normal distribution (Abramowitz and Stegun 26.2.17, error < 7.5e-8). */
    static double cnd(double x) {
        double l = Math.abs(x);
        double k = 1.0 / (1.0 + 0.2316419 * l);
        double w = 1.0 - 1.0 / Math.sqrt(2 * Math.PI) * Math.exp(-l * l / 2)
                * k * (0.319381530 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
        return x < 0 ? 1.0 - w : w;
    }

    public static void main(String[] args) throws Exception {
        int n = ExampleCheck.size(args, 1_000_000);
        double[] price = new double[n], strike = new double[n], call = new double[n], put = new double[n], ec = new double[n], ep = new double[n];
        java.util.Random rnd = new java.util.Random(7);
        for (int i = 0; i < n; i++) {
            price[i] = 5 + 95 * rnd.nextDouble();
            strike[i] = 5 + 95 * rnd.nextDouble();
        }
        TaskGraph graph = new TaskGraph("s0")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, price, strike)
                .task("t0", BlackScholes::blackScholes, price, strike, call, put)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, call, put);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot())) {
            double t = ExampleCheck.time(plan::execute);
            double j = ExampleCheck.time(() -> blackScholes(price, strike, ec, ep));
            // device log/exp/sqrt are within a few ulp of Java's: relative 1e-12 of prices below 100
            ExampleCheck.finish("BlackScholes", n, plan, t, j, Math.max(ExampleCheck.maxDiff(ec, call), ExampleCheck.maxDiff(ep, put)), 1e-10);
        }
    }
}
