// The everyday kernels of a GPT-2 training step, written as llm.c's dev/cuda kernels are (one thread, one
// warp or one block per row; flat indices through '/' and '%'): encoder, layernorm forward and backward,
// matmul, attention scores and softmax, softmax, cross-entropy, residual, GELU, AdamW, bias gradient,
// permutes, a global norm.
//
// Each kernel's comment works the traffic out per tensor and level at its spec's sizes (README.md: the
// rules and the H200's figures they use) and ends with its truth line.
#include "corpus.h"

// Encoder, one thread per token (b,t) walking its C channels: out[bt, c] = wte[inp[bt], c] + wpe[t, c].
// B = 32, T = 1024, C = 768, V = 50257; the program's tokens are distinct rows (bt * 7919 mod V, as the
// spec states: `.indices(distinct(VT))`), so the touched table is B * T rows (96 MiB). 256 threads a
// block, 128 blocks (one an SM). Lanes walk rows 3 KiB apart: wte, wpe and out 32 sectors a request
// for 4: 8x at L1 a walk of a row. Each lane's next 7 iterations use its sector (8 warps an SM): wte
// 1x at L2, each row once: 1x at DRAM. wpe's rows are
// walked by the B = 32 tokens of each position, in blocks on other SMs: 8 * 32 = 256x at L1, 32x at
// L2; 3 MiB read again within the one wave: DRAM 1x. out: every store reaches L2, 8x; the lane fills its
// sectors in L2: near 1x at DRAM less what stays there (0.37x..1x). inp: 1x.
// truth: inp l1 1x, inp l2 1x, inp dram 1x, wte l1 8x, wte l2 1x, wte dram 1x, wpe l1 256x, wpe l2 32x, wpe dram 1x, out l1 8x, out l2 8x, out dram 0.37x..1x
__global__ void encoder_forward_per_token(float* out, const int* inp, const float* wte, const float* wpe, int B, int T, int C) {
  const int bt = blockIdx.x * blockDim.x + threadIdx.x;  // out: (B,T,C)  inp: (B,T)  wte: (V,C)  wpe: (T,C)
  if (bt >= B * T) return;
  const int t = bt % T;
  const int ix = inp[bt];
  for (int c = 0; c < C; ++c) out[bt * C + c] = wte[ix * C + c] + wpe[t * C + c];
}

// Encoder over every (b,t,c): one thread an element. A warp's 32 channels lie in one token's row (C a
// multiple of 32): wte (a gather through inp) and wpe 4 aligned sectors, 1x a request; wpe read B = 32
// times: 32x at L1, and again 3072 blocks later on other SMs: 32x at L2, DRAM 1x (3 MiB, 9 MiB of
// traffic between reads). inp: one int a warp, a sector for 4 bytes: C / 4 = 192x at L1; a block's
// 256 elements lie in one token, one sector a block: C * 32 / (256 * 4) = 24x at L2; DRAM 1x. wte:
// each touched row once, 1x at L1, L2, DRAM. out: 1x, 96 MiB written (0.37x..1x at DRAM).
// truth: inp l1 192x, inp l2 24x, inp dram 1x, wte l1 1x, wte l2 1x, wte dram 1x, wpe l1 32x, wpe l2 32x, wpe dram 1x, out l1 1x, out l2 1x, out dram 0.37x..1x
__global__ void encoder_forward_flat(float* out, const int* inp, const float* wte, const float* wpe, int B, int T, int C) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // out: (B,T,C)  inp: (B,T)  wte: (V,C)  wpe: (T,C)
  if (i >= B * T * C) return;
  const int bt = i / C, t = bt % T, c = i % C;
  out[i] = wte[inp[bt] * C + c] + wpe[t * C + c];
}

// Layernorm, one thread per row with three loops over it (mean, variance, normalise): N = B * T = 32768
// rows of C = 768 (96 MiB), 256 threads a block: 128 blocks, one an SM. x: lanes 3 KiB apart, 8x a pass,
// 24x at L1. Within a pass each lane's sector serves 8 iterations; between passes an SM's 256 lanes
// have walked 768 KiB, far over L1: each pass from L2 (3x), and the whole grid (one wave) has read 96
// MiB between a row's passes, over L2: 3x at DRAM (2.5x..3x). weight and bias: one address a warp, a
// sector for 4 bytes: N / 32 * C requests of 32 bytes over 4 C = N / 4 = 8192x at L1. out: 8x at L1 and
// L2 (lanes 3 KiB apart). mean, rstd: one float a thread, 1x.
// truth: x l1 24x, x l2 3x, x dram 2.5x..3x, weight l1 8192x, bias l1 8192x, out l1 8x, out l2 8x, mean l1 1x, mean l2 1x, rstd l1 1x, rstd l2 1x
__global__ void layernorm_forward_per_row(float* out, float* mean, float* rstd, const float* x, const float* weight,
                                          const float* bias, int N, int C) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;  // out, x: (N,C)  mean, rstd: (N)  weight, bias: (C)
  if (r >= N) return;
  const float* row = x + r * C;
  float m = 0.f;
  for (int c = 0; c < C; ++c) m += row[c];
  m /= C;
  float v = 0.f;
  for (int c = 0; c < C; ++c) v += (row[c] - m) * (row[c] - m);
  const float s = rsqrtf(v / C + 1e-5f);
  for (int c = 0; c < C; ++c) out[r * C + c] = (row[c] - m) * s * weight[c] + bias[c];
  mean[r] = m;
  rstd[r] = s;
}

// Layernorm, one warp per row, three coalesced passes (sum, squared deviations, normalise), the
// statistics written by lane 0 with __stcs: N = 32768 rows of C = 768, 8 rows a block of 256. x: 3x
// at L1. Between a warp's passes the SM's 64 warps walk up to 192 KiB of rows, most of L1 (the H200
// kept 0.1x..0.6x of such passes): 1x..3x at L2; x is 96 MiB but a row's passes follow within a few
// hundred KiB of L2 traffic: DRAM 1x. weight, bias: read per row, coalesced: N = 32768x at L1; 3 KiB in
// L2: DRAM 1x. mean, rstd: a sector per row for 4 bytes, 8x at L1 and L2. out: 1x at L1 and L2.
// truth: x l1 3x, x l2 1x..3x, x dram 1x, weight l1 32768x, weight dram 1x, bias l1 32768x, bias dram 1x, mean l1 8x, mean l2 8x, rstd l1 8x, rstd l2 8x, out l1 1x, out l2 1x
__global__ void layernorm_forward_per_warp(float* out, float* mean, float* rstd, const float* x, const float* weight,
                                           const float* bias, int N, int C) {
  const int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;  // out, x: (N,C)  mean, rstd: (N)  weight, bias: (C)
  const int lane = threadIdx.x % 32;
  if (r >= N) return;
  const float* row = x + r * C;
  float s = 0.f;
  for (int c = lane; c < C; c += 32) s += row[c];
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  const float m = s / C;
  float v = 0.f;
  for (int c = lane; c < C; c += 32) v += (row[c] - m) * (row[c] - m);
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  const float rs = rsqrtf(v / C + 1e-5f);
  if (lane == 0) {
    __stcs(mean + r, m);
    __stcs(rstd + r, rs);
  }
  for (int c = lane; c < C; c += 32) out[r * C + c] = (row[c] - m) * rs * weight[c] + bias[c];
}

// Layernorm backward, one warp per row: pass 1 reduces dnorm = weight * dout and dnorm * norm, pass 2
// writes dinp and accumulates the weight and bias gradients with atomics. N = 8192 rows of C = 768 (24
// MiB a tensor). dout, inp: 2 coalesced passes, 2x at L1; between them the SM's warps walk up to 384
// KiB of the two tensors: 1x..2x at L2; L2 keeps the rows (a few hundred KiB apart): DRAM 1x. weight:
// read per row twice, 2N = 16384x at L1. mean, rstd: all lanes read one float once: a sector for 4
// bytes, 8x at L1. dinp: 1x. dweight, dbias: atomics only, 0x at L1 and L2 (the counters count loads
// and stores).
// truth: dout l1 2x, dout l2 1x..2x, dout dram 1x, inp l1 2x, inp l2 1x..2x, inp dram 1x, weight l1 16384x, mean l1 8x, rstd l1 8x, dinp l1 1x, dinp l2 1x, dweight l1 0x, dweight l2 0x, dbias l1 0x, dbias l2 0x
__global__ void layernorm_backward_per_warp(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                                            const float* weight, const float* mean, const float* rstd, int N, int C) {
  const int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;  // dinp, dout, inp: (N,C)  dweight, dbias, weight: (C)  mean, rstd: (N)
  const int lane = threadIdx.x % 32;
  if (r >= N) return;
  const float m = mean[r], s = rstd[r];
  float a = 0.f, b = 0.f;
  for (int c = lane; c < C; c += 32) {
    const float n = (inp[r * C + c] - m) * s, d = weight[c] * dout[r * C + c];
    a += d;
    b += d * n;
  }
  for (int o = 16; o > 0; o /= 2) {
    a += __shfl_xor_sync(0xffffffffu, a, o);
    b += __shfl_xor_sync(0xffffffffu, b, o);
  }
  a /= C;
  b /= C;
  for (int c = lane; c < C; c += 32) {
    const float n = (inp[r * C + c] - m) * s, g = dout[r * C + c];
    atomicAdd(&dbias[c], g);
    atomicAdd(&dweight[c], n * g);
    dinp[r * C + c] = (weight[c] * g - a - n * b) * s;
  }
}

// Matmul forward as the first llm.c kernel: out[bt, oc] = bias[oc] + inp[bt, :] . weight[oc, :], 16 x 16
// threads, bt from threadIdx.x, oc from threadIdx.y. BT = 2048, C = OC = 768 (inp 6 MiB, weight 2.25
// MiB, out 6 MiB: within L2). A warp is 16 values of bt (rows C floats apart) and 2 of oc. inp: 16
// sectors a request, BT * OC / 32 * C requests * 512 bytes over 4 BT C = 4 OC = 3072x at L1; the block's
// 8 warps read the same 16 rows, one block's rows from L2 per block: OC / 16 = 48x at L2. weight: 2
// sectors a request: BT / 2 = 1024x at L1, per block 16 rows: BT / 16 = 128x at L2. bias: a sector per
// warp once: BT / 4 = 512x at L1. out: 16 sectors for 128 bytes, 4x at L1 and L2. DRAM 1x for the
// inputs (within L2), 0x..1x for out.
// truth: inp l1 3072x, inp l2 48x, inp dram 1x, weight l1 1024x, weight l2 128x, weight dram 1x, bias l1 512x, bias dram 1x, out l1 4x, out l2 4x, out dram 0x..1x
__global__ void matmul_forward_naive(float* out, const float* inp, const float* weight, const float* bias, int BT, int C, int OC) {
  const int bt = blockIdx.x * blockDim.x + threadIdx.x;  // out: (BT,OC)  inp: (BT,C)  weight: (OC,C)  bias: (OC)
  const int oc = blockIdx.y * blockDim.y + threadIdx.y;
  if (bt >= BT || oc >= OC) return;
  float v = bias[oc];
  for (int c = 0; c < C; ++c) v += inp[bt * C + c] * weight[oc * C + c];
  out[bt * OC + oc] = v;
}

// Attention scores, one thread per (b, h, t, t2), causal: preatt = q[b,t,h] . k[b,t2,h] / sqrt(hs) for
// t2 <= t, -inf above. B = 4, NH = 12, T = 256, C = 768 (hs = 64); qkv is (B,T,3C), of which q and k
// are read (compulsory: 2/3 of it, 6 MiB). A warp is 32 values of t2 at one t: the lanes with t2 <= t
// read k rows 3C floats apart (a sector each) and q at one address (one sector), 64 times. Per (b,h):
// k 64 * T (T + 1) / 2 = 2105344 sectors, q 64 * 32 * (1 + ... + 8) = 73728: 48 heads * 2179072 * 32
// bytes over 6 MiB = 532x at L1. qkv 1x at DRAM (3 MiB, within L2). preatt by two stores: the warp at t2 = t
// stores both sides, a sector twice unless (t % 32 + 1) % 8 = 0: 224 of 8192 sectors a head, 1.027x; 0x..1x at DRAM.
// truth: qkv l1 532x, qkv dram 1x, preatt l1 1.027x, preatt l2 1.027x, preatt dram 0x..1x
__global__ void attention_query_key(float* preatt, const float* qkv, int B, int T, int C, int NH) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // preatt: (B,NH,T,T)  qkv: (B,T,3C)
  if (i >= B * NH * T * T) return;
  const int t2 = i % T, t = i / T % T, h = i / (T * T) % NH, b = i / (NH * T * T);
  const int hs = C / NH;
  if (t2 > t) {
    preatt[i] = -1e30f;
    return;
  }
  const float* q = qkv + b * T * 3 * C + t * 3 * C + h * hs;
  const float* k = qkv + b * T * 3 * C + t2 * 3 * C + h * hs + C;
  float v = 0.f;
  for (int d = 0; d < hs; ++d) v += q[d] * k[d];
  preatt[i] = v * rsqrtf(static_cast<float>(hs));
}

// Causal softmax of the scores, one thread per row (b, h, t): max over t2 <= t, sum of exponentials,
// then att[t2] for t2 <= t and 0 above. B = 4, NH = 12, T = 1024 (preatt and att 192 MiB; the lower
// triangle, T (T + 1) / 2 floats per (b, h), is the compulsory read). Lanes are rows 4 KiB apart: each
// lane reads a sector per element it owns, 3 passes: 24x at L1. A lane's sector serves its next 7
// elements; between passes the lanes of an SM walk up to 4 KiB each, far more than L1 but for the
// blocks of the first 256 rows of each T (6.25% of the elements): 2.8x..3x at L2. The 192 blocks run
// in one wave, in step: between a row's passes the wave reads about 192 KiB per element of the row's
// length, over L2 from t near 300 (86% of the elements): 2.5x..3x at DRAM. att: each lane writes its whole row, a sector a
// store: 8x at L1 and L2, merged in L2: 0.68x..1x at DRAM (192 MiB, up to 60 left in L2).
// truth: preatt l1 24x, preatt l2 2.8x..3x, preatt dram 2.5x..3x, att l1 8x, att l2 8x, att dram 0.68x..1x
__global__ void attention_softmax_per_row(float* att, const float* preatt, int B, int NH, int T) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;  // att, preatt: (B,NH,T,T)
  if (r >= B * NH * T) return;
  const int t = r % T;
  const float* p = preatt + r * T;
  float mx = -1e30f;
  for (int t2 = 0; t2 <= t; ++t2) mx = fmaxf(mx, p[t2]);
  float sum = 0.f;
  for (int t2 = 0; t2 <= t; ++t2) sum += expf(p[t2] - mx);
  for (int t2 = 0; t2 < T; ++t2) att[r * T + t2] = t2 <= t ? expf(p[t2] - mx) / sum : 0.f;
}

// Online softmax, one warp per row: one pass keeps the running max and sum, a second writes. N = 16384
// rows of C = 4096 (16 KiB a row, 256 MiB), 8 rows a block. x: 2 coalesced passes, 2x at L1. Between a
// warp's passes the SM's 64 warps walk up to 1 MiB: 2x at L2; all 8448 resident warps walk 132 MiB
// between a row's passes, over L2: 1.5x..2x at DRAM. y: 1x.
// truth: x l1 2x, x l2 2x, x dram 1.5x..2x, y l1 1x, y l2 1x, y dram 0.76x..1x
__global__ void softmax_online_per_warp(float* y, const float* x, int N, int C) {
  const int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;  // y, x: (N,C)
  const int lane = threadIdx.x % 32;
  if (r >= N) return;
  float mx = -1e30f, sum = 0.f;
  for (int c = lane; c < C; c += 32) {
    const float v = x[r * C + c];
    const float m2 = fmaxf(mx, v);
    sum = sum * expf(mx - m2) + expf(v - m2);
    mx = m2;
  }
  for (int o = 16; o > 0; o /= 2) {
    const float om = __shfl_xor_sync(0xffffffffu, mx, o), os = __shfl_xor_sync(0xffffffffu, sum, o);
    const float m2 = fmaxf(mx, om);
    sum = sum * expf(mx - m2) + os * expf(om - m2);
    mx = m2;
  }
  for (int c = lane; c < C; c += 32) y[r * C + c] = expf(x[r * C + c] - mx) / sum;
}

// Cross-entropy forward, one thread per token: loss[bt] = -log(probs[bt, target[bt]]). BT = 4096, V =
// 50257 (probs 823 MB, of which the kernel touches one float a token: compulsory 16 KiB); the targets are
// distinct (bt * 7919 mod V, stated `.indices(distinct(V))`). probs: a
// gather through the targets; lanes' rows are 196 KiB apart: a sector for 4 bytes, 8x at L1 and L2, and
// a 64-byte granule at DRAM: 16x. targets, losses: 1x.
// truth: targets l1 1x, targets l2 1x, targets dram 1x, probs l1 8x, probs l2 8x, probs dram 16x, losses l1 1x, losses l2 1x
__global__ void crossentropy_forward(float* losses, const float* probs, const int* targets, int BT, int V) {
  const int bt = blockIdx.x * blockDim.x + threadIdx.x;  // losses: (BT)  probs: (BT,V), one float a row  targets: (BT)
  if (bt < BT) losses[bt] = -logf(probs[bt * V + targets[bt]]);
}

// Cross-entropy and softmax backward, one thread per logit: dlogits[i] = (probs[i] - (v == target)) *
// dloss[bt] with bt = i / V, v = i % V. BT = 1024, V = 50257 (206 MB a tensor). probs, dlogits: the flat
// index is contiguous across rows, 128-byte aligned warps: 1x. dloss and targets: one (rarely two
// adjacent) value a warp, a sector for 4 bytes: V / 4 = 12564.25x at L1; 4 KiB each: DRAM 1x.
// truth: probs l1 1x, probs l2 1x, probs dram 1x, dloss l1 12564.25x, dloss dram 1x, targets l1 12564.25x, targets dram 1x, dlogits l1 1x, dlogits l2 1x, dlogits dram 0.69x..1x
__global__ void crossentropy_softmax_backward(float* dlogits, const float* dloss, const float* probs, const int* targets, int BT, int V) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;  // dlogits, probs: (BT,V)  dloss, targets: (BT)
  if (i >= static_cast<long long>(BT) * V) return;
  const int bt = static_cast<int>(i / V), v = static_cast<int>(i % V);
  dlogits[i] = (probs[i] - (v == targets[bt] ? 1.f : 0.f)) * dloss[bt];
}

// Residual add with float4: out = inp1 + inp2, N = B * T * C = 32 * 1024 * 768 floats (96 MiB a tensor):
// 512 contiguous bytes a warp request, 1x at every level.
// truth: inp1 l1 1x, inp1 l2 1x, inp1 dram 1x, inp2 l1 1x, inp2 l2 1x, inp2 dram 1x, out l1 1x, out l2 1x, out dram 0.37x..1x
__global__ void residual_forward4(float4* out, const float4* inp1, const float4* inp2, int N4) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // out, inp1, inp2: (N), as float4
  if (i < N4) {
    const float4 a = inp1[i], b = inp2[i];
    out[i] = {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w};
  }
}

// GELU forward through __ldcs (streaming loads): 1x at every level, N = 2^25 (128 MiB a tensor).
// truth: inp l1 1x, inp l2 1x, inp dram 1x, out l1 1x, out l2 1x, out dram 0.53x..1x
__global__ void gelu_forward(float* out, const float* inp, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // out, inp: (N)
  if (i < N) {
    const float x = __ldcs(inp + i);
    out[i] = 0.5f * x * (1.f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
  }
}

// GELU backward: dinp = gelu'(inp) * dout, N = 2^25: 1x at every level.
// truth: inp l1 1x, inp l2 1x, inp dram 1x, dout l1 1x, dout l2 1x, dout dram 1x, dinp l1 1x, dinp l2 1x, dinp dram 0.53x..1x
__global__ void gelu_backward(float* dinp, const float* inp, const float* dout, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // dinp, inp, dout: (N)
  if (i < N) {
    const float x = inp[i], t = tanhf(0.7978845608f * (x + 0.044715f * x * x * x));
    dinp[i] = (0.5f * (1.f + t) + 0.5f * x * (1.f - t * t) * 0.7978845608f * (1.f + 0.134145f * x * x)) * dout[i];
  }
}

// AdamW, one thread per parameter: params, m, v read and written (compulsory counted twice), grads
// read. N = 2^25 (128 MiB a tensor): every access coalesced, 1x at L1 and L2 and, streamed, at DRAM
// (the writes less what stays in L2).
// truth: params l1 1x, params l2 1x, params dram 0.76x..1x, grads l1 1x, grads l2 1x, grads dram 1x, m l1 1x, m l2 1x, m dram 0.76x..1x, v l1 1x, v l2 1x, v dram 0.76x..1x
__global__ void adamw(float* params, const float* grads, float* m, float* v, int N, float lr, float b1, float b2, float b1c,
                      float b2c, float eps, float wd) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // params, grads, m, v: (N)
  if (i >= N) return;
  const float g = grads[i];
  const float mi = b1 * m[i] + (1.f - b1) * g, vi = b2 * v[i] + (1.f - b2) * g * g;
  m[i] = mi;
  v[i] = vi;
  params[i] -= lr * (mi / b1c / (sqrtf(vi / b2c) + eps) + wd * params[i]);
}

// Bias gradient, a block per output channel, its threads striding the BT rows: dbias[oc] += sum over
// bt of dout[bt, oc]. BT = 4096, OC = 768 (dout 12 MiB). dout: lanes OC floats apart, a sector each for
// 4 bytes: 8x at L1; the 7 other floats of each sector are other blocks' (other SMs): 8x at L2; the 768
// blocks run at once and share each granule: DRAM 1x. dbias: thread 0 reads and writes one float, a
// sector each for 4 + 4 compulsory bytes: 8x at L1 and L2.
// truth: dout l1 8x, dout l2 8x, dout dram 1x, dbias l1 8x, dbias l2 8x
__global__ void matmul_backward_bias(float* dbias, const float* dout, int BT, int OC) {
  __shared__ float part[256];  // dbias: (OC)  dout: (BT,OC)
  const int oc = blockIdx.x;
  float s = 0.f;
  for (int bt = threadIdx.x; bt < BT; bt += blockDim.x) s += dout[bt * OC + oc];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k) part[threadIdx.x] += part[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) dbias[oc] += part[0];
}

// Splitting qkv (B,N,3,NH,d) into q, k, v (B,NH,N,d), one thread per element of q: B = 4, N = 1024, NH =
// 12, d = 64 (qkv 36 MiB). Within a warp d is 32 consecutive values (d a multiple of 32): every read and
// write is one aligned 128-byte run: 1x at L1 and L2; qkv read once: DRAM 1x.
// truth: qkv l1 1x, qkv l2 1x, qkv dram 1x, q l1 1x, q l2 1x, k l1 1x, k l2 1x, v l1 1x, v l2 1x
__global__ void permute_qkv(float* q, float* k, float* v, const float* qkv, int B, int N, int NH, int d) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // q, k, v: (B,NH,N,d)  qkv: (B,N,3,NH,d)
  if (i >= B * NH * N * d) return;
  const int b = i / (NH * N * d), nh = i / (N * d) % NH, n = i / d % N, d_ = i % d;
  const int in = b * N * 3 * NH * d + n * 3 * NH * d + nh * d + d_;
  q[i] = qkv[in];
  k[i] = qkv[in + NH * d];
  v[i] = qkv[in + 2 * NH * d];
}

// The inverse permute: out (B,N,NH,d) from inp (B,NH,N,d), B = 4, N = 1024, NH = 12, d = 64 (12 MiB
// each): 32 consecutive d a warp on both sides, 1x at L1 and L2; DRAM 1x for inp.
// truth: inp l1 1x, inp l2 1x, inp dram 1x, out l1 1x, out l2 1x
__global__ void unpermute(float* out, const float* inp, int B, int N, int NH, int d) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // out: (B,N,NH,d)  inp: (B,NH,N,d)
  if (i >= B * NH * N * d) return;
  const int b = i / (NH * N * d), nh = i / (N * d) % NH, n = i / d % N, d_ = i % d;
  out[b * N * NH * d + n * NH * d + nh * d + d_] = inp[i];
}

// The global norm's sum of squares: a grid-stride loop (264 blocks of 256), a block reduction, one
// atomicAdd a block. N = 2^25 (128 MiB): x 1x at every level; out: an atomic only, 0x at L1 and L2.
// truth: x l1 1x, x l2 1x, x dram 1x, out l1 0x, out l2 0x
__global__ void global_norm_squares(float* out, const float* x, int N) {
  __shared__ float part[256];  // out: (1), accumulated  x: (N)
  float s = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) s += x[i] * x[i];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k) part[threadIdx.x] += part[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, part[0]);
}

// Attention output, one thread per (b, t, h, i) with i fastest: out[b,t,h,i] = sum over t2 <= t of
// att[b,h,t,t2] v[b,t2,h,i]. B = 4, NH = 12, T = 256, hs = 64 (att 12 MiB, of which the lower triangle is
// read; v and out 3 MiB). A warp is 32 values of i at one (b,t,h): att one address a request, a sector
// for 4 bytes, two warps per (b,h,t) and t + 1 steps: T (T + 1) sectors per (b,h) over the triangle's
// 4 T (T + 1) / 2 bytes: 16x at L1. v: 128 aligned bytes a request, each row read by the t >= t2: per
// (b,h) T (T + 1) requests of 128 bytes over v's 256 T bytes: (T + 1) / 2 = 128.5x at L1. Within L2:
// v 1x at DRAM, att's rows end inside a granule (about 30 bytes a row over 514): 1x..1.07x. out: 1x.
// truth: att l1 16x, att dram 1x..1.07x, v l1 128.5x, v dram 1x, out l1 1x, out l2 1x, out dram 0x..1x
__global__ void attention_value(float* out, const float* att, const float* v, int B, int T, int NH, int hs) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;  // out, v: (B,T,NH,hs)  att: (B,NH,T,T), lower triangle
  if (idx >= B * T * NH * hs) return;
  const int i = idx % hs, h = idx / hs % NH, t = idx / (hs * NH) % T, b = idx / (hs * NH * T);
  const float* a = att + ((b * NH + h) * T + t) * T;
  float s = 0.f;
  for (int t2 = 0; t2 <= t; ++t2) s += a[t2] * v[((b * T + t2) * NH + h) * hs + i];
  out[idx] = s;
}

// Residual add fused with layernorm, one warp per row (N = 32768 rows of C = 768, 96 MiB a tensor): pass 1
// writes residual = inp1 + inp2 and sums it, passes 2 and 3 read residual back (variance, normalise).
// inp1, inp2: 1x. residual: one store and two coalesced loads over its compulsory write: 3x at L1; the
// stores reach L2 (1x), the first read back finds nothing in L1 (stores do not allocate there): 1x
// more, the second between 0x and 1x (an SM's 64 warps walk up to 192 KiB between): 2x..3x at L2.
// weight, bias: read per row: N = 32768x at L1. normed: 1x. mean, rstd: lane 0, 8x at L1 and L2.
// truth: inp1 l1 1x, inp1 l2 1x, inp1 dram 1x, inp2 l1 1x, inp2 l2 1x, inp2 dram 1x, residual l1 3x, residual l2 2x..3x, weight l1 32768x, bias l1 32768x, normed l1 1x, normed l2 1x, mean l1 8x, mean l2 8x, rstd l1 8x, rstd l2 8x
__global__ void fused_residual_layernorm(float* residual, float* normed, float* mean, float* rstd, const float* inp1,
                                         const float* inp2, const float* weight, const float* bias, int N, int C) {
  const int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;  // residual, normed, inp1, inp2: (N,C)  mean, rstd: (N)  weight, bias: (C)
  if (r >= N) return;
  float s = 0.f;
  for (int c = lane; c < C; c += 32) {
    const float v = inp1[r * C + c] + inp2[r * C + c];
    residual[r * C + c] = v;
    s += v;
  }
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  const float m = s / C;
  float q = 0.f;
  for (int c = lane; c < C; c += 32) q += (residual[r * C + c] - m) * (residual[r * C + c] - m);
  for (int o = 16; o > 0; o /= 2) q += __shfl_xor_sync(0xffffffffu, q, o);
  const float rs = rsqrtf(q / C + 1e-5f);
  for (int c = lane; c < C; c += 32) normed[r * C + c] = (residual[r * C + c] - m) * rs * weight[c] + bias[c];
  if (lane == 0) {
    mean[r] = m;
    rstd[r] = rs;
  }
}

// The input gradient of a matmul, naively: dinp[bt, c] = sum over oc of dout[bt, oc] weight[oc, c], blocks
// of 32 x 8 (c from threadIdx.x). BT = 2048, C = OC = 768 (dout 6 MiB, weight 2.25 MiB, dinp 6 MiB: within
// L2). dout: one address a warp, a sector for 4 bytes: C / 4 = 192x at L1; a block's 8 rows are read
// once each (their sector serves 8 oc): C / 32 = 24x at L2, down to 3x when the 8 blocks of an SM are
// neighbours along c. weight: 128 bytes a request, read by every bt: BT = 2048x at L1; a block reads
// its 32 columns once: BT / 8 = 256x, down to 32x. DRAM 1x. dinp: 1x.
// truth: dout l1 192x, dout l2 3x..24x, dout dram 1x, weight l1 2048x, weight l2 32x..256x, weight dram 1x, dinp l1 1x, dinp l2 1x, dinp dram 0x..1x
__global__ void matmul_backward_dinp(float* dinp, const float* dout, const float* weight, int BT, int C, int OC) {
  const int c = blockIdx.x * 32 + threadIdx.x, bt = blockIdx.y * 8 + threadIdx.y;  // dinp: (BT,C)  dout: (BT,OC)  weight: (OC,C)
  if (bt >= BT || c >= C) return;
  float s = 0.f;
  for (int oc = 0; oc < OC; ++oc) s += dout[bt * OC + oc] * weight[oc * C + c];
  dinp[bt * C + c] = s;
}

#include "rooflint/dsl.h"
namespace llmc_specs {
using namespace rooflint::dsl;
inline constexpr struct B final : dim<"B"> {} B;
inline constexpr struct T final : dim<"T"> {} T;
inline constexpr struct C final : dim<"C"> {} C;
inline constexpr struct V final : dim<"V"> {} V;
inline constexpr struct N final : dim<"N"> {} N;
inline constexpr struct BT final : dim<"BT"> {} BT;
inline constexpr struct OC final : dim<"OC"> {} OC;
inline constexpr struct NH final : dim<"NH"> {} NH;
inline constexpr struct D final : dim<"D"> {} D;
inline constexpr struct Three final : dim<"Three", 3> {} Three;
inline constexpr struct One final : dim<"One", 1> {} One;
inline constexpr struct VT final : dim<"VT", 50257> {} VT;  // the vocabulary of the encoders' table

inline constexpr auto encoder_forward_per_token_spec =
    kernel<encoder_forward_per_token>("encoder_forward_per_token",
                                      custom(0, out<0>("out", f32, B, T, C), in<1>("inp", i32, B, T).indices(distinct(VT)),
                                             in<2>("wte", f32, VT, C).touches(B * T * C), in<3>("wpe", f32, T, C)))
        .at(B(32), T(1024), C(768)).sizes(B(arg<4>), T(arg<5>), C(arg<6>)).block(256).grid(ceil_div(B * T, 256));
inline constexpr auto encoder_forward_flat_spec =
    kernel<encoder_forward_flat>("encoder_forward_flat",
                                 custom(0, out<0>("out", f32, B, T, C), in<1>("inp", i32, B, T).indices(distinct(VT)),
                                        in<2>("wte", f32, VT, C).touches(B * T * C), in<3>("wpe", f32, T, C)))
        .at(B(32), T(1024), C(768)).sizes(B(arg<4>), T(arg<5>), C(arg<6>)).block(256).grid(ceil_div(B * T * C, 256));
inline constexpr auto layernorm_forward_per_row_spec =
    kernel<layernorm_forward_per_row>("layernorm_forward_per_row",
                                      layernorm(in<3>("x", f32, N, C), in<4>("weight", f32, C), in<5>("bias", f32, C), out<0>("out", f32, N, C))
                                          .with(out<1>("mean", f32, N), out<2>("rstd", f32, N)))
        .at(N(32768), C(768)).sizes(N(arg<6>), C(arg<7>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto layernorm_forward_per_warp_spec =
    kernel<layernorm_forward_per_warp>("layernorm_forward_per_warp",
                                       layernorm(in<3>("x", f32, N, C), in<4>("weight", f32, C), in<5>("bias", f32, C), out<0>("out", f32, N, C))
                                           .with(out<1>("mean", f32, N), out<2>("rstd", f32, N)))
        .at(N(32768), C(768)).sizes(N(arg<6>), C(arg<7>)).block(256).grid(ceil_div(N, 8));
inline constexpr auto layernorm_backward_per_warp_spec =
    kernel<layernorm_backward_per_warp>("layernorm_backward_per_warp",
                                        custom(0, out<0>("dinp", f32, N, C), inout<1>("dweight", f32, C), inout<2>("dbias", f32, C),
                                               in<3>("dout", f32, N, C), in<4>("inp", f32, N, C), in<5>("weight", f32, C),
                                               in<6>("mean", f32, N), in<7>("rstd", f32, N)))
        .at(N(8192), C(768)).sizes(N(arg<8>), C(arg<9>)).block(256).grid(ceil_div(N, 8));
inline constexpr auto matmul_forward_naive_spec =
    kernel<matmul_forward_naive>("matmul_forward_naive",
                                 linear(in<1>("inp", f32, BT, C), in<2>("weight", f32, OC, C), in<3>("bias", f32, OC), out<0>("out", f32, BT, OC)))
        .at(BT(2048), C(768), OC(768)).sizes(BT(arg<4>), C(arg<5>), OC(arg<6>)).block(16, 16).grid(ceil_div(BT, 16), ceil_div(OC, 16));
inline constexpr auto attention_query_key_spec =
    kernel<attention_query_key>("attention_query_key",
                                custom(0, out<0>("preatt", f32, B, NH, T, T), in<1>("qkv", f32, B, T, Three, C).touches(2 * B * T * C)))
        .at(B(4), NH(12), T(256), C(768)).sizes(B(arg<2>), T(arg<3>), C(arg<4>), NH(arg<5>)).block(256).grid(ceil_div(B * NH * T * T, 256));
inline constexpr auto attention_softmax_per_row_spec =
    kernel<attention_softmax_per_row>("attention_softmax_per_row",
                                      softmax(in<1>("preatt", f32, B, NH, T, T).touches(B * NH * T * T / 2 + B * NH * T / 2),
                                              out<0>("att", f32, B, NH, T, T)))
        .at(B(4), NH(12), T(1024)).sizes(B(arg<2>), NH(arg<3>), T(arg<4>)).block(256).grid(ceil_div(B * NH * T, 256));
inline constexpr auto softmax_online_per_warp_spec =
    kernel<softmax_online_per_warp>("softmax_online_per_warp", softmax(in<1>("x", f32, N, C), out<0>("y", f32, N, C)))
        .at(N(16384), C(4096)).sizes(N(arg<2>), C(arg<3>)).block(256).grid(ceil_div(N, 8));
inline constexpr auto crossentropy_forward_spec =
    kernel<crossentropy_forward>("crossentropy_forward",
                                 custom(0, out<0>("losses", f32, BT), in<1>("probs", f32, BT, V).touches(BT), in<2>("targets", i32, BT).indices(distinct(V))))
        .at(BT(4096), V(50257)).sizes(BT(arg<3>), V(arg<4>)).block(256).grid(ceil_div(BT, 256));
inline constexpr auto crossentropy_softmax_backward_spec =
    kernel<crossentropy_softmax_backward>("crossentropy_softmax_backward",
                                          custom(0, out<0>("dlogits", f32, BT, V), in<1>("dloss", f32, BT), in<2>("probs", f32, BT, V),
                                                 in<3>("targets", i32, BT)))
        .at(BT(1024), V(50257)).sizes(BT(arg<4>), V(arg<5>)).block(256).grid(ceil_div(BT * V, 256));
inline constexpr auto residual_forward4_spec =
    kernel<residual_forward4>("residual_forward4",
                              binary(0, in<1>("inp1", f32, N), in<2>("inp2", f32, N), out<0>("out", f32, N)))
        .at(N(32 * 1024 * 768)).sizes(N(4 * arg<3>)).block(256).grid(ceil_div(N, 1024));
inline constexpr auto gelu_forward_spec =
    kernel<gelu_forward>("gelu_forward", unary(0, in<1>("inp", f32, N), out<0>("out", f32, N)))
        .at(N(1 << 25)).sizes(N(arg<2>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto gelu_backward_spec =
    kernel<gelu_backward>("gelu_backward", binary(0, in<1>("inp", f32, N), in<2>("dout", f32, N), out<0>("dinp", f32, N)))
        .at(N(1 << 25)).sizes(N(arg<3>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto adamw_spec =
    kernel<adamw>("adamw", elementwise(0, inout<0>("params", f32, N), in<1>("grads", f32, N), inout<2>("m", f32, N), inout<3>("v", f32, N)))
        .at(N(1 << 25)).sizes(N(arg<4>)).block(256).grid(ceil_div(N, 256));
inline constexpr auto matmul_backward_bias_spec =
    kernel<matmul_backward_bias>("matmul_backward_bias", reduction(in<1>("dout", f32, BT, OC), inout<0>("dbias", f32, OC)))
        .at(BT(4096), OC(768)).sizes(BT(arg<2>), OC(arg<3>)).block(256).grid(OC);
inline constexpr auto permute_qkv_spec =
    kernel<permute_qkv>("permute_qkv",
                        custom(0, out<0>("q", f32, B, NH, N, D), out<1>("k", f32, B, NH, N, D), out<2>("v", f32, B, NH, N, D),
                               in<3>("qkv", f32, B, N, Three, NH, D)))
        .at(B(4), N(1024), NH(12), D(64)).sizes(B(arg<4>), N(arg<5>), NH(arg<6>), D(arg<7>)).block(256).grid(ceil_div(B * NH * N * D, 256));
inline constexpr auto unpermute_spec =
    kernel<unpermute>("unpermute", custom(0, out<0>("out", f32, B, N, NH, D), in<1>("inp", f32, B, NH, N, D)))
        .at(B(4), N(1024), NH(12), D(64)).sizes(B(arg<2>), N(arg<3>), NH(arg<4>), D(arg<5>)).block(256).grid(ceil_div(B * NH * N * D, 256));
inline constexpr auto global_norm_squares_spec =
    kernel<global_norm_squares>("global_norm_squares", custom(0, in<1>("x", f32, N), inout<0>("out", f32, One)))
        .at(N(1 << 25)).sizes(N(arg<2>)).block(256).grid(264);
inline constexpr auto attention_value_spec =
    kernel<attention_value>("attention_value",
                            custom(0, out<0>("out", f32, B, T, NH, D), in<1>("att", f32, B, NH, T, T).touches(B * NH * T * T / 2 + B * NH * T / 2),
                                   in<2>("v", f32, B, T, NH, D)))
        .at(B(4), T(256), NH(12), D(64)).sizes(B(arg<3>), T(arg<4>), NH(arg<5>), D(arg<6>)).block(256).grid(ceil_div(B * T * NH * D, 256));
inline constexpr auto fused_residual_layernorm_spec =
    kernel<fused_residual_layernorm>("fused_residual_layernorm",
                                     custom(0, out<0>("residual", f32, N, C), out<1>("normed", f32, N, C), out<2>("mean", f32, N),
                                            out<3>("rstd", f32, N), in<4>("inp1", f32, N, C), in<5>("inp2", f32, N, C), in<6>("weight", f32, C),
                                            in<7>("bias", f32, C)))
        .at(N(32768), C(768)).sizes(N(arg<8>), C(arg<9>)).block(256).grid(ceil_div(N, 8));
inline constexpr auto matmul_backward_dinp_spec =
    kernel<matmul_backward_dinp>("matmul_backward_dinp",
                                 custom(2 * BT * C * OC, out<0>("dinp", f32, BT, C), in<1>("dout", f32, BT, OC), in<2>("weight", f32, OC, C)))
        .at(BT(2048), C(768), OC(768)).sizes(BT(arg<3>), C(arg<4>), OC(arg<5>)).block(32, 8).grid(ceil_div(C, 32), ceil_div(BT, 8));
}  // namespace llmc_specs

#ifdef ROOFLINT_CORPUS_REAL_CUDA
// The program's launches (program.cu): each kernel once, at its spec's sizes and launch.
#include "program.h"
inline void run_llmc_cases() {
  using corpus::blocks;
  using corpus::Case;
  using corpus::wanted;
  using Z = std::size_t;
  const int V = 50257;
  for (const bool flat : {false, true}) {
    const char* name = flat ? "encoder_forward_flat" : "encoder_forward_per_token";
    if (!wanted(name)) continue;
    Case c(name);
    const int B = 32, T = 1024, C = 768;
    float* out = c.zeros<float>(Z(B) * T * C);
    int* inp = c.upload(corpus::indices_below(Z(B) * T, V, 7919));  // distinct rows: 7919 is prime to V
    float *wte = c.zeros<float>(Z(V) * C), *wpe = c.zeros<float>(Z(T) * C);
    if (c.ready() && flat) encoder_forward_flat<<<blocks(1ll * B * T * C, 256), 256>>>(out, inp, wte, wpe, B, T, C);
    if (c.ready() && !flat) encoder_forward_per_token<<<blocks(B * T, 256), 256>>>(out, inp, wte, wpe, B, T, C);
    c.done();
  }
  for (const bool warp : {false, true}) {
    const char* name = warp ? "layernorm_forward_per_warp" : "layernorm_forward_per_row";
    if (!wanted(name)) continue;
    Case c(name);
    const int N = 32768, C = 768;
    float *out = c.zeros<float>(Z(N) * C), *mean = c.zeros<float>(N), *rstd = c.zeros<float>(N);
    float *x = c.zeros<float>(Z(N) * C), *weight = c.zeros<float>(C), *bias = c.zeros<float>(C);
    if (c.ready() && warp) layernorm_forward_per_warp<<<blocks(N, 8), 256>>>(out, mean, rstd, x, weight, bias, N, C);
    if (c.ready() && !warp) layernorm_forward_per_row<<<blocks(N, 256), 256>>>(out, mean, rstd, x, weight, bias, N, C);
    c.done();
  }
  if (wanted("layernorm_backward_per_warp")) {
    Case c("layernorm_backward_per_warp");
    const int N = 8192, C = 768;
    float *dinp = c.zeros<float>(Z(N) * C), *dweight = c.zeros<float>(C), *dbias = c.zeros<float>(C);
    float *dout = c.zeros<float>(Z(N) * C), *inp = c.zeros<float>(Z(N) * C), *weight = c.zeros<float>(C);
    float *mean = c.zeros<float>(N), *rstd = c.zeros<float>(N);
    if (c.ready()) layernorm_backward_per_warp<<<blocks(N, 8), 256>>>(dinp, dweight, dbias, dout, inp, weight, mean, rstd, N, C);
    c.done();
  }
  if (wanted("matmul_forward_naive")) {
    Case c("matmul_forward_naive");
    const int BT = 2048, C = 768, OC = 768;
    float *out = c.zeros<float>(Z(BT) * OC), *inp = c.zeros<float>(Z(BT) * C), *weight = c.zeros<float>(Z(OC) * C),
          *bias = c.zeros<float>(OC);
    if (c.ready()) matmul_forward_naive<<<dim3(BT / 16, OC / 16), dim3(16, 16)>>>(out, inp, weight, bias, BT, C, OC);
    c.done();
  }
  if (wanted("attention_query_key")) {
    Case c("attention_query_key");
    const int B = 4, NH = 12, T = 256, C = 768;
    float *preatt = c.zeros<float>(Z(B) * NH * T * T), *qkv = c.zeros<float>(Z(B) * T * 3 * C);
    if (c.ready()) attention_query_key<<<blocks(1ll * B * NH * T * T, 256), 256>>>(preatt, qkv, B, T, C, NH);
    c.done();
  }
  if (wanted("attention_softmax_per_row")) {
    Case c("attention_softmax_per_row");
    const int B = 4, NH = 12, T = 1024;
    float *att = c.zeros<float>(Z(B) * NH * T * T), *preatt = c.zeros<float>(Z(B) * NH * T * T);
    if (c.ready()) attention_softmax_per_row<<<blocks(1ll * B * NH * T, 256), 256>>>(att, preatt, B, NH, T);
    c.done();
  }
  if (wanted("softmax_online_per_warp")) {
    Case c("softmax_online_per_warp");
    const int N = 16384, C = 4096;
    float *y = c.zeros<float>(Z(N) * C), *x = c.zeros<float>(Z(N) * C);
    if (c.ready()) softmax_online_per_warp<<<blocks(N, 8), 256>>>(y, x, N, C);
    c.done();
  }
  if (wanted("crossentropy_forward")) {
    Case c("crossentropy_forward");
    const int BT = 4096;
    float *losses = c.zeros<float>(BT), *probs = c.zeros<float>(Z(BT) * V);
    int* targets = c.upload(corpus::indices_below(BT, V, 7919));
    if (c.ready()) crossentropy_forward<<<blocks(BT, 256), 256>>>(losses, probs, targets, BT, V);
    c.done();
  }
  if (wanted("crossentropy_softmax_backward")) {
    Case c("crossentropy_softmax_backward");
    const int BT = 1024;
    float *dlogits = c.zeros<float>(Z(BT) * V), *dloss = c.zeros<float>(BT), *probs = c.zeros<float>(Z(BT) * V);
    int* targets = c.upload(corpus::indices_below(BT, V, 7919));
    if (c.ready()) crossentropy_softmax_backward<<<blocks(1ll * BT * V, 256), 256>>>(dlogits, dloss, probs, targets, BT, V);
    c.done();
  }
  if (wanted("residual_forward4")) {
    Case c("residual_forward4");
    const int N = 32 * 1024 * 768;
    float4 *out = c.zeros<float4>(N / 4), *a = c.zeros<float4>(N / 4), *b = c.zeros<float4>(N / 4);
    if (c.ready()) residual_forward4<<<blocks(N / 4, 256), 256>>>(out, a, b, N / 4);
    c.done();
  }
  if (wanted("gelu_forward")) {
    Case c("gelu_forward");
    const int N = 1 << 25;
    float *out = c.zeros<float>(N), *inp = c.zeros<float>(N);
    if (c.ready()) gelu_forward<<<blocks(N, 256), 256>>>(out, inp, N);
    c.done();
  }
  if (wanted("gelu_backward")) {
    Case c("gelu_backward");
    const int N = 1 << 25;
    float *dinp = c.zeros<float>(N), *inp = c.zeros<float>(N), *dout = c.zeros<float>(N);
    if (c.ready()) gelu_backward<<<blocks(N, 256), 256>>>(dinp, inp, dout, N);
    c.done();
  }
  if (wanted("adamw")) {
    Case c("adamw");
    const int N = 1 << 25;
    float *p = c.zeros<float>(N), *g = c.zeros<float>(N), *m = c.zeros<float>(N), *v = c.zeros<float>(N);
    if (c.ready()) adamw<<<blocks(N, 256), 256>>>(p, g, m, v, N, 1e-3f, 0.9f, 0.999f, 0.1f, 0.001f, 1e-8f, 0.01f);
    c.done();
  }
  if (wanted("matmul_backward_bias")) {
    Case c("matmul_backward_bias");
    const int BT = 4096, OC = 768;
    float *dbias = c.zeros<float>(OC), *dout = c.zeros<float>(Z(BT) * OC);
    if (c.ready()) matmul_backward_bias<<<OC, 256>>>(dbias, dout, BT, OC);
    c.done();
  }
  for (const bool inverse : {false, true}) {
    const char* name = inverse ? "unpermute" : "permute_qkv";
    if (!wanted(name)) continue;
    Case c(name);
    const int B = 4, N = 1024, NH = 12, d = 64;
    const Z n = Z(B) * NH * N * d;
    if (inverse) {
      float *out = c.zeros<float>(n), *inp = c.zeros<float>(n);
      if (c.ready()) unpermute<<<blocks(1ll * n, 256), 256>>>(out, inp, B, N, NH, d);
    } else {
      float *q = c.zeros<float>(n), *k = c.zeros<float>(n), *v = c.zeros<float>(n), *qkv = c.zeros<float>(3 * n);
      if (c.ready()) permute_qkv<<<blocks(1ll * n, 256), 256>>>(q, k, v, qkv, B, N, NH, d);
    }
    c.done();
  }
  if (wanted("global_norm_squares")) {
    Case c("global_norm_squares");
    const int N = 1 << 25;
    float *out = c.zeros<float>(1), *x = c.zeros<float>(N);
    if (c.ready()) global_norm_squares<<<264, 256>>>(out, x, N);
    c.done();
  }
  if (wanted("attention_value")) {
    Case c("attention_value");
    const int B = 4, T = 256, NH = 12, hs = 64;
    float *out = c.zeros<float>(Z(B) * T * NH * hs), *att = c.zeros<float>(Z(B) * NH * T * T), *v = c.zeros<float>(Z(B) * T * NH * hs);
    if (c.ready()) attention_value<<<blocks(1ll * B * T * NH * hs, 256), 256>>>(out, att, v, B, T, NH, hs);
    c.done();
  }
  if (wanted("fused_residual_layernorm")) {
    Case c("fused_residual_layernorm");
    const int N = 32768, C = 768;
    float *residual = c.zeros<float>(Z(N) * C), *normed = c.zeros<float>(Z(N) * C), *mean = c.zeros<float>(N), *rstd = c.zeros<float>(N);
    float *a = c.zeros<float>(Z(N) * C), *b = c.zeros<float>(Z(N) * C), *w = c.zeros<float>(C), *bias = c.zeros<float>(C);
    if (c.ready()) fused_residual_layernorm<<<blocks(N, 8), 256>>>(residual, normed, mean, rstd, a, b, w, bias, N, C);
    c.done();
  }
  if (wanted("matmul_backward_dinp")) {
    Case c("matmul_backward_dinp");
    const int BT = 2048, C = 768, OC = 768;
    float *dinp = c.zeros<float>(Z(BT) * C), *dout = c.zeros<float>(Z(BT) * OC), *weight = c.zeros<float>(Z(OC) * C);
    if (c.ready()) matmul_backward_dinp<<<dim3(C / 32, BT / 8), dim3(32, 8)>>>(dinp, dout, weight, BT, C, OC);
    c.done();
  }
}
#endif
