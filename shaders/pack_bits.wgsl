// Packs u32 flags (any nonzero value is visible) into bits, 32 to a word, least
// significant first: what `lookback_bits` reads when the caller has u32 flags.
// A culling pass that writes bits directly needs no packing. `pack_bits_counted`
// also counts each tile of 4096 flags for `packed-scan` (what `tile_counts` does
// from bits), so that the bits are not read again for it.
//
// A streaming pass: each workgroup packs CHUNK flags into WORKGROUP_SIZE words.
// Invocation li loads eight vec4 (row k: vec4 li of the chunk's k-th run of
// WORKGROUP_SIZE, so every load is coalesced), all in flight together, and leaves
// one nibble per vec4 in shared memory; then invocation t ORs the eight nibbles of
// word t and writes it (consecutive invocations, consecutive words), instead of
// one flag per invocation with shared atomics (BENCHMARKS.md v16).

const WORKGROUP_SIZE : u32 = 256u;
// Flags per workgroup: one output word per invocation.
const CHUNK : u32 = 32u * WORKGROUP_SIZE;

// With shaders/input.wgsl (the flags at bindings 0 and 1: `input` is exactly the
// capacity in words) and shaders/live.wgsl (the live uniform at binding 7).
@group(0) @binding(2) var<storage, read_write> bits   : array<u32>;
// `pack_bits_counted`: one count per tile of the capacity.
@group(0) @binding(3) var<storage, read_write> tile_counts : array<u32>;

// nibbles[k·WORKGROUP_SIZE + li]: the visible flags of invocation li's vec4 of row k.
var<workgroup> nibbles : array<u32, CHUNK / 4u>;

// Row k of invocation li's eight vec4, as one nibble each in nibbles[].
fn keep(li : u32, f0 : vec4<u32>, f1 : vec4<u32>, f2 : vec4<u32>, f3 : vec4<u32>,
        f4 : vec4<u32>, f5 : vec4<u32>, f6 : vec4<u32>, f7 : vec4<u32>) {
  let w = WORKGROUP_SIZE;
  nibbles[li] = nibble(f0);
  nibbles[w + li] = nibble(f1);
  nibbles[2u * w + li] = nibble(f2);
  nibbles[3u * w + li] = nibble(f3);
  nibbles[4u * w + li] = nibble(f4);
  nibbles[5u * w + li] = nibble(f5);
  nibbles[6u * w + li] = nibble(f6);
  nibbles[7u * w + li] = nibble(f7);
}

// A chunk is two tiles: words 0 .. TILE_WORDS-1 and the rest.
const TILE_WORDS : u32 = 128u;
var<workgroup> chunk_counts : array<atomic<u32>, WORKGROUP_SIZE / TILE_WORDS>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn pack_bits(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  pack(li, linear_workgroup(wid, groups));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn pack_bits_counted(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  // Ordered before the adds by the barrier in `pack`.
  if (li < WORKGROUP_SIZE / TILE_WORDS) {
    atomicStore(&chunk_counts[li], 0u);
  }
  let chunk = linear_workgroup(wid, groups);
  atomicAdd(&chunk_counts[li / TILE_WORDS], countOneBits(pack(li, chunk)));
  workgroupBarrier();
  let tile = chunk * (WORKGROUP_SIZE / TILE_WORDS) + li;
  if (li < WORKGROUP_SIZE / TILE_WORDS && tile < arrayLength(&tile_counts)) {
    tile_counts[tile] = atomicLoad(&chunk_counts[li]);
  }
}

// Packs chunk `chunk` (invocation li writes word li of it) and returns the word.
// Call it from uniform control flow.
fn pack(li : u32, chunk : u32) -> u32 {
  let n = min(live.x, arrayLength(&input));
  let v = chunk * (CHUNK / 4u) + li;
  let w = WORKGROUP_SIZE;
  if ((chunk + 1u) * (CHUNK / 4u) <= n / 4u) {
    keep(li, input4[v], input4[v + w], input4[v + 2u * w], input4[v + 3u * w],
         input4[v + 4u * w], input4[v + 5u * w], input4[v + 6u * w], input4[v + 7u * w]);
  } else {
    keep(li, load4_checked(v, n), load4_checked(v + w, n), load4_checked(v + 2u * w, n),
         load4_checked(v + 3u * w, n), load4_checked(v + 4u * w, n), load4_checked(v + 5u * w, n),
         load4_checked(v + 6u * w, n), load4_checked(v + 7u * w, n));
  }
  workgroupBarrier();
  // Word li of the chunk: row li/32, whose 32 flags are the vec4 of invocations
  // 8·(li%32) .. +7 of that row.
  let first = (li / 32u) * w + 8u * (li % 32u);
  let word = nibbles[first] | (nibbles[first + 1u] << 4u) | (nibbles[first + 2u] << 8u) |
             (nibbles[first + 3u] << 12u) | (nibbles[first + 4u] << 16u) |
             (nibbles[first + 5u] << 20u) | (nibbles[first + 6u] << 24u) |
             (nibbles[first + 7u] << 28u);
  let out = chunk * WORKGROUP_SIZE + li;
  if (out < arrayLength(&bits)) {
    bits[out] = word;
  }
  return word;
}
