// Per-mesh records packed to the meshes with a visible object
// (`SegmentsDesc::packed`): after shaders/segment_args.wgsl has written one record
// per mesh into a scratch buffer, the records with instances go first, in mesh
// order, each mesh's number alongside; the rest draw nothing, and the draw count
// is how many were kept. A `multi_draw_*_indirect_count` then issues no empty draw.
//
// One workgroup, composed with shaders/scan_tiles.wgsl for its workgroup scan
// (`workgroup_exclusive`, WORKGROUP_SIZE): each round an invocation takes
// PACK_PER_INVOCATION consecutive meshes, the scan of their counts of kept records
// gives each its first place.

// One record per mesh (as many words as `own_args`), as segment_args wrote them.
@group(0) @binding(3) var<storage, read>       records  : array<u32>;
// The compaction's own arguments: their length is the words of a record.
@group(0) @binding(4) var<storage, read>       own_args : array<u32>;
// The packed records, then the draw count.
@group(0) @binding(5) var<storage, read_write> args     : array<u32>;
// The mesh of each packed record; NO_MESH past the draw count.
@group(0) @binding(6) var<storage, read_write> meshes   : array<u32>;

const PACK_PER_INVOCATION : u32 = 16u;
const NO_MESH : u32 = 0xFFFFFFFFu;

fn has_instances(s : u32, words : u32, segments : u32) -> bool {
  return s < segments && records[s * words + 1u] > 0u;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn pack_records(@builtin(local_invocation_index) li : u32) {
  let words = arrayLength(&own_args);
  let segments = arrayLength(&meshes);
  var carry = 0u;
  for (var first = 0u; first < segments; first = first + WORKGROUP_SIZE * PACK_PER_INVOCATION) {
    let mine = first + li * PACK_PER_INVOCATION;
    var kept = 0u;
    for (var j = 0u; j < PACK_PER_INVOCATION; j = j + 1u) {
      kept = kept + select(0u, 1u, has_instances(mine + j, words, segments));
    }
    let scanned = workgroup_exclusive(li, kept);
    var at = carry + scanned.x;
    for (var j = 0u; j < PACK_PER_INVOCATION; j = j + 1u) {
      let s = mine + j;
      if (has_instances(s, words, segments)) {
        for (var w = 0u; w < words; w = w + 1u) {
          args[at * words + w] = records[s * words + w];
        }
        meshes[at] = s;
        at = at + 1u;
      }
    }
    carry = carry + scanned.y;
  }
  for (var k = carry + li; k < segments; k = k + WORKGROUP_SIZE) {
    for (var w = 0u; w < words; w = w + 1u) {
      args[k * words + w] = 0u;
    }
    meshes[k] = NO_MESH;
  }
  if (li == 0u) {
    args[segments * words] = carry;
  }
}
