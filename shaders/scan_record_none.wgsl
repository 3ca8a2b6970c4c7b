// The scan's record when nothing is traced: nothing
// (shaders/scan_record.wgsl keeps the snapshots of the traced build).
fn record(snapshot : u32, i : u32, li : u32) {}
