// The input words, bindings 0 and 1 of the kernels that read flags or bits a vec4
// at a time (the tile kernels, `pack_bits`, `tile_counts`), and the loads they
// share. src/gpu/catalogue.rs composes this file into their modules.

// The input words twice: as vec4 for the bulk (the first len/4 vec4 of flags, or of
// bit words), as u32 for the tail and for short arrays.
@group(0) @binding(0) var<storage, read> input4 : array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> input  : array<u32>;

fn tail_word(i : u32, len : u32) -> u32 {
  if (i < len) {
    return input[i];
  }
  return 0u;
}

// Flags 4·v .. 4·v+3, zero past flag n.
fn load4_checked(v : u32, n : u32) -> vec4<u32> {
  if (v < n / 4u) {
    return input4[v];
  }
  let e = 4u * v;
  return vec4<u32>(tail_word(e, n), tail_word(e + 1u, n), tail_word(e + 2u, n), tail_word(e + 3u, n));
}

// The visible flags of a vec4 as four bits.
fn nibble(f : vec4<u32>) -> u32 {
  let b = select(vec4<u32>(0u), vec4<u32>(1u, 2u, 4u, 8u), f != vec4<u32>(0u));
  return b.x | b.y | b.z | b.w;
}

// Bit word `i` with the bits at or past flag n cleared (they are not flags).
fn mask_word(i : u32, n : u32, word : u32) -> u32 {
  let first = i * 32u;
  if (first >= n) {
    return 0u;
  }
  if (n - first >= 32u) {
    return word;
  }
  return word & ((1u << (n - first)) - 1u);
}

// Bit word i, zero past the last word and with the bits at or past flag n cleared.
fn bit_word(i : u32, n : u32) -> u32 {
  return mask_word(i, n, tail_word(i, (n + 31u) / 32u));
}

// Bit words 4·v .. 4·v+3: one vec4 load where all four are words, else `bit_word`.
fn bit_words4(v : u32, n : u32) -> vec4<u32> {
  let i = 4u * v;
  if (v < (n + 31u) / 32u / 4u) {
    let w = input4[v];
    return vec4<u32>(mask_word(i, n, w.x), mask_word(i + 1u, n, w.y), mask_word(i + 2u, n, w.z),
                     mask_word(i + 3u, n, w.w));
  }
  return vec4<u32>(bit_word(i, n), bit_word(i + 1u, n), bit_word(i + 2u, n), bit_word(i + 3u, n));
}
