package dev.squall.bench.chart;

import dev.squall.bench.suite.Measurement;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The charts of {@code squall bench}, drawn with XChart and written as SVG and PNG: bars of the median time of each
 * workload (at the largest size the suite ran) per device, and per workload the scaling of the median time with the
 * problem size, a line per device. Both time axes are logarithmic: workloads and devices differ by orders of magnitude.
 */
public final class BenchCharts {
    private BenchCharts() {
    }

    /**
     * Writes {@code bars-SUITE} and {@code scaling-SUITE-WORKLOAD} for each workload ({@code scaling-WORKLOAD} when the
     * suite is that workload), as .svg and .png, into {@code dir}; returns the files.
     */
    public static List<Path> write(Path dir, String suite, List<Measurement> rows) throws IOException {
        List<Path> files = new ArrayList<>(save(bars(suite, rows), dir.resolve("bars-" + suite)));
        for (String w : workloads(rows)) {
            String name = w.equals(suite) ? "scaling-" + w : "scaling-" + suite + "-" + w;
            files.addAll(save(scaling(w, rows.stream().filter(m -> m.workload().equals(w)).toList()), dir.resolve(name)));
        }
        return files;
    }

    /** Bars: a group per workload (its largest size), a bar per device, the median time in ms. */
    public static CategoryChart bars(String suite, List<Measurement> rows) {
        CategoryChart c = new CategoryChartBuilder().width(1000).height(520).title("squall bench " + suite + ": median time at the largest size (lower is better)")
                .xAxisTitle("workload").yAxisTitle("ms (log scale)").build();
        style(c.getStyler());
        c.getStyler().setYAxisLogarithmic(true);
        c.getStyler().setXAxisLabelRotation(20);
        List<String> workloads = workloads(rows);
        Map<String, List<Double>> series = new LinkedHashMap<>();
        double shortest = Double.POSITIVE_INFINITY;
        for (String d : devices(rows)) {
            List<Double> ms = new ArrayList<>();
            for (String w : workloads) {
                double largest = rows.stream().filter(m -> m.workload().equals(w)).mapToDouble(Measurement::scale).max().orElseThrow();
                Double v = rows.stream().filter(m -> m.workload().equals(w) && m.device().equals(d) && m.scale() == largest).map(Measurement::medianMs)
                        .findFirst().orElse(null);
                if (v != null) shortest = Math.min(shortest, v);
                ms.add(v);
            }
            series.put(d, ms);
        }
        // bars grow from the axis' minimum, which a log axis must be given: the decade below the shortest bar
        c.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(shortest))));
        series.forEach((d, ms) -> c.addSeries(d, workloads, ms));
        return c;
    }

    /** Scaling of one workload: median time against the problem size, log-log, a line per device. */
    public static XYChart scaling(String workload, List<Measurement> rows) {
        Measurement first = rows.getFirst();
        XYChart c = new XYChartBuilder().width(800).height(500).title(first.title() + ": time against size")
                .xAxisTitle(first.scaleUnit() + " (log scale)").yAxisTitle("median ms (log scale)").build();
        style(c.getStyler());
        c.getStyler().setXAxisLogarithmic(true);
        c.getStyler().setYAxisLogarithmic(true);
        for (String d : devices(rows)) {
            List<Measurement> mine = rows.stream().filter(m -> m.device().equals(d)).sorted((a, b) -> Double.compare(a.scale(), b.scale())).toList();
            c.addSeries(d, mine.stream().mapToDouble(Measurement::scale).toArray(), mine.stream().mapToDouble(Measurement::medianMs).toArray());
        }
        return c;
    }

    private static void style(Styler s) {
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setChartBackgroundColor(java.awt.Color.WHITE);
        s.setAntiAlias(true);
    }

    private static List<String> workloads(List<Measurement> rows) {
        Set<String> s = new LinkedHashSet<>();
        for (Measurement m : rows) s.add(m.workload());
        return List.copyOf(s);
    }

    private static List<String> devices(List<Measurement> rows) {
        Map<String, Boolean> s = new LinkedHashMap<>();
        for (Measurement m : rows) s.put(m.device(), true);
        return List.copyOf(s.keySet());
    }

    /** {@code base}.svg and {@code base}.png. */
    private static List<Path> save(Chart<?, ?> chart, Path base) throws IOException {
        VectorGraphicsEncoder.saveVectorGraphic(chart, base.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        BitmapEncoder.saveBitmapWithDPI(chart, base.toString(), BitmapEncoder.BitmapFormat.PNG, 120);
        return List.of(Path.of(base + ".svg"), Path.of(base + ".png"));
    }
}
