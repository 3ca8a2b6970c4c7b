//! Reading back: a compaction's outputs copied into staging buffers in the
//! caller's encoder and mapped after the submission; `run` for tests and tools.

use super::{Compaction, Compactor, ScratchBuffer};
use crate::error::{Error, Result};
use crate::gpu::error_scope::scoped;
use crate::gpu::readback::Readback;
use crate::output::{CompactionOutput, DrawArgs};
use crate::Method;

impl Compactor {
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
        self.run_compaction_unscoped(&compaction).await
    }

    /// Encodes `compaction` in an encoder of its own, submits it and reads its
    /// outputs back. A GPU error on the way (its flags buffer destroyed since
    /// `prepare`) is an `Error::Gpu`, not the device's uncaptured-error handler.
    pub async fn run_compaction(&self, compaction: &Compaction) -> Result<CompactionOutput> {
        scoped(&self.device, self.run_compaction_unscoped(compaction)).await
    }

    async fn run_compaction_unscoped(&self, compaction: &Compaction) -> Result<CompactionOutput> {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode(&mut encoder, compaction)?;
        let pending = compaction.read_output(&self.device, &mut encoder)?;
        self.queue.submit([encoder.finish()]);
        pending.read(&self.device).await
    }
}

impl Compaction {
    /// Records copies of the outputs (indices, count, indirect arguments, the
    /// length asked for, the payload copies and the segment records where it has
    /// them) into staging buffers; after the submission,
    /// [`PendingOutput::read`] maps them. `Err(ForeignCompaction)` for an encoder
    /// of another device than the compaction's (`device` names it; wgpu tells
    /// the devices of one instance apart).
    pub fn read_output(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<PendingOutput> {
        self.read_output_head(device, encoder, u64::MAX)
    }

    /// [`Compaction::read_output`] with at most the first `max_indices` indices
    /// (and payload copies of as many objects) read back: the count, the
    /// arguments and the rest whole. What a tool shows of a large compaction at
    /// once, without copying all of it to the CPU; the output's `indices` are
    /// then the first `max_indices` of `count`.
    pub fn read_output_head(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        max_indices: u64,
    ) -> Result<PendingOutput> {
        if *device != self.device {
            return Err(Error::ForeignCompaction {
                what: "read_output",
            });
        }
        let mut readback = Readback::default();
        let slots = self.copy_output(device, encoder, &mut readback, max_indices);
        Ok(PendingOutput { readback, slots })
    }

    /// The output copies, added to a readback that holds more (the traces').
    pub(crate) fn copy_output(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        readback: &mut Readback,
        max_indices: u64,
    ) -> OutputSlots {
        let objects = self.out_capacity.min(max_indices);
        let mut copy = |(buffer, offset): (&wgpu::Buffer, u64), words: u64| {
            readback.copy_at(device, encoder, buffer, offset, words)
        };
        let payload_words = self.payload.as_ref().map_or(0, |p| p.words);
        OutputSlots {
            indices: copy(self.indices.at(), objects),
            count: copy((&self.count, 0), 2),
            indirect: copy(self.indirect.at(), self.draw.words()),
            requested: copy((&self.live, 0), 1),
            payload: self
                .payload()
                .map(|at| copy(at, objects * u64::from(payload_words))),
            payload_words,
            segments: self.segments.as_ref().map(|s| {
                copy(
                    s.args.at(),
                    super::prepare::segment_args_words(self.draw, s.count),
                )
            }),
            record_meshes: self
                .record_meshes()
                .zip(self.segments.as_ref())
                .map(|(at, s)| copy(at, u64::from(s.count))),
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
    payload: Option<usize>,
    payload_words: u32,
    /// The segment records, then the draw count.
    segments: Option<usize>,
    /// Packed records' meshes.
    record_meshes: Option<usize>,
    draw: DrawArgs,
}

impl OutputSlots {
    /// The outputs out of `read` (what `Readback::read` returned), the index list
    /// cut to the count the GPU wrote.
    pub(crate) fn take(&self, read: &mut [Vec<u32>]) -> CompactionOutput {
        let count = read[self.count].first().copied().unwrap_or(0);
        let dropped = read[self.count].get(1).copied().unwrap_or(0);
        let indirect = self.draw.read(&read[self.indirect]);
        let mut indices = std::mem::take(&mut read[self.indices]);
        indices.truncate(count as usize);
        let payload = self.payload.map_or(Vec::new(), |slot| {
            let mut words = std::mem::take(&mut read[slot]);
            words.truncate(count as usize * self.payload_words as usize);
            words
        });
        let (segment_args, draw_count) = match self.segments {
            Some(slot) => {
                let words = std::mem::take(&mut read[slot]);
                let record = self.draw.words() as usize;
                let records = words.len().saturating_sub(1) / record;
                let args = words
                    .chunks_exact(record)
                    .take(records)
                    .map(|w| self.draw.read(w))
                    .collect();
                (args, words.last().copied().unwrap_or(0))
            }
            None => (Vec::new(), 0),
        };
        CompactionOutput {
            indices,
            count,
            indirect,
            requested: read[self.requested].first().copied().unwrap_or(0),
            dropped,
            record_meshes: self
                .record_meshes
                .map_or(Vec::new(), |slot| std::mem::take(&mut read[slot])),
            payload,
            segment_args,
            draw_count,
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
