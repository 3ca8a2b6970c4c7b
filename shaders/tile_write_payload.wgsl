// The write-out of the tile kernels (shaders/tiles.wgsl) for a compaction that
// also copies each visible object's payload (PAYLOAD_WORDS u32 per object) into a
// dense buffer, in the same pass: object i's words, payload_in[i·PAYLOAD_WORDS ..],
// go to the slot of its index, payload_out[slot·PAYLOAD_WORDS ..]. It takes the
// place of shaders/tile_write.wgsl.

// u32 words per object, 1 to 16 (set per pipeline).
override PAYLOAD_WORDS : u32 = 1u;
@group(0) @binding(8) var<storage, read>       payload_in  : array<u32>;
@group(0) @binding(9) var<storage, read_write> payload_out : array<u32>;

// The staged indices to their slots, then their payloads word by word:
// consecutive invocations write consecutive words (a run of whole objects), and
// read each object's words together.
fn write_out(li : u32, base : u32, total : u32) {
  for (var s = li; s < total; s = s + WORKGROUP_SIZE) {
    indices[base + s] = object_index(staged[s]);
  }
  let words = total * PAYLOAD_WORDS;
  let first = base * PAYLOAD_WORDS;
  for (var w = li; w < words; w = w + WORKGROUP_SIZE) {
    let s = w / PAYLOAD_WORDS;
    let k = w - s * PAYLOAD_WORDS;
    payload_out[first + w] = payload_in[staged[s] * PAYLOAD_WORDS + k];
  }
}
