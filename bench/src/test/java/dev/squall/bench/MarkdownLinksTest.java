package dev.squall.bench;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every relative link in the repository's Markdown files (README.md, the modules' READMEs, PERF.md, ...,
 * bench/results/ included) points to a file or folder that exists, and so does every {@code bench/results/...} path
 * that Markdown, Java, shell or Python files name in plain text, so that moving a file or a results folder cannot
 * leave a dead reference behind. Links to web pages and to anchors within the same file are not checked.
 */
@Tag("source-tree")
class MarkdownLinksTest {
    /** The repository root (tests run in bench/). */
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    /** Build output and tool folders, not documentation. */
    private static final Set<String> SKIPPED_DIRS = Set.of(".git", "target", "dist", ".bundle", ".whl", "node_modules", ".idea");

    /** {@code [text](target)} and {@code ![alt](target "title")}; the text may hold code spans, not brackets. */
    private static final Pattern INLINE = Pattern.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    /** {@code [label]: target} reference definitions. */
    private static final Pattern REFERENCE = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?([^\\s>]+)>?");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    /** One link: the file it is in, its line (1-based) and its target as written. */
    record Link(Path file, int line, String target) {
        @Override
        public String toString() {
            return ROOT.relativize(file) + ":" + line + ": " + target;
        }
    }

    @Test
    void everyRelativeLinkInTheRepositoryMarkdownPointsToAnExistingPath() throws IOException {
        List<Path> docs = markdownFiles(ROOT);
        // the walk found the documentation, so the test cannot pass on an empty tree
        assertTrue(docs.contains(ROOT.resolve("README.md")), "README.md not found under " + ROOT);
        assertTrue(docs.contains(ROOT.resolve("bench/results/README.md")), "bench/results/README.md not found under " + ROOT);
        List<Link> links = new ArrayList<>();
        for (Path doc : docs) links.addAll(relativeLinks(doc));
        assertTrue(links.size() >= 50, "only " + links.size() + " relative links found in " + docs.size() + " Markdown files");
        List<Link> dead = links.stream().filter(l -> !Files.exists(resolve(l))).toList();
        assertTrue(dead.isEmpty(), dead.size() + " of " + links.size() + " relative links point nowhere:\n"
                + String.join("\n", dead.stream().map(Link::toString).toList()));
    }

    @Test
    void everyResultsFolderNamedInDocsCodeAndScriptsExists() throws IOException {
        List<Link> named = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(ROOT)) {
            files = walk.filter(Files::isRegularFile).filter(p -> !skipped(ROOT, p))
                    .filter(p -> p.toString().matches(".*\\.(md|java|sh|py)$")).sorted().toList();
        }
        for (Path f : files) named.addAll(resultsPaths(f));
        assertTrue(named.size() >= 20, "only " + named.size() + " bench/results paths named in " + files.size() + " files");
        List<Link> dead = named.stream().filter(l -> !Files.exists(ROOT.resolve(l.target()))).toList();
        assertTrue(dead.isEmpty(), dead.size() + " of " + named.size() + " bench/results paths named do not exist:\n"
                + String.join("\n", dead.stream().map(Link::toString).toList()));
    }

    @Test
    void deadLinksAreFoundAndLiveOnesAreNot(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("sub/results/run"));
        Files.writeString(dir.resolve("sub/results/run/README.md"), "# run\n");
        Files.writeString(dir.resolve("sub/x.md"), String.join("\n",
                "See [the run](results/run/) and [`its README`](results/run/README.md#what-it-shows), "
                        + "![a figure](results/run/plot.png \"missing\").",
                "[web](https://example.org/a.md) [anchor](#top) [mail](mailto:a@b.c) [up](../sub/x.md)",
                "```sh",
                "cat [not a link](nowhere.md)",
                "```",
                "Inline code `[nor](this.md)` is skipped; [gone](old/2026-11-22-run2/) is not.",
                "",
                "[ref]: results/missing.txt"));
        List<Link> links = relativeLinks(dir.resolve("sub/x.md"));
        assertEquals(List.of("results/run/", "results/run/README.md#what-it-shows", "results/run/plot.png", "../sub/x.md",
                "old/2026-11-22-run2/", "results/missing.txt"), links.stream().map(Link::target).toList());
        List<String> dead = links.stream().filter(l -> !Files.exists(resolve(l))).map(l -> l.line() + ": " + l.target()).toList();
        assertEquals(List.of("1: results/run/plot.png", "6: old/2026-11-22-run2/", "8: results/missing.txt"), dead);
    }

    /** The Markdown files under {@code root}, build output excluded, in a stable order. */
    static List<Path> markdownFiles(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.getFileName() != null && p.getFileName().toString().endsWith(".md"))
                    .filter(p -> !skipped(root, p))
                    .filter(Files::isRegularFile)
                    .sorted()
                    .toList();
        }
    }

    /** Whether {@code p} lies in one of the {@link #SKIPPED_DIRS} below {@code root}. */
    private static boolean skipped(Path root, Path p) {
        Path rel = root.relativize(p);
        for (int i = 0; i < rel.getNameCount() - 1; i++) {
            if (SKIPPED_DIRS.contains(rel.getName(i).toString())) return true;
        }
        return false;
    }

    /**
     * The repository-relative {@code bench/results/...} paths a file names, in prose, code spans, comments or strings;
     * not placeholders ({@code bench/results/HOST/AREA/DATE-WHAT/}) and not paths in git history
     * ({@code git show COMMIT:bench/results/...}).
     */
    static List<Link> resultsPaths(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Link> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = RESULTS_PATH.matcher(lines.get(i));
            while (m.find()) {
                String path = m.group(1).replaceAll("[.]+$", "");
                boolean history = m.start(1) > 0 && lines.get(i).charAt(m.start(1) - 1) == ':';
                if (history || PLACEHOLDER.matcher(path).find()) continue;
                out.add(new Link(file, i + 1, path));
            }
        }
        return out;
    }

    private static final Pattern RESULTS_PATH = Pattern.compile("(?<![\\w/.-])(bench/results/[A-Za-z0-9_./-]*)");
    private static final Pattern PLACEHOLDER = Pattern.compile("[A-Z]{3,}|<");

    /** The links of {@code doc} to paths (no scheme, not a bare anchor), outside fenced code blocks and code spans. */
    static List<Link> relativeLinks(Path doc) {
        List<String> lines;
        try {
            lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Link> out = new ArrayList<>();
        boolean fenced = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.strip().startsWith("```") || line.strip().startsWith("~~~")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) continue;
            String text = withoutCodeSpans(line);
            List<String> targets = new ArrayList<>();
            Matcher m = INLINE.matcher(text);
            while (m.find()) targets.add(m.group(1));
            Matcher r = REFERENCE.matcher(text);
            if (r.find()) targets.add(r.group(1));
            for (String t : targets) {
                if (SCHEME.matcher(t).find() || t.startsWith("#")) continue;
                out.add(new Link(doc, i + 1, t));
            }
        }
        return out;
    }

    /**
     * The line with its code spans blanked: a link written inside a span is code, not a link, while the brackets
     * around a span that is a link's text stay outside it and keep the link.
     */
    private static String withoutCodeSpans(String line) {
        StringBuilder sb = new StringBuilder(line.length());
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c != '`') {
                sb.append(c);
                i++;
                continue;
            }
            int ticks = 0;
            while (i + ticks < line.length() && line.charAt(i + ticks) == '`') ticks++;
            String fence = "`".repeat(ticks);
            int end = line.indexOf(fence, i + ticks);
            if (end < 0) {
                sb.append(line, i, line.length());
                break;
            }
            sb.append(" ".repeat(end + ticks - i));
            i = end + ticks;
        }
        return sb.toString();
    }

    /** The path a link points to: its target without the anchor, percent-decoded, against its file's folder. */
    private static Path resolve(Link l) {
        String t = l.target();
        int hash = t.indexOf('#');
        if (hash >= 0) t = t.substring(0, hash);
        t = URLDecoder.decode(t.replace("+", "%2B"), StandardCharsets.UTF_8);
        return t.startsWith("/") ? ROOT.resolve(t.substring(1)) : l.file().getParent().resolve(t).normalize();
    }
}
