//! A long compaction recorded in slices, one submission each, so that a caller
//! sharing a slow GPU (a software adapter; a page's other playgrounds) lets other
//! work run between them. Only the methods whose kernels number their work by
//! workgroup id (atomic, aggregated, scan) can be cut: each dispatch into pieces
//! of at most `max_invocations`, the piece's first workgroup in live.z. The
//! single-pass methods number their tiles by ticket over the whole grid: one slice.

use std::sync::atomic::Ordering;

use super::record::clear_before;
use super::{Compaction, Compactor};
use crate::error::{Error, Result};
use crate::layout::WORD;
use crate::Method;

/// Where the first workgroup of a slice sits in the live uniform (word 2: live.z).
pub(super) const SLICE_BASE_BYTE: u64 = 2 * WORD;

/// Workgroups `first .. first + groups` of dispatch `dispatch`; `whole`: all of
/// them, dispatched as `encode` does (a 2-D grid past the per-dimension limit).
struct Piece {
    dispatch: usize,
    first: u32,
    groups: u32,
    whole: bool,
}

impl Compactor {
    /// How many slices [`Compactor::encode_slice`] records `compaction` in, with
    /// at most `max_invocations` invocations (about as many flags) a slice: 1
    /// for a compaction that small, and for the single-pass methods.
    pub fn slices(&self, compaction: &Compaction, max_invocations: u64) -> usize {
        self.pieces(compaction, max_invocations)
            .map_or(1, |p| p.len())
    }

    /// Records slice `k` of `compaction` into `encoder`: slices 0, 1, … in
    /// order, each submitted before the next is recorded (its first workgroup is
    /// written with `Queue::write_buffer`, as `set_len` writes the length), for
    /// the live length set before slice 0. The last slice does what `encode`
    /// does after its pass (the `instance_count_to` copy) and leaves the
    /// compaction as `encode` expects it; an abandoned sliced recording is undone
    /// by the next `encode`. The outputs are those of `encode`, bit for bit.
    pub fn encode_slice(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        compaction: &Compaction,
        max_invocations: u64,
        k: usize,
    ) -> Result<()> {
        self.owns(compaction, "encode_slice")?;
        let Some(pieces) = self.pieces(compaction, max_invocations) else {
            if k != 0 {
                return Err(Error::NoSuchSlice {
                    slice: k,
                    slices: 1,
                });
            }
            return self.encode(encoder, compaction);
        };
        let slices = pieces.len();
        let Some(slice) = pieces.get(k) else {
            return Err(Error::NoSuchSlice { slice: k, slices });
        };
        if k == 0 {
            clear_before(encoder, compaction);
        }
        // (Several pieces in a slice are whole dispatches: all start at workgroup 0.)
        self.queue.write_buffer(
            &compaction.live,
            SLICE_BASE_BYTE,
            bytemuck::bytes_of(&slice[0].first),
        );
        compaction.slice_base.store(true, Ordering::Relaxed);
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(compaction.pass_label()),
                timestamp_writes: None,
            });
            for piece in slice {
                let dispatch = &compaction.dispatches[piece.dispatch];
                if piece.whole {
                    // A whole dispatch on its own grid (2-D past the per-dimension limit), as `encode` records it.
                    self.dispatch(&mut pass, dispatch);
                } else {
                    dispatch
                        .kernel
                        .dispatch_groups(&mut pass, dispatch.groups(), piece.groups);
                }
            }
        }
        if k + 1 == slices {
            encoder.clear_buffer(&compaction.live, SLICE_BASE_BYTE, Some(WORD));
            compaction.slice_base.store(false, Ordering::Relaxed);
            if let Some((target, offset)) = &compaction.instance_count_to {
                encoder.copy_buffer_to_buffer(&compaction.count, 0, target, *offset, WORD);
            }
        }
        Ok(())
    }

    /// The slices, each a list of pieces: a dispatch larger than
    /// `max_invocations` is cut into pieces of a slice each; whole dispatches go
    /// together while they add up to no more (all at workgroup 0: one live.z a
    /// submission). None for the methods that cannot be cut, and for a
    /// compaction with nothing to dispatch.
    fn pieces(&self, compaction: &Compaction, max_invocations: u64) -> Option<Vec<Vec<Piece>>> {
        if !matches!(
            compaction.method,
            Method::Atomic | Method::Aggregated | Method::Scan
        ) {
            return None;
        }
        let max_invocations = max_invocations.max(1);
        let mut slices: Vec<Vec<Piece>> = Vec::new();
        // Invocations in the last slice, while it holds only whole dispatches.
        let mut open: Option<u64> = None;
        for (index, dispatch) in compaction.dispatches.iter().enumerate() {
            let kernel = &dispatch.kernel;
            let total = kernel.groups(dispatch.invocations);
            // A dispatch that fits a slice goes whole, on its own grid: however many workgroups it
            // has, one submission (a hardware GPU's unlimited slice never cuts anything).
            let fits = kernel.groups(max_invocations).max(1);
            // A cut piece takes one dimension: the extra workgroups of a 2-D grid would redo the next piece.
            let per = fits.min(u64::from(self.max_workgroups_per_dimension));
            if total <= fits {
                let whole = Piece {
                    dispatch: index,
                    first: 0,
                    groups: total as u32,
                    whole: true,
                };
                match (open, slices.last_mut()) {
                    (Some(sum), Some(last)) if sum + dispatch.invocations <= max_invocations => {
                        last.push(whole);
                        open = Some(sum + dispatch.invocations);
                    }
                    _ => {
                        slices.push(vec![whole]);
                        open = Some(dispatch.invocations);
                    }
                }
                continue;
            }
            open = None;
            let mut first = 0;
            while first < total {
                let groups = per.min(total - first);
                slices.push(vec![Piece {
                    dispatch: index,
                    first: first as u32,
                    groups: groups as u32,
                    whole: false,
                }]);
                first += groups;
            }
        }
        (!slices.is_empty()).then_some(slices)
    }
}
