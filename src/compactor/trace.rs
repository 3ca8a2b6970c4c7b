//! Real GPU state after every step, for a teaching tool's stepper
//! (`teaching::trace_*`): the scan runs its traced block-scan pipelines and every
//! intermediate buffer is read back; `packed-scan` reads its tile counts between
//! its kernels; the tile methods run once and their tile states are read back.

use super::record::clear_before;
use super::{CompactionDesc, Compactor, Method, ScratchBuffer};
use crate::error::{Error, Result};
use crate::gpu::catalogue::KernelId;
use crate::gpu::error_scope::scoped;
use crate::gpu::readback::Readback;
use crate::layout::{BLOCK, NO_SLOT, STEPS, TILE};
use crate::output::CompactionOutput;
use crate::teaching::cpu::lookback::{simulate_chains, tile_aggregates};
use crate::teaching::trace::{
    AtomicTrace, PackedTrace, ScanLevelTrace, ScanTrace, TileSchedule, TileStatus, TileTrace,
    TileTraceEntry,
};

/// Traces are for arrays a person reads; beyond this, `trace_*` refuse.
pub const MAX_TRACE_FLAGS: usize = 8192;

/// `Err(Error::TraceTooLarge)` past [`MAX_TRACE_FLAGS`]: what every `trace_*`
/// checks first, and a CPU mirror's traces too.
pub fn check_trace_len(len: usize) -> Result<()> {
    if len > MAX_TRACE_FLAGS {
        return Err(Error::TraceTooLarge {
            n: len,
            max: MAX_TRACE_FLAGS,
        });
    }
    Ok(())
}

/// Where each level's buffers land in the readback.
struct LevelSlots {
    input: usize,
    block_prefix: usize,
    block_sums: usize,
    prefix: usize,
    trace: usize,
}

/// Runs the scan with every dispatch in its own pass and reads back each level's
/// input, per-step block states, block sums, prefixes before and after the
/// offsets, the scatter's output and the indirect arguments.
pub async fn trace_scan(compactor: &Compactor, flags: &[u32]) -> Result<ScanTrace> {
    check_trace_len(flags.len())?;
    scoped(&compactor.device, compactor.trace_scan_inner(flags)).await
}

/// Runs an atomic method once and reports the slot each visible invocation
/// received, read from the real output buffer.
pub async fn trace_atomic(
    compactor: &Compactor,
    flags: &[u32],
    method: Method,
) -> Result<AtomicTrace> {
    check_trace_len(flags.len())?;
    let output = compactor.run(flags, method).await?;
    Ok(AtomicTrace::from_indices(
        flags.to_vec(),
        output.indices,
        output.indirect.instance_count(),
    ))
}

/// Runs `packed-scan` with every dispatch in its own pass and reads back the
/// bits, each tile's count (between the packing and `scan_tiles`, which scans
/// them in place), the tiles' slots, the indices and the indirect arguments.
/// `teaching::cpu::trace_packed` is its CPU mirror.
pub async fn trace_packed(compactor: &Compactor, flags: &[u32]) -> Result<PackedTrace> {
    check_trace_len(flags.len())?;
    scoped(&compactor.device, compactor.trace_packed_inner(flags)).await
}

/// Runs a tile method (`Lookback`, `LookbackBits`, `TileAtomic`) once and reads
/// back its tile states, ticket counter, indices and indirect arguments, with the
/// look-back chains the CPU simulates for `schedule` (no buffer records which
/// states a workgroup read; `TileSchedule::default()` for the usual one). See
/// `TileTraceEntry` for which numbers are GPU readback and which are CPU-derived.
/// Any array the method accepts: the states are N/4096 words.
/// `teaching::cpu::trace_tiles` is its CPU mirror.
pub async fn trace_tiles(
    compactor: &Compactor,
    flags: &[u32],
    method: Method,
    schedule: &TileSchedule,
) -> Result<TileTrace> {
    if !method.uses_tiles() {
        return Err(Error::NotTiled(method));
    }
    scoped(
        &compactor.device,
        compactor.trace_tiles_inner(flags, method, schedule),
    )
    .await
}

impl Compactor {
    /// Records `compaction`'s clears, then each of its dispatches in a pass of
    /// its own, calling `between` after each: where a trace copies out a buffer
    /// that a later kernel changes in place.
    fn encode_passes(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        compaction: &super::Compaction,
        mut between: impl FnMut(&super::Dispatch, &mut wgpu::CommandEncoder),
    ) {
        clear_before(encoder, compaction);
        for dispatch in &compaction.dispatches {
            {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                self.dispatch(&mut pass, dispatch);
            }
            between(dispatch, encoder);
        }
    }

    async fn trace_scan_inner(&self, flags: &[u32]) -> Result<ScanTrace> {
        let len = flags.len() as u64;
        let buffer = ScratchBuffer(self.upload(flags)?);
        let compaction = self
            .prepare_impl(&CompactionDesc::new(&buffer, len, Method::Scan), true)?
            .destroy_on_drop();
        let device = &self.device;
        let mut encoder = device.create_command_encoder(&Default::default());
        let mut readback = Readback::default();
        let mut block_prefix = Vec::new();
        self.encode_passes(&mut encoder, &compaction, |dispatch, encoder| {
            // The prefix before `add_offsets` changes it in place.
            if let Some(level) = dispatch.scan_level {
                let buffers = &compaction.levels[level];
                block_prefix.push(readback.copy(device, encoder, &buffers.prefix, 0, buffers.len));
            }
        });
        let levels = &compaction.levels;
        let slots: Vec<LevelSlots> = levels
            .iter()
            .enumerate()
            .map(|(level, buffers)| {
                let sums = buffers.block_sums.as_ref().unwrap_or(&compaction.count);
                let blocks = buffers.len.div_ceil(BLOCK as u64);
                let input = match level {
                    0 => &buffer,
                    _ => levels[level - 1]
                        .block_sums
                        .as_ref()
                        .unwrap_or(&compaction.count),
                };
                let trace = buffers.trace.as_ref().unwrap_or(&buffers.prefix);
                LevelSlots {
                    input: readback.copy(device, &mut encoder, input, 0, buffers.len),
                    block_prefix: block_prefix[level],
                    block_sums: readback.copy(device, &mut encoder, sums, 0, blocks),
                    prefix: readback.copy(device, &mut encoder, &buffers.prefix, 0, buffers.len),
                    trace: readback.copy(device, &mut encoder, trace, 0, trace.size() / 4),
                }
            })
            .collect();
        let output = compaction.copy_output(device, &mut encoder, &mut readback, u64::MAX);
        self.queue.submit([encoder.finish()]);
        let mut read = readback.read(device).await?;
        let CompactionOutput {
            indices,
            indirect,
            count,
            ..
        } = output.take(&mut read);
        let instance_count = indirect.instance_count();
        let mut take = |slot: usize| std::mem::take(&mut read[slot]);
        let mut out_levels: Vec<ScanLevelTrace> = slots
            .iter()
            .map(|s| {
                let input = take(s.input);
                let snapshots = take(s.trace);
                let padded = snapshots.len() / (STEPS + 1);
                let steps = snapshots
                    .chunks(padded.max(1))
                    .map(|snapshot| snapshot[..input.len()].to_vec())
                    .collect();
                ScanLevelTrace {
                    steps,
                    block_prefix: take(s.block_prefix),
                    block_sums: take(s.block_sums),
                    offsets: Vec::new(),
                    prefix: take(s.prefix),
                    input,
                }
            })
            .collect();
        for level in 0..out_levels.len().saturating_sub(1) {
            out_levels[level].offsets = out_levels[level + 1].prefix.clone();
        }
        Ok(ScanTrace {
            flags: flags.to_vec(),
            levels: out_levels,
            count,
            indices,
            instance_count,
        })
    }

    async fn trace_packed_inner(&self, flags: &[u32]) -> Result<PackedTrace> {
        let len = flags.len() as u64;
        let buffer = ScratchBuffer(self.upload(flags)?);
        let compaction = self
            .prepare_impl(
                &CompactionDesc::new(&buffer, len, Method::PackedScan),
                false,
            )?
            .destroy_on_drop();
        let (Some(counts), Some(bits)) = (&compaction.tile_counts, &compaction.packed_bits) else {
            return Err(Error::NotTiled(Method::PackedScan));
        };
        let tiles = len.div_ceil(TILE as u64);
        let device = &self.device;
        let mut encoder = device.create_command_encoder(&Default::default());
        let mut readback = Readback::default();
        let mut counted = None;
        self.encode_passes(&mut encoder, &compaction, |dispatch, encoder| {
            // The counts before `scan_tiles` scans them in place.
            if dispatch.kernel.id == KernelId::PackBitsCounted {
                counted = Some(readback.copy(device, encoder, counts, 0, tiles));
            }
        });
        let bits = readback.copy(device, &mut encoder, bits, 0, len.div_ceil(32));
        let slots = readback.copy(device, &mut encoder, counts, 0, tiles);
        let output = compaction.copy_output(device, &mut encoder, &mut readback, u64::MAX);
        self.queue.submit([encoder.finish()]);
        let mut read = readback.read(device).await?;
        let CompactionOutput {
            indices,
            indirect,
            count,
            ..
        } = output.take(&mut read);
        Ok(PackedTrace {
            flags: flags.to_vec(),
            bits: std::mem::take(&mut read[bits]),
            tile_counts: counted.map_or(Vec::new(), |slot| std::mem::take(&mut read[slot])),
            tile_slots: std::mem::take(&mut read[slots]),
            indices,
            count,
            instance_count: indirect.instance_count(),
        })
    }

    async fn trace_tiles_inner(
        &self,
        flags: &[u32],
        method: Method,
        schedule: &TileSchedule,
    ) -> Result<TileTrace> {
        let len = flags.len() as u64;
        let buffer = ScratchBuffer(self.upload(flags)?);
        // A fresh compaction: its tile states start at 0 and its first run uses
        // the even status codes (parity 0).
        let compaction = self
            .prepare(&buffer, len, method, Self::DEFAULT_VERTEX_COUNT)?
            .destroy_on_drop();
        let Some(states) = &compaction.tile_states else {
            return Err(Error::NotTiled(method));
        };
        // The flags of one state: a tile, or two for large bits arrays.
        let span = TILE * compaction.subtiles as usize;
        let tiles = len.div_ceil(span as u64);
        let device = &self.device;
        let mut encoder = device.create_command_encoder(&Default::default());
        self.encode(&mut encoder, &compaction)?;
        let mut readback = Readback::default();
        let states = readback.copy(device, &mut encoder, states, 0, tiles + 1);
        let output = compaction.copy_output(device, &mut encoder, &mut readback, u64::MAX);
        self.queue.submit([encoder.finish()]);
        let mut read = readback.read(device).await?;
        let CompactionOutput {
            indices,
            indirect,
            count,
            ..
        } = output.take(&mut read);
        let instance_count = indirect.instance_count();
        let words = std::mem::take(&mut read[states]);
        let tickets = words.first().copied().unwrap_or(0);
        let decoded: Vec<(TileStatus, u32)> =
            words.iter().skip(1).map(|&w| decode_state(w, 0)).collect();
        let aggregates = tile_aggregates(flags, span);
        let exclusive: Vec<u32> = if method == Method::TileAtomic {
            run_starts(&indices, aggregates.len())
        } else {
            // What each tile's look-back found: the inclusive prefix before it.
            (0..aggregates.len())
                .map(|t| if t == 0 { 0 } else { decoded[t - 1].1 })
                .collect()
        };
        let entries = aggregates
            .iter()
            .zip(&decoded)
            .enumerate()
            .map(|(t, (&aggregate, &(status, value)))| {
                let first_flag = (t * span) as u64;
                let inclusive = match (method, exclusive[t]) {
                    (Method::TileAtomic, NO_SLOT) => NO_SLOT,
                    (Method::TileAtomic, base) => base + aggregate,
                    _ => value,
                };
                TileTraceEntry {
                    first_flag: first_flag as u32,
                    flags: (len - first_flag).min(span as u64) as u32,
                    aggregate,
                    exclusive: exclusive[t],
                    inclusive,
                    status,
                }
            })
            .collect();
        let chains = if method == Method::TileAtomic {
            Vec::new()
        } else {
            simulate_chains(&aggregates, schedule)
        };
        Ok(TileTrace {
            tile_size: span as u32,
            tiles: entries,
            chains,
            schedule: schedule.clone(),
            tickets,
            count,
            indices,
            instance_count,
        })
    }
}

/// A tile state word of `shaders/lookback.wgsl`: the value in the high 30 bits,
/// the status in the low 2, its code shifted by 2 in odd runs (`parity` 1).
fn decode_state(word: u32, parity: u32) -> (TileStatus, u32) {
    let status = match word.wrapping_sub(2 * parity) & 3 {
        1 => TileStatus::Aggregate,
        2 => TileStatus::Inclusive,
        // 0, and 3, which the kernel never writes.
        _ => TileStatus::Invalid,
    };
    (status, word >> 2)
}

/// `tile-atomic`: where each tile's run starts in the output (the value its
/// atomicAdd returned), or `NO_SLOT` for a tile that wrote nothing.
fn run_starts(indices: &[u32], tiles: usize) -> Vec<u32> {
    let mut starts = vec![NO_SLOT; tiles];
    for (slot, &index) in indices.iter().enumerate() {
        if let Some(start) = starts.get_mut(index as usize / TILE) {
            *start = (*start).min(slot as u32);
        }
    }
    starts
}
