//! CPU mirror of `shaders/atomic_aggregated.wgsl`.

use crate::is_visible;

use crate::layout::ATOMIC_WORKGROUP as WORKGROUP_SIZE;

/// Workgroups run one after another in the order given by `schedule` (indices
/// of workgroups); within each, invocations take slots from the shared counter.
pub fn atomic_aggregated_scheduled(
    visible: &[u32],
    schedule: impl IntoIterator<Item = usize>,
) -> Vec<u32> {
    let mut counter = 0usize;
    let mut indices = vec![0u32; visible.len()];
    for group in schedule {
        let start = group * WORKGROUP_SIZE;
        let end = (start + WORKGROUP_SIZE).min(visible.len());
        let passing: Vec<usize> = (start..end).filter(|&i| is_visible(visible[i])).collect();
        // Invocation 0 reserves the whole group's range with one global atomic.
        let global_base = counter;
        counter += passing.len();
        for (local_slot, &i) in passing.iter().enumerate() {
            indices[global_base + local_slot] = i as u32;
        }
    }
    indices.truncate(counter);
    indices
}

/// Workgroups in launch order.
pub fn atomic_aggregated(visible: &[u32]) -> Vec<u32> {
    atomic_aggregated_scheduled(visible, 0..visible.len().div_ceil(WORKGROUP_SIZE))
}
