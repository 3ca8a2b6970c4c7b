//! CPU mirror of `shaders/scan_tiles.wgsl`: tile counts into tile slots.

/// Each tile's first output slot (the exclusive prefix of `counts`) and the total.
pub fn scan_tiles(counts: &[u32]) -> (Vec<u32>, u32) {
    let mut total = 0u32;
    let slots = counts
        .iter()
        .map(|&c| {
            let slot = total;
            total += c;
            slot
        })
        .collect();
    (slots, total)
}
