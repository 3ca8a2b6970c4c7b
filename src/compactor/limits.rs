//! What each method's kernels need of the device, checked before anything is
//! built: a device below it gets `Error::Limit` from `prepare`, never a failed
//! pipeline later. The figures are the kernels' own (`gpu::tests` derives them
//! from the WGSL with naga and fails when they drift).

use super::pipelines::KernelId;
use crate::error::{Error, Result};
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

const fn needs(
    storage_buffers: u32,
    uniform_buffers: u32,
    workgroup_storage: u32,
    invocations: u32,
) -> Needs {
    Needs {
        storage_buffers,
        uniform_buffers,
        workgroup_storage,
        invocations,
    }
}

/// The look-back module's shared memory per kernel, the larger of the portable and
/// the subgroup composition: with subgroups, two staged rows and 512 B of subgroup
/// totals; portable, one staged row and the scan's 2 KiB (`gpu::lookback::STAGE_ROWS`).
/// `lookback_bits` stages one row in both, and `tile_atomic` and `tile_scatter_bits`
/// have no look-back state.
const LOOKBACK_WORKGROUP_STORAGE: u32 = 4632;
const LOOKBACK_BITS_WORKGROUP_STORAGE: u32 = 4128;
const TILE_ATOMIC_WORKGROUP_STORAGE: u32 = 4616;
const SCATTER_WORKGROUP_STORAGE: u32 = 4608;

/// What kernel `id` needs (traced scan blocks bind one more buffer).
pub(crate) fn kernel_needs(id: KernelId) -> Needs {
    match id {
        KernelId::AtomicCounter => needs(3, 1, 0, 64),
        KernelId::AtomicAggregated => needs(3, 1, 8, 64),
        KernelId::ScanBlock { traced, .. } => needs(3 + u32::from(traced), 1, 1024, 256),
        KernelId::AddOffsets => needs(2, 1, 0, 256),
        KernelId::Scatter => needs(3, 1, 0, 64),
        KernelId::IndirectArgs => needs(2, 0, 0, 1),
        KernelId::PackBits => needs(3, 1, 8192, 256),
        KernelId::PackBitsCounted => needs(4, 1, 8200, 256),
        KernelId::Lookback | KernelId::LookbackPaired => {
            needs(6, 1, LOOKBACK_WORKGROUP_STORAGE, 128)
        }
        KernelId::LookbackBits => needs(6, 1, LOOKBACK_BITS_WORKGROUP_STORAGE, 128),
        KernelId::TileAtomic => needs(5, 1, TILE_ATOMIC_WORKGROUP_STORAGE, 128),
        KernelId::TileCounts => needs(3, 1, 32, 256),
        KernelId::ScanTiles => needs(3, 1, 1024, 256),
        KernelId::TileScatterBits => needs(4, 1, SCATTER_WORKGROUP_STORAGE, 128),
    }
}

fn method_needs(method: Method) -> Needs {
    KernelId::of(method)
        .iter()
        .map(|&id| kernel_needs(id))
        .fold(Needs::default(), Needs::max)
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

/// `Ok` when `limits` hold every kernel of `method`.
pub(crate) fn check(method: Method, limits: &wgpu::Limits) -> Result<()> {
    let needs = method_needs(method);
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
    fn the_crate_docs_requirements_table_matches_the_kernels() {
        let docs = include_str!("../lib.rs");
        for method in Method::ALL {
            let name = format!("`{method:?}`");
            let row = docs
                .lines()
                .find(|l| l.starts_with("//!   | ") && l.contains(&name))
                .unwrap_or_else(|| panic!("no row for {name} in src/lib.rs"));
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
