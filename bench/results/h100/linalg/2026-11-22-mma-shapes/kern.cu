// Probe: FP64 tensor-core shapes on Hopper and GEMM variants (NT: C = alpha A B^T + beta C, column-major).
__device__ __forceinline__ void mma884(double a, double b, double& d0, double& d1) {
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};" : "+d"(d0), "+d"(d1) : "d"(a), "d"(b));
}
__device__ __forceinline__ void mma1684(double a0, double a1, double b, double* d) {
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
      : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3]) : "d"(a0), "d"(a1), "d"(b));
}
__device__ __forceinline__ void mma1688(const double* a, const double* b, double* d) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
      : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3]) : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
}
__device__ __forceinline__ void mma16816(const double* a, const double* b, double* d) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};"
      : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
      : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
}

// Throughput: every warp runs `iters` rounds of 8 independent accumulations.
template <int SHAPE>
__global__ void mmaRate(double* out, int iters) {
  double acc[8][4] = {};
  double a[8], b[4];
  int lane = threadIdx.x & 31;
  for (int i = 0; i < 8; i++) a[i] = 1e-3 * (lane + i);
  for (int i = 0; i < 4; i++) b[i] = 1e-3 * (lane - i);
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int c = 0; c < 8; c++) {
      if (SHAPE == 0) mma884(a[c], b[c & 3], acc[c][0], acc[c][1]);
      else if (SHAPE == 1) mma1684(a[c], a[(c + 1) & 7], b[c & 3], acc[c]);
      else if (SHAPE == 2) mma1688(a + (c & 4), b + (c & 2), acc[c]);
      else mma16816(a, b, acc[c]);
    }
  }
  double s = 0;
  for (int c = 0; c < 8; c++) s += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// GEMM: 128 x 128 tile per block; warps of WM=64 x WN (32 -> 8 warps, 64 -> 4 warps); panels of depth D;
// STAGES = 1: register prefetch + two barriers per panel (as gemmMma); 2: two local buffers, one barrier per panel.
template <int SHAPE, int WN, int D, int STAGES>
__global__ void __launch_bounds__(32 * 2 * (128 / WN)) gemm(const double* __restrict__ A, const double* __restrict__ B, double* C,
    int m, int n, int k, int lda, int ldb, int ldc, double alpha, double beta, int lowerOnly) {
  constexpr int T = 128, LD = T + 4, NT = 32 * 2 * (128 / WN), PER = T * D / NT, NJ = WN / 8;
  extern __shared__ double sm[];
  double* As = sm;
  double* Bs = sm + STAGES * D * LD;
  int row0 = blockIdx.x * T, col0 = blockIdx.y * T;
  if (lowerOnly && row0 + T <= col0) return;
  int lid = threadIdx.x, lane = lid & 31, warp = lid >> 5;
  int wr = (warp & 1) * 64, wc = (warp >> 1) * WN;
  int g = lane >> 2, t = lane & 3;
  double acc[4][NJ][4];
#pragma unroll
  for (int i = 0; i < 4; i++)
#pragma unroll
    for (int j = 0; j < NJ; j++)
#pragma unroll
      for (int q = 0; q < 4; q++) acc[i][j][q] = 0;
  double va[PER], vb[PER];
  auto fetch = [&](int p0) {
#pragma unroll
    for (int i = 0; i < PER; i++) {
      int idx = lid + i * NT, r = idx % T, p = idx / T;
      int gp = p0 + p;
      va[i] = (row0 + r < m && gp < k) ? A[(size_t) gp * lda + row0 + r] : 0.0;
      vb[i] = (col0 + r < n && gp < k) ? B[(size_t) gp * ldb + col0 + r] : 0.0;
    }
  };
  auto stage = [&](int buf) {
#pragma unroll
    for (int i = 0; i < PER; i++) {
      int idx = lid + i * NT, r = idx % T, p = idx / T;
      As[buf * D * LD + p * LD + r] = va[i];
      Bs[buf * D * LD + p * LD + r] = vb[i];
    }
  };
  auto compute = [&](int buf) {
    const double* as = As + buf * D * LD;
    const double* bs = Bs + buf * D * LD;
    constexpr int KS = SHAPE <= 1 ? 4 : SHAPE == 2 ? 8 : 16;
#pragma unroll
    for (int s = 0; s < D; s += KS) {
      double af[4][KS / 4 * 2], bf[NJ][KS / 4];
#pragma unroll
      for (int i = 0; i < 4; i++)
#pragma unroll
        for (int h = 0; h < KS / 4; h++) {
          af[i][2 * h] = as[(s + t + 4 * h) * LD + wr + 16 * i + g];
          af[i][2 * h + 1] = as[(s + t + 4 * h) * LD + wr + 16 * i + 8 + g];
        }
#pragma unroll
      for (int j = 0; j < NJ; j++)
#pragma unroll
        for (int h = 0; h < KS / 4; h++) bf[j][h] = bs[(s + t + 4 * h) * LD + wc + 8 * j + g];
#pragma unroll
      for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < NJ; j++) {
          if (SHAPE == 0) {
            mma884(af[i][0], bf[j][0], acc[i][j][0], acc[i][j][1]);
            mma884(af[i][1], bf[j][0], acc[i][j][2], acc[i][j][3]);
          } else if (SHAPE == 1) mma1684(af[i][0], af[i][1], bf[j][0], acc[i][j]);
          else if (SHAPE == 2) mma1688(af[i], bf[j], acc[i][j]);
          else mma16816(af[i], bf[j], acc[i][j]);
        }
    }
  };
  if (k > 0) fetch(0);
  if (STAGES == 1) {
    for (int p0 = 0; p0 < k; p0 += D) {
      stage(0);
      __syncthreads();
      if (p0 + D < k) fetch(p0 + D);
      compute(0);
      __syncthreads();
    }
  } else {
    if (k > 0) stage(0);
    __syncthreads();
    int buf = 0;
    for (int p0 = 0; p0 < k; p0 += D) {
      if (p0 + D < k) fetch(p0 + D);
      compute(buf);
      if (p0 + D < k) stage(buf ^ 1);
      __syncthreads();
      buf ^= 1;
    }
  }
#pragma unroll
  for (int i = 0; i < 4; i++)
#pragma unroll
    for (int j = 0; j < NJ; j++)
#pragma unroll
      for (int q = 0; q < 4; q++) {
        int r = row0 + wr + 16 * i + g + 8 * (q >> 1), c = col0 + wc + 8 * j + 2 * t + (q & 1);
        if (r < m && c < n && (!lowerOnly || r >= c)) {
          size_t x = (size_t) c * ldc + r;
          C[x] = beta == 0 ? alpha * acc[i][j][q] : alpha * acc[i][j][q] + beta * C[x];
        }
      }
}
