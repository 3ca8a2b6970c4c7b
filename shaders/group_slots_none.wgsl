// The tiles' group slots when no segments read them: nothing
// (shaders/group_slots.wgsl writes them for segmented compactions).
fn write_group_slots(tile : u32, li : u32, scan : Scan, base : u32) {}
fn write_group_bits(tile : u32, li : u32, nibbles : u32) {}
