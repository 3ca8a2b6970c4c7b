//! Real GPU state after every step, for the playground's stepper: the scan runs
//! its traced block-scan pipelines and every intermediate buffer is read back.

use super::{Compactor, GpuErrorScope, KernelId, Method};
use crate::error::{Error, Result};
use crate::gpu::readback::Readback;
use crate::gpu::scan_block::{BLOCK, STEPS};
use crate::trace::{AtomicTrace, ScanLevelTrace, ScanTrace};

/// Traces are for arrays a person reads; beyond this, `trace_*` refuse.
pub const MAX_TRACE_FLAGS: usize = 8192;

fn check_trace_len(len: usize) -> Result<()> {
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

impl Compactor {
    /// Runs the scan with every dispatch in its own pass and reads back each
    /// level's input, per-step block states, block sums, prefixes before and after
    /// the offsets, the scatter's output and the indirect arguments.
    pub async fn trace_scan(&self, flags: &[u32]) -> Result<ScanTrace> {
        check_trace_len(flags.len())?;
        let scope = GpuErrorScope::push(&self.device);
        let result = self.trace_scan_inner(flags).await;
        scope.pop().await?;
        result
    }

    async fn trace_scan_inner(&self, flags: &[u32]) -> Result<ScanTrace> {
        let len = flags.len() as u64;
        let buffer = self.upload(flags)?;
        let compaction =
            self.prepare_inner(&buffer, len, Method::Scan, Self::DEFAULT_VERTEX_COUNT, true)?;
        let device = &self.device;
        let mut encoder = device.create_command_encoder(&Default::default());
        if Self::needs_cleared_count(&compaction) {
            encoder.clear_buffer(&compaction.count, 0, None);
        }
        let mut readback = Readback::default();
        let mut block_prefix = Vec::new();
        for dispatch in &compaction.dispatches {
            {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                self.dispatch(&mut pass, dispatch);
            }
            // The prefix before `add_offsets` changes it in place.
            if let KernelId::ScanBlock { level, .. } = dispatch.kernel {
                let buffers = &compaction.levels[level];
                block_prefix.push(readback.copy(
                    device,
                    &mut encoder,
                    &buffers.prefix,
                    0,
                    buffers.len,
                ));
            }
        }
        let levels = &compaction.levels;
        let slots: Vec<LevelSlots> = levels
            .iter()
            .enumerate()
            .map(|(level, buffers)| {
                let sums = buffers.block_sums.as_ref().unwrap_or(&compaction.count);
                let blocks = buffers.len.div_ceil(u64::from(BLOCK));
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
        let indirect = readback.copy(device, &mut encoder, &compaction.indirect, 0, 4);
        let indices = readback.copy(device, &mut encoder, &compaction.indices, 0, len);
        self.queue.submit([encoder.finish()]);
        let mut read = readback.read(device).await?;
        let mut take = |slot: usize| std::mem::take(&mut read[slot]);

        let instance_count = super::indirect_from_words(&take(indirect)).instance_count;
        let mut indices = take(indices);
        indices.truncate(instance_count as usize);
        let mut out_levels: Vec<ScanLevelTrace> = slots
            .iter()
            .map(|s| {
                let input = take(s.input);
                let snapshots = take(s.trace);
                let padded = snapshots.len() / (STEPS as usize + 1);
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
            count: indices.len() as u32,
            indices,
            instance_count,
        })
    }

    /// Runs an atomic method once and reports the slot each visible invocation
    /// received, read from the real output buffer.
    pub async fn trace_atomic(&self, flags: &[u32], method: Method) -> Result<AtomicTrace> {
        check_trace_len(flags.len())?;
        let output = self.run(flags, method).await?;
        Ok(AtomicTrace::from_indices(
            flags.to_vec(),
            output.indices,
            output.indirect.instance_count,
        ))
    }
}
