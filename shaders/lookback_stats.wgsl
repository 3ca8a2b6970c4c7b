// Measurement only (`bench --stats`): the look-back's event counters, appended to
// the `tiles` module (src/gpu/catalogue.rs). With STATS false (the default) every
// function is empty after constant folding. Counted in STAT_WORDS words at the end
// of `tile_states`: wide rounds, polls, fallbacks, tiles, then the workgroups
// running now and the most that ever ran at once.

override STATS : bool = false;
const STAT_WORDS : u32 = 8u;

// Thread 0's event counts: wide rounds, polls, fallbacks.
var<private> stat_counts : vec4<u32>;

fn count_wide_round() {
  stat_counts.x = stat_counts.x + 1u;
}

fn count_poll() {
  stat_counts.y = stat_counts.y + 1u;
}

fn count_fallback() {
  stat_counts.z = stat_counts.z + 1u;
}

fn record_stats() {
  if (STATS) {
    let at = arrayLength(&tile_states) - STAT_WORDS;
    atomicAdd(&tile_states[at], stat_counts.x);
    atomicAdd(&tile_states[at + 1u], stat_counts.y);
    atomicAdd(&tile_states[at + 2u], stat_counts.z);
    atomicAdd(&tile_states[at + 3u], 1u);
    // A workgroup of `lookback` may finish two tiles.
    stat_counts = vec4<u32>(0u);
  }
}

// STATS: workgroups running now, and the most that ever ran at once.
fn stats_enter(li : u32) {
  if (STATS && li == 0u) {
    let at = arrayLength(&tile_states) - STAT_WORDS;
    atomicMax(&tile_states[at + 5u], atomicAdd(&tile_states[at + 4u], 1u) + 1u);
  }
}

fn stats_leave(li : u32) {
  if (STATS && li == 0u) {
    atomicSub(&tile_states[arrayLength(&tile_states) - STAT_WORDS + 4u], 1u);
  }
}
