// The anchor of the benchmark (BENCHMARKS.md): NVIDIA CUB's DeviceSelect::Flagged
// (decoupled look-back, single pass) compacting the indices of u32 0/1 flags, and a
// device-to-device memcpy of the flags, on the flags of `flags::random` (the same
// xorshift generator). Built and run on the lent GPU:
//   nvcc -O3 -arch=sm_90 -o cub_select cub_select.cu
//   DENSITY=0.5 REPS=30 ./cub_select 100000 1048576 16777216 33554432 67108864
//   (PAYLOAD=4 adds Flagged over 16-byte items and their memcpy, below.)
// Flagged is timed three ways, median of REPS each (CUDA events):
// - "idle": after the timed memcpy has finished and the host has seen it, as in
//   ../shared/bench/cub_select.cu. The first event then fires on an idle GPU and
//   the time includes the host launching CUB's two kernels after it;
// - "queued": enqueued behind an untimed memcpy of the same flags, so the GPU runs
//   the kernels back to back, as `bench` runs its rows;
// - "cold": the same, on a copy of the flags other than the one the memcpy read,
//   as `bench` does (no run finds its input left in L2 by the run before).
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  double density = getenv("DENSITY") ? atof(getenv("DENSITY")) : 0.5;
  int reps = getenv("REPS") ? atoi(getenv("REPS")) : 20;
  std::vector<uint32_t> sizes;
  for (int a = 1; a < argc; ++a) sizes.push_back((uint32_t)strtoul(argv[a], 0, 10));
  if (sizes.empty()) sizes = {100000, 1u << 20, 1u << 24, 1u << 26};
  printf("%10s %10s %24s %10s %9s\n", "N", "K", "method", "gpu_us", "GB/s");
  for (uint32_t n : sizes) {
    std::vector<uint32_t> flags(n);
    uint64_t s = 0x9E3779B97F4A7C15ull ^ (uint64_t)n;
    size_t k = 0;
    for (uint32_t i = 0; i < n; ++i) {
      s ^= s << 13; s ^= s >> 7; s ^= s << 17;
      flags[i] = ((double)(s >> 11) / (double)(1ull << 53)) < density;
      k += flags[i];
    }
    const size_t bytes = 4ull * n;
    // Copies of the flags spread over three times a 60 MB L2, at least two.
    int copies = (int)std::min<uint64_t>(256, std::max<uint64_t>(2, (180000000ull + 2 * bytes - 1) / (2 * bytes)));
    std::vector<uint32_t*> d_flags(copies);
    uint32_t *d_out, *d_num, *d_copy;
    for (auto& f : d_flags) { cudaMalloc(&f, bytes); cudaMemcpy(f, flags.data(), bytes, cudaMemcpyHostToDevice); }
    cudaMalloc(&d_out, bytes); cudaMalloc(&d_copy, bytes); cudaMalloc(&d_num, 4);
    thrust::counting_iterator<uint32_t> ids(0);
    size_t temp = 0; void* d_temp = nullptr;
    cub::DeviceSelect::Flagged(d_temp, temp, ids, d_flags[0], d_out, d_num, (int)n);
    cudaMalloc(&d_temp, temp);
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    auto elapsed_us = [&]() { cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); return ms * 1000; };
    auto select = [&](const uint32_t* f) { cub::DeviceSelect::Flagged(d_temp, temp, ids, f, d_out, d_num, (int)n); };
    std::vector<float> copy, idle, queued, cold;
    for (int r = 0; r < reps + 3; ++r) {
      const bool keep = r >= 3;
      cudaEventRecord(a); cudaMemcpyAsync(d_copy, d_flags[0], bytes, cudaMemcpyDeviceToDevice); cudaEventRecord(b);
      float t = elapsed_us(); if (keep) copy.push_back(t);
      cudaEventRecord(a); select(d_flags[0]); cudaEventRecord(b);
      t = elapsed_us(); if (keep) idle.push_back(t);
      cudaMemcpyAsync(d_copy, d_flags[0], bytes, cudaMemcpyDeviceToDevice);
      cudaEventRecord(a); select(d_flags[0]); cudaEventRecord(b);
      t = elapsed_us(); if (keep) queued.push_back(t);
      cudaMemcpyAsync(d_copy, d_flags[r % copies], bytes, cudaMemcpyDeviceToDevice);
      cudaEventRecord(a); select(d_flags[(r + 1) % copies]); cudaEventRecord(b);
      t = elapsed_us(); if (keep) cold.push_back(t);
    }
    uint32_t got = 0; cudaMemcpy(&got, d_num, 4, cudaMemcpyDeviceToHost);
    std::vector<uint32_t> out(got); cudaMemcpy(out.data(), d_out, 4ull * got, cudaMemcpyDeviceToHost);
    bool ok = got == k; size_t j = 0;
    for (uint32_t i = 0; i < n && ok; ++i) if (flags[i]) ok = out[j++] == i;
    float mc = median(copy);
    printf("%10u %10zu %24s %10.1f %9.1f\n", n, k, "memcpy d2d (read+write N)", mc, 8.0 * n / (mc * 1e3));
    const char* names[] = {"Flagged, idle", "Flagged, queued", "Flagged, cold"};
    std::vector<float>* times[] = {&idle, &queued, &cold};
    for (int m = 0; m < 3; ++m) {
      float ms = median(*times[m]);
      printf("%10u %10zu %24s %10.1f %9.1f %s\n", n, k, names[m], ms, 4.0 * (n + k) / (ms * 1e3), ok ? "ok" : "WRONG");
    }
    // PAYLOAD=4: the same flags selecting 16-byte items (uint4 i, i+1, i+2, i+3:
    // the 4-word payload `bench --payload 4` copies), queued behind a memcpy of
    // the items, and that memcpy (read and write 16 N bytes) on its own.
    if (getenv("PAYLOAD") && atoi(getenv("PAYLOAD")) == 4) {
      std::vector<uint4> items(n);
      for (uint32_t i = 0; i < n; ++i) items[i] = make_uint4(i, i + 1, i + 2, i + 3);
      uint4 *d_items, *d_items_out, *d_items_copy;
      cudaMalloc(&d_items, 16ull * n); cudaMalloc(&d_items_out, 16ull * n); cudaMalloc(&d_items_copy, 16ull * n);
      cudaMemcpy(d_items, items.data(), 16ull * n, cudaMemcpyHostToDevice);
      size_t temp4 = 0; void* d_temp4 = nullptr;
      cub::DeviceSelect::Flagged(d_temp4, temp4, d_items, d_flags[0], d_items_out, d_num, (int)n);
      cudaMalloc(&d_temp4, temp4);
      std::vector<float> copy4, queued4;
      for (int r = 0; r < reps + 3; ++r) {
        const bool keep = r >= 3;
        cudaEventRecord(a); cudaMemcpyAsync(d_items_copy, d_items, 16ull * n, cudaMemcpyDeviceToDevice); cudaEventRecord(b);
        float t = elapsed_us(); if (keep) copy4.push_back(t);
        cudaMemcpyAsync(d_copy, d_flags[0], bytes, cudaMemcpyDeviceToDevice);
        cudaEventRecord(a);
        cub::DeviceSelect::Flagged(d_temp4, temp4, d_items, d_flags[(r + 1) % copies], d_items_out, d_num, (int)n);
        cudaEventRecord(b);
        t = elapsed_us(); if (keep) queued4.push_back(t);
      }
      uint32_t got4 = 0; cudaMemcpy(&got4, d_num, 4, cudaMemcpyDeviceToHost);
      std::vector<uint4> out4(got4); cudaMemcpy(out4.data(), d_items_out, 16ull * got4, cudaMemcpyDeviceToHost);
      bool ok4 = got4 == k; size_t j4 = 0;
      for (uint32_t i = 0; i < n && ok4; ++i) if (flags[i]) { ok4 = out4[j4].x == i && out4[j4].w == i + 3; ++j4; }
      float m4 = median(copy4), q4 = median(queued4);
      printf("%10u %10zu %24s %10.1f %9.1f\n", n, k, "memcpy d2d 16B items", m4, 32.0 * n / (m4 * 1e3));
      printf("%10u %10zu %24s %10.1f %9.1f %s\n", n, k, "Flagged 16B items, queued", q4, (4.0 * n + 16.0 * n + 16.0 * k) / (q4 * 1e3), ok4 ? "ok" : "WRONG");
      cudaFree(d_items); cudaFree(d_items_out); cudaFree(d_items_copy); cudaFree(d_temp4);
    }
    for (auto f : d_flags) cudaFree(f);
    cudaFree(d_out); cudaFree(d_copy); cudaFree(d_num); cudaFree(d_temp);
  }
}
