// The write-out of the tile kernels (shaders/tiles.wgsl) for a compaction that
// also copies each visible object's payload (PAYLOAD_WORDS u32 per object) into a
// dense buffer, in the same pass: object i's words, payload_in[i·PAYLOAD_WORDS ..],
// go to the slot of its index, payload_out[slot·PAYLOAD_WORDS ..]. It takes the
// place of shaders/tile_write.wgsl.

// u32 words per object, 1 to 64 (set per pipeline).
override PAYLOAD_WORDS : u32 = 1u;
@group(0) @binding(8) var<storage, read>       payload_in  : array<u32>;
@group(0) @binding(9) var<storage, read_write> payload_out : array<u32>;

// The staged indices to their slots, each plus the index base, then their payloads.
fn write_out(li : u32, base : u32, total : u32) {
  let kept = room_for(base, total);
  for (var s = li; s < kept; s = s + WORKGROUP_SIZE) {
    indices[base + s] = object_index(staged[s]);
  }
  copy_payloads(li, base, kept);
}

// Consecutive invocations write consecutive runs of the copies. A payload of whole
// vec4 goes four words an invocation, its four loads issued before their stores:
// one word at a time, each invocation waits on one load after another (4 words at
// 2^24 flags: 108 µs more than the indices alone, 158 one word at a time;
// BENCHMARKS.md v27).
fn copy_payloads(li : u32, base : u32, total : u32) {
  let first = base * PAYLOAD_WORDS;
  if (PAYLOAD_WORDS % 4u == 0u) {
    // (At least 1: the constant is folded in the branch a pipeline never takes too.)
    let quads = max(PAYLOAD_WORDS / 4u, 1u);
    for (var q = li; q < total * quads; q = q + WORKGROUP_SIZE) {
      let s = q / quads;
      let src = staged[s] * PAYLOAD_WORDS + 4u * (q - s * quads);
      let to = first + 4u * q;
      let a = payload_in[src];
      let b = payload_in[src + 1u];
      let c = payload_in[src + 2u];
      let d = payload_in[src + 3u];
      payload_out[to] = a;
      payload_out[to + 1u] = b;
      payload_out[to + 2u] = c;
      payload_out[to + 3u] = d;
    }
    return;
  }
  for (var w = li; w < total * PAYLOAD_WORDS; w = w + WORKGROUP_SIZE) {
    let s = w / PAYLOAD_WORDS;
    payload_out[first + w] = payload_in[staged[s] * PAYLOAD_WORDS + w - s * PAYLOAD_WORDS];
  }
}
