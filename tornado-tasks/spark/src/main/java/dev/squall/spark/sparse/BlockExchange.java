package dev.squall.spark.sparse;

import dev.squall.permanent.numeric.KahanSum;
import org.apache.spark.BarrierTaskContext;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * One round of a barrier CG's communication among the tasks of a barrier stage: every task contributes a partial dot
 * product and its send values; every task gets the sum of the partials, added in block order with compensation (so
 * all tasks hold the same number), and the send values of the blocks it reads.
 *
 * <ul>
 *   <li>{@link #allGather}: each round is a {@link BarrierTaskContext#allGather} (every message to every task).
 *       Simple, but Spark 4.2's barrier calls wait for their reply in steps of one second
 *       ({@code BarrierTaskContext.runBarrier} sleeps 1 s while the reply is pending), so a round costs about 1 s.</li>
 *   <li>{@link #sockets}: one allGather at the start exchanges every task's {@code host:port}; the rounds then go over
 *       TCP connections between the tasks (partials to all, send values only to the blocks that read them), at
 *       network latency.</li>
 * </ul>
 */
public abstract class BlockExchange implements AutoCloseable {
    /** How the tasks of a barrier CG talk. */
    public enum Kind { ALL_GATHER, SOCKETS }

    /** The blocks' partial sums added in block order, and the send values of each block ({@code sent[k]}, empty where not read). */
    public record Gathered(double sum, double[][] sent) {
    }

    /** One round: this task's partial and send values in, everyone's out. */
    public abstract Gathered exchange(double partial, double[] send);

    @Override
    public void close() {
    }

    static BlockExchange open(Kind kind, BarrierTaskContext ctx, RowBlock block) {
        return kind == Kind.SOCKETS ? sockets(ctx, block) : allGather(ctx);
    }

    /** Rounds through {@link BarrierTaskContext#allGather}. */
    public static BlockExchange allGather(BarrierTaskContext ctx) {
        return new BlockExchange() {
            @Override
            public Gathered exchange(double partial, double[] send) {
                ByteBuffer buf = ByteBuffer.allocate(8 * (1 + send.length));
                buf.putDouble(partial);
                for (double v : send) buf.putDouble(v);
                String[] all = ctx.allGather(Base64.getEncoder().encodeToString(buf.array()));
                double[] partials = new double[all.length];
                double[][] sent = new double[all.length][];
                for (int k = 0; k < all.length; k++) {
                    ByteBuffer in = ByteBuffer.wrap(Base64.getDecoder().decode(all[k]));
                    partials[k] = in.getDouble();
                    sent[k] = new double[in.remaining() / 8];
                    for (int i = 0; i < sent[k].length; i++) sent[k][i] = in.getDouble();
                }
                return new Gathered(inOrder(partials), sent);
            }
        };
    }

    /** Rounds over TCP between the tasks, after one allGather of their addresses. */
    public static BlockExchange sockets(BarrierTaskContext ctx, RowBlock block) {
        return new SocketExchange(ctx, block);
    }

    static double inOrder(double[] partials) {
        KahanSum s = new KahanSum();
        for (double p : partials) s.add(p);
        return s.value();
    }

    /** Full mesh of TCP connections: the lower rank connects, sending its rank first. */
    private static final class SocketExchange extends BlockExchange {
        private final RowBlock block;
        private final int me;
        private final int parts;
        private final ServerSocket server;
        private final Socket[] peers;
        private final DataInputStream[] in;
        private final DataOutputStream[] out;

        SocketExchange(BarrierTaskContext ctx, RowBlock block) {
            this.block = block;
            this.me = ctx.partitionId();
            try {
                server = new ServerSocket();
                server.bind(new InetSocketAddress(0), 256);
                String address = ctx.getTaskInfos()[me].address();
                String host = address.contains(":") ? address.substring(0, address.lastIndexOf(':')) : address;
                if (host.isBlank()) host = InetAddress.getLoopbackAddress().getHostAddress();
                String[] all = ctx.allGather(host + ":" + server.getLocalPort());
                parts = all.length;
                peers = new Socket[parts];
                in = new DataInputStream[parts];
                out = new DataOutputStream[parts];
                for (int j = me + 1; j < parts; j++) {
                    String a = all[j];
                    Socket s = new Socket(a.substring(0, a.lastIndexOf(':')), Integer.parseInt(a.substring(a.lastIndexOf(':') + 1)));
                    attach(j, s);
                    out[j].writeInt(me);
                    out[j].flush();
                }
                for (int k = 0; k < me; k++) {
                    Socket s = server.accept();
                    DataInputStream din = new DataInputStream(new BufferedInputStream(s.getInputStream()));
                    int rank = din.readInt();
                    if (rank < 0 || rank >= me || peers[rank] != null) throw new IOException("unexpected peer rank " + rank + " at task " + me);
                    attach(rank, s);
                    in[rank] = din;
                }
            } catch (IOException e) {
                close();
                throw new UncheckedIOException("barrier task " + me + " could not connect to its peers", e);
            }
        }

        private void attach(int rank, Socket s) throws IOException {
            s.setTcpNoDelay(true);
            s.setSoTimeout(600_000);
            peers[rank] = s;
            in[rank] = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            out[rank] = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
        }

        @Override
        public Gathered exchange(double partial, double[] send) {
            // writers on their own threads, so that large halos cannot fill both ends' buffers and stall
            List<Thread> writers = new ArrayList<>();
            IOException[] failure = new IOException[1];
            for (int j = 0; j < parts; j++) {
                if (j == me) continue;
                int peer = j;
                double[] values = block.readBy(peer) ? send : new double[0];
                writers.add(Thread.ofVirtual().start(() -> {
                    try {
                        DataOutputStream o = out[peer];
                        o.writeDouble(partial);
                        o.writeInt(values.length);
                        for (double v : values) o.writeDouble(v);
                        o.flush();
                    } catch (IOException e) {
                        synchronized (failure) {
                            failure[0] = e;
                        }
                    }
                }));
            }
            double[] partials = new double[parts];
            double[][] sent = new double[parts][];
            partials[me] = partial;
            sent[me] = send;
            try {
                for (int k = 0; k < parts; k++) {
                    if (k == me) continue;
                    partials[k] = in[k].readDouble();
                    sent[k] = new double[in[k].readInt()];
                    for (int i = 0; i < sent[k].length; i++) sent[k][i] = in[k].readDouble();
                }
                for (Thread w : writers) w.join();
            } catch (IOException e) {
                throw new UncheckedIOException("barrier task " + me + " lost a peer", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("barrier task " + me + " interrupted in an exchange", e);
            }
            if (failure[0] != null) throw new UncheckedIOException("barrier task " + me + " could not send to a peer", failure[0]);
            return new Gathered(inOrder(partials), sent);
        }

        @Override
        public void close() {
            if (peers != null) {
                for (Socket s : peers) {
                    if (s == null) continue;
                    try {
                        s.close();
                    } catch (IOException ignored) {
                        // closing: nothing left to do with this peer
                    }
                }
            }
            try {
                if (server != null) server.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }
}
