//! What each method's kernels need of the device, checked before anything is
//! built: a device below it gets `Error::Limit` from `prepare`, never a failed
//! pipeline later. The figures are the catalogue's (`gpu::catalogue`; `gpu::tests`
//! derives them from the WGSL with naga and fails when they drift).

use crate::error::{Error, Result};
use crate::gpu::catalogue::{KernelId, PAYLOAD_BINDINGS};
use crate::Method;

/// One kernel's needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Needs {
    pub storage_buffers: u32,
    pub uniform_buffers: u32,
    /// Bytes of `var<workgroup>` memory.
    pub workgroup_storage: u32,
    pub invocations: u32,
}

impl Needs {
    fn max(self, other: Needs) -> Needs {
        Needs {
            storage_buffers: self.storage_buffers.max(other.storage_buffers),
            uniform_buffers: self.uniform_buffers.max(other.uniform_buffers),
            workgroup_storage: self.workgroup_storage.max(other.workgroup_storage),
            invocations: self.invocations.max(other.invocations),
        }
    }
}

/// What kernel `id` needs, in a compaction that copies a payload or not.
pub(crate) fn kernel_needs(id: KernelId, payload: bool) -> Needs {
    let spec = id.spec();
    let payload_buffers = if spec.copies_payload(payload) {
        PAYLOAD_BINDINGS.len()
    } else {
        0
    };
    Needs {
        storage_buffers: (spec.bindings.len() + payload_buffers) as u32,
        uniform_buffers: u32::from(spec.reads_live),
        workgroup_storage: spec.workgroup_storage,
        invocations: spec.workgroup_size as u32,
    }
}

/// What a compaction of `method` needs: its kernels (the traced scan block is the
/// playground's; a segmented compaction adds its segment kernel), with a payload or not.
pub(crate) fn compaction_needs(method: Method, payload: bool, segments: bool) -> Needs {
    KernelId::of(method)
        .iter()
        .filter(|&&id| segments || !id.writes_segments())
        .map(|&id| kernel_needs(id, payload))
        .fold(Needs::default(), Needs::max)
}

/// The most `method` may need: with a payload and segments where it takes them.
fn method_needs(method: Method) -> Needs {
    compaction_needs(method, method.takes_payload(), true)
}

/// `wgpu::Limits::downlevel_defaults()` raised to what `method` needs.
pub(crate) fn required_limits(method: Method) -> wgpu::Limits {
    let needs = method_needs(method);
    let base = wgpu::Limits::downlevel_defaults();
    wgpu::Limits {
        max_storage_buffers_per_shader_stage: base
            .max_storage_buffers_per_shader_stage
            .max(needs.storage_buffers),
        max_uniform_buffers_per_shader_stage: base
            .max_uniform_buffers_per_shader_stage
            .max(needs.uniform_buffers),
        max_compute_workgroup_storage_size: base
            .max_compute_workgroup_storage_size
            .max(needs.workgroup_storage),
        max_compute_invocations_per_workgroup: base
            .max_compute_invocations_per_workgroup
            .max(needs.invocations),
        max_compute_workgroup_size_x: base.max_compute_workgroup_size_x.max(needs.invocations),
        ..base
    }
}

/// `Ok` when `limits` hold what a compaction of `method` needs (see `compaction_needs`).
pub(crate) fn check(method: Method, needs: Needs, limits: &wgpu::Limits) -> Result<()> {
    let checks = [
        (
            "max_storage_buffers_per_shader_stage",
            needs.storage_buffers,
            limits.max_storage_buffers_per_shader_stage,
        ),
        (
            "max_uniform_buffers_per_shader_stage",
            needs.uniform_buffers,
            limits.max_uniform_buffers_per_shader_stage,
        ),
        (
            "max_compute_workgroup_storage_size",
            needs.workgroup_storage,
            limits.max_compute_workgroup_storage_size,
        ),
        (
            "max_compute_invocations_per_workgroup",
            needs.invocations,
            limits.max_compute_invocations_per_workgroup,
        ),
        (
            "max_compute_workgroup_size_x",
            needs.invocations,
            limits.max_compute_workgroup_size_x,
        ),
    ];
    for (limit, needed, allowed) in checks {
        if needed > allowed {
            return Err(Error::Limit {
                method,
                limit,
                needed: u64::from(needed),
                allowed: u64::from(allowed),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first number of a table cell, in bytes where it has a unit.
    fn number(cell: &str) -> u32 {
        let mut words = cell.split_whitespace();
        let value: u32 = words.next().and_then(|w| w.parse().ok()).expect("a number");
        match words.next() {
            Some("KiB") => value * 1024,
            _ => value,
        }
    }

    #[test]
    fn the_library_readmes_requirements_table_matches_the_kernels() {
        let docs = include_str!("../../LIBRARY.md");
        for method in Method::ALL {
            let name = format!("`{method:?}`");
            let row = docs
                .lines()
                .map(str::trim_start)
                .find(|l| l.starts_with(&format!("| {name} |")))
                .unwrap_or_else(|| panic!("no row for {name} in LIBRARY.md"));
            let cells: Vec<u32> = row.split('|').skip(2).take(4).map(number).collect();
            let needs = method_needs(method);
            let expected = [
                needs.storage_buffers,
                needs.uniform_buffers,
                needs.workgroup_storage,
                needs.invocations,
            ];
            assert_eq!(cells, expected, "{name}: {row}");
        }
    }
}
