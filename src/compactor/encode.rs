//! The work, every frame: record a compaction into the caller's encoder, with
//! the full capacity or a live length; and, for tests and tools, run it and read
//! the outputs back.

use std::sync::atomic::Ordering;

use super::prepare::live_word;
use super::slices::SLICE_BASE_BYTE;
use super::LENGTH_SLOTS;
use super::{Compaction, Compactor, Dispatch, ScratchBuffer};
use crate::error::{Error, Result};
use crate::gpu::error_scope::scoped;
use crate::gpu::readback::Readback;
use crate::layout::WORD;
use crate::output::{CompactionOutput, DrawArgs};
use crate::Method;

impl Compactor {
    /// Records the compaction into `encoder`: one compute pass (after a clear of
    /// the count where the method needs it), no readback. It compacts the live
    /// length as the GPU finds it then: the capacity at first, afterwards what
    /// the last [`Compactor::set_len`], [`Compactor::encode_len`] or
    /// [`Compactor::encode_len_from`] before it left (in GPU order: a length read
    /// on the GPU stays for later plain encodes). `Err(ForeignCompaction)`, with
    /// nothing recorded, for a compaction another `Compactor` prepared.
    pub fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        compaction: &Compaction,
    ) -> Result<()> {
        self.encode_timed(encoder, compaction, None)
    }

    /// Sets the live length of `compaction` (at most its capacity) for the work
    /// submitted from now on, with `Queue::write_buffer`: one length a
    /// submission. For several in one submission, [`Compactor::encode_len`]
    /// records each in the encoder.
    pub fn set_len(&self, compaction: &Compaction, len: u64) -> Result<()> {
        self.owns(compaction, "set_len")?;
        if len > compaction.capacity {
            return Err(Error::LengthTooLarge {
                len,
                capacity: compaction.capacity,
            });
        }
        // Word 0 only: word 1 is the capacity, which some kernels clamp to.
        self.queue
            .write_buffer(&compaction.live, 0, bytemuck::bytes_of(&live_word(len)));
        Ok(())
    }

    /// Records the compaction of the first `len` flags (at most the capacity).
    /// The length goes into the encoder, copied from a slot of its own: encoded
    /// several times in one submission, each encode compacts its own length, in
    /// encoder order (up to [`LENGTH_SLOTS`](crate::LENGTH_SLOTS) a compaction a
    /// submission; past that the slots are reused).
    pub fn encode_len(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        compaction: &Compaction,
        len: u64,
    ) -> Result<()> {
        self.owns(compaction, "encode_len")?;
        if len > compaction.capacity {
            return Err(Error::LengthTooLarge {
                len,
                capacity: compaction.capacity,
            });
        }
        let slot = u64::from(compaction.next_length.fetch_add(1, Ordering::Relaxed) % LENGTH_SLOTS);
        self.queue.write_buffer(
            &compaction.lengths,
            slot * WORD,
            bytemuck::bytes_of(&live_word(len)),
        );
        encoder.copy_buffer_to_buffer(&compaction.lengths, slot * WORD, &compaction.live, 0, WORD);
        self.encode(encoder, compaction)
    }

    /// Records the compaction of as many flags as the u32 at byte `offset` of
    /// `source` says, read on the GPU (a culling pass's count: no readback, no
    /// CPU round trip). Values past the capacity compact the capacity. `source`
    /// needs `COPY_SRC`; `offset` a multiple of 4.
    pub fn encode_len_from(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        compaction: &Compaction,
        source: &wgpu::Buffer,
        offset: u64,
    ) -> Result<()> {
        self.owns(compaction, "encode_len_from")?;
        if !source.usage().contains(wgpu::BufferUsages::COPY_SRC) {
            return Err(Error::BufferUsage {
                buffer: "live length source",
                missing: wgpu::BufferUsages::COPY_SRC,
            });
        }
        if !offset.is_multiple_of(WORD) {
            return Err(Error::Misaligned {
                what: "live length offset",
                offset,
                alignment: WORD,
            });
        }
        if !crate::gpu::kernel::holds(source, offset, WORD) {
            return Err(Error::BufferTooSmall {
                buffer: "live length source",
                size: source.size(),
                needed: WORD,
            });
        }
        encoder.copy_buffer_to_buffer(source, offset, &compaction.live, 0, WORD);
        self.encode(encoder, compaction)
    }

    /// `encode`, with GPU timestamps written at the start and end of the pass.
    pub fn encode_timed(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        compaction: &Compaction,
        timestamp_writes: Option<wgpu::ComputePassTimestampWrites>,
    ) -> Result<()> {
        self.owns(compaction, "encode")?;
        if compaction.slice_base.swap(false, Ordering::Relaxed) {
            encoder.clear_buffer(&compaction.live, SLICE_BASE_BYTE, Some(WORD));
        }
        if needs_cleared_count(compaction) {
            encoder.clear_buffer(&compaction.count, 0, None);
        }
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(compaction.pass_label()),
                timestamp_writes,
            });
            for dispatch in &compaction.dispatches {
                self.dispatch(&mut pass, dispatch);
            }
        }
        if let Some((target, offset)) = &compaction.instance_count_to {
            encoder.copy_buffer_to_buffer(&compaction.count, 0, target, *offset, WORD);
        }
        Ok(())
    }

    pub(super) fn dispatch(&self, pass: &mut wgpu::ComputePass, dispatch: &Dispatch) {
        self.pipelines
            .kernel(&self.device, dispatch.kernel)
            .dispatch(
                pass,
                &dispatch.bind_group,
                dispatch.invocations,
                self.max_workgroups_per_dimension,
            );
    }

    /// Uploads `flags`, compacts them with `method` and reads everything back.
    pub async fn run(&self, flags: &[u32], method: Method) -> Result<CompactionOutput> {
        scoped(&self.device, async {
            let buffer = ScratchBuffer(self.upload(flags)?);
            self.run_buffer_unscoped(&buffer, flags.len() as u64, method)
                .await
        })
        .await
    }

    /// Compacts the first `len` flags of an uploaded buffer and reads back. A GPU
    /// error on the way is an `Error::Gpu`.
    pub async fn run_buffer(
        &self,
        flags: &wgpu::Buffer,
        len: u64,
        method: Method,
    ) -> Result<CompactionOutput> {
        scoped(&self.device, self.run_buffer_unscoped(flags, len, method)).await
    }

    async fn run_buffer_unscoped(
        &self,
        flags: &wgpu::Buffer,
        len: u64,
        method: Method,
    ) -> Result<CompactionOutput> {
        let compaction = self
            .prepare(flags, len, method, Self::DEFAULT_VERTEX_COUNT)?
            .destroy_on_drop();
        self.run_compaction(&compaction).await
    }

    /// Encodes `compaction` in an encoder of its own, submits it and reads its
    /// outputs back.
    pub async fn run_compaction(&self, compaction: &Compaction) -> Result<CompactionOutput> {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode(&mut encoder, compaction)?;
        let pending = compaction.read_output(&self.device, &mut encoder)?;
        self.queue.submit([encoder.finish()]);
        pending.read(&self.device).await
    }
}

/// Whether the count must start at zero: the atomics count up, an empty scan
/// writes no block sum, an empty look-back has no last tile.
pub(super) fn needs_cleared_count(compaction: &Compaction) -> bool {
    match compaction.method {
        Method::Scan => compaction.levels.is_empty(),
        Method::Lookback | Method::LookbackBits | Method::PackedScan => compaction.capacity == 0,
        _ => true,
    }
}

impl Compaction {
    /// Records copies of the outputs (indices, count, indirect arguments, the
    /// length asked for) into staging buffers; after the submission,
    /// [`PendingOutput::read`] maps them. `Err(ForeignCompaction)` for an encoder
    /// of another device than the compaction's (`device` names it; wgpu tells
    /// the devices of one instance apart).
    pub fn read_output(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<PendingOutput> {
        if *device != self.device {
            return Err(Error::ForeignCompaction {
                what: "read_output",
            });
        }
        let mut readback = Readback::default();
        let slots = self.copy_output(device, encoder, &mut readback);
        Ok(PendingOutput { readback, slots })
    }

    /// The output copies, added to a readback that holds more (the traces').
    pub(crate) fn copy_output(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        readback: &mut Readback,
    ) -> OutputSlots {
        OutputSlots {
            indices: readback.copy(device, encoder, &self.indices, 0, self.capacity),
            count: readback.copy(device, encoder, &self.count, 0, 1),
            indirect: readback.copy(device, encoder, &self.indirect, 0, self.draw.words()),
            requested: readback.copy(device, encoder, &self.live, 0, 1),
            draw: self.draw,
        }
    }
}

/// Where a compaction's outputs are in a readback.
pub(crate) struct OutputSlots {
    indices: usize,
    count: usize,
    indirect: usize,
    requested: usize,
    draw: DrawArgs,
}

impl OutputSlots {
    /// The outputs out of `read` (what `Readback::read` returned), the index list
    /// cut to the count the GPU wrote.
    pub(crate) fn take(&self, read: &mut [Vec<u32>]) -> CompactionOutput {
        let count = read[self.count].first().copied().unwrap_or(0);
        let indirect = self.draw.read(&read[self.indirect]);
        let mut indices = std::mem::take(&mut read[self.indices]);
        indices.truncate(count as usize);
        CompactionOutput {
            indices,
            count,
            indirect,
            requested: read[self.requested].first().copied().unwrap_or(0),
        }
    }
}

/// A compaction's outputs on their way back from the GPU (see
/// [`Compaction::read_output`]).
pub struct PendingOutput {
    readback: Readback,
    slots: OutputSlots,
}

impl PendingOutput {
    /// Waits for the copies (natively: blocks on `Device::poll`; in a browser the
    /// event loop delivers them) and returns the outputs.
    pub async fn read(self, device: &wgpu::Device) -> Result<CompactionOutput> {
        let mut read = self.readback.read(device).await?;
        Ok(self.slots.take(&mut read))
    }
}
