//! CPU mirror of `shaders/atomic_counter.wgsl`.

use crate::is_visible;

/// Runs the invocations one after another, which is one legal schedule of the
/// GPU's: every visible invocation takes the counter's current value as its slot.
pub fn atomic_counter(visible: &[u32]) -> Vec<u32> {
    let mut counter = 0usize;
    let mut indices = vec![0u32; visible.len()];
    for (i, &flag) in visible.iter().enumerate() {
        if is_visible(flag) {
            let slot = counter;
            counter += 1;
            indices[slot] = i as u32;
        }
    }
    indices.truncate(counter);
    indices
}
