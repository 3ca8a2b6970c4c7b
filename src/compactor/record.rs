//! The work, every frame: record a compaction into the caller's encoder, with
//! the full capacity or a live length; and, for tests and tools, run it and read
//! the outputs back.

use std::sync::atomic::Ordering;

use super::prepare::live_word;
use super::slices::SLICE_BASE_BYTE;
use super::LENGTH_SLOTS;
use super::{Compaction, Compactor, Dispatch};
use crate::error::{Error, Result};
use crate::layout::WORD;
use crate::Method;

/// How many flags an encode compacts (see [`EncodeOptions`]).
#[derive(Clone, Copy, Debug, Default)]
pub enum Length<'a> {
    /// What the live uniform holds when the GPU gets there: the capacity at
    /// first, afterwards the last length an encode or `set_len` left (a length
    /// read on the GPU stays for later plain encodes).
    #[default]
    Kept,
    /// The capacity.
    Capacity,
    /// The first `n` flags (at most the capacity), recorded in the encoder from
    /// a slot of its own: encoded several times in one submission, each encode
    /// compacts its own length, in encoder order, however many there are.
    Flags(u64),
    /// As many flags as the u32 at byte `offset` of `buffer` says, read on the
    /// GPU (a culling pass's count: no readback). Past the capacity it compacts
    /// the capacity, and [`Compaction::live`] says what was asked. `buffer`
    /// needs `COPY_SRC`; `offset` a multiple of 4.
    Gpu {
        /// The buffer the count is in.
        buffer: &'a wgpu::Buffer,
        /// Its byte offset.
        offset: u64,
    },
}

/// How [`Compactor::encode_with`] records a compaction.
#[derive(Default)]
pub struct EncodeOptions<'a> {
    /// The live length.
    pub len: Length<'a>,
    /// GPU timestamps at the start and end of its compute pass (your query set).
    pub timestamp_writes: Option<wgpu::ComputePassTimestampWrites<'a>>,
}

impl Compactor {
    /// Records the compaction into `encoder`: the live length as `options.len`
    /// says, then one compute pass (after a clear of the count where the method
    /// needs it), then the `instance_count_to` copy; no readback. Nothing is
    /// recorded on an `Err`: a compaction another `Compactor` prepared
    /// (`ForeignCompaction`), a length past the capacity, a length buffer without
    /// `COPY_SRC`, misaligned or too small.
    pub fn encode_with(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        compaction: &Compaction,
        options: EncodeOptions,
    ) -> Result<()> {
        self.owns(compaction, "encode")?;
        match options.len {
            Length::Kept => {}
            Length::Capacity => self.record_len(encoder, compaction, compaction.capacity)?,
            Length::Flags(len) => self.record_len(encoder, compaction, len)?,
            Length::Gpu { buffer, offset } => {
                // The length's own uniform as its source: a copy onto itself, which wgpu refuses at submit.
                if *buffer == compaction.live {
                    return Err(Error::Aliased {
                        first: "live length source",
                        second: "live",
                    });
                }
                // One word, copied from any offset that is a multiple of 4.
                self.check_range(
                    ("live length source", "live length offset"),
                    (buffer, offset),
                    1,
                    wgpu::BufferUsages::COPY_SRC,
                    false,
                )?;
                encoder.copy_buffer_to_buffer(buffer, offset, &compaction.live, 0, WORD);
            }
        }
        self.record(encoder, compaction, options.timestamp_writes);
        Ok(())
    }

    /// `encode_with` the defaults: the length kept ([`Length::Kept`]), no timestamps.
    ///
    /// What no `encode*` can check (wgpu 30 does not say which device made an
    /// encoder or a buffer): an encoder of another device, or a buffer destroyed
    /// after `prepare`. wgpu reports those at `submit` to its uncaptured-error
    /// handler (LIBRARY.md, "What that promise does not cover").
    pub fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        compaction: &Compaction,
    ) -> Result<()> {
        self.encode_with(encoder, compaction, EncodeOptions::default())
    }

    /// `encode_with` [`Length::Flags`]`(len)`: compacts the first `len` flags.
    pub fn encode_len(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        compaction: &Compaction,
        len: u64,
    ) -> Result<()> {
        let len = Length::Flags(len);
        self.encode_with(
            encoder,
            compaction,
            EncodeOptions {
                len,
                ..Default::default()
            },
        )
    }

    /// `encode_with` [`Length::Gpu`]: compacts as many flags as the u32 at byte
    /// `offset` of `source` says, read on the GPU.
    pub fn encode_len_from(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        compaction: &Compaction,
        source: &wgpu::Buffer,
        offset: u64,
    ) -> Result<()> {
        let len = Length::Gpu {
            buffer: source,
            offset,
        };
        self.encode_with(
            encoder,
            compaction,
            EncodeOptions {
                len,
                ..Default::default()
            },
        )
    }

    /// `encode_with` the length kept and GPU timestamps at the start and end of the pass.
    pub fn encode_timed(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        compaction: &Compaction,
        timestamp_writes: Option<wgpu::ComputePassTimestampWrites>,
    ) -> Result<()> {
        let options = EncodeOptions {
            timestamp_writes,
            ..Default::default()
        };
        self.encode_with(encoder, compaction, options)
    }

    /// Sets the live length of `compaction` (at most its capacity) for the work
    /// submitted from now on, with `Queue::write_buffer`: one length a
    /// submission. For several in one submission, [`Length::Flags`] records each
    /// in the encoder.
    pub fn set_len(&self, compaction: &Compaction, len: u64) -> Result<()> {
        self.owns(compaction, "set_len")?;
        check_len(compaction, len)?;
        // Word 0 only: word 1 is the capacity, which some kernels clamp to.
        self.queue
            .write_buffer(&compaction.live, 0, bytemuck::bytes_of(&live_word(len)));
        Ok(())
    }

    /// `len` into a slot of its own, copied into the live uniform in the encoder.
    fn record_len(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        compaction: &Compaction,
        len: u64,
    ) -> Result<()> {
        check_len(compaction, len)?;
        let taken = compaction.next_length.fetch_add(1, Ordering::Relaxed);
        let slot = u64::from(taken % LENGTH_SLOTS);
        let mut lengths = compaction
            .lengths
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // Every slot taken: a fresh buffer, so that the 65th length of a submission
        // does not overwrite the first before it is read (queue writes all land
        // before the submission runs).
        if slot == 0 && taken > 0 {
            *lengths = compaction.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("lengths"),
                size: u64::from(LENGTH_SLOTS) * WORD,
                usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
        }
        self.queue
            .write_buffer(&lengths, slot * WORD, bytemuck::bytes_of(&live_word(len)));
        encoder.copy_buffer_to_buffer(&lengths, slot * WORD, &compaction.live, 0, WORD);
        Ok(())
    }

    /// The compute pass and what follows it, for a compaction already checked.
    fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        compaction: &Compaction,
        timestamp_writes: Option<wgpu::ComputePassTimestampWrites>,
    ) {
        if compaction.slice_base.swap(false, Ordering::Relaxed) {
            encoder.clear_buffer(&compaction.live, SLICE_BASE_BYTE, Some(WORD));
        }
        clear_before(encoder, compaction);
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
    }

    pub(super) fn dispatch(&self, pass: &mut wgpu::ComputePass, dispatch: &Dispatch) {
        dispatch.kernel.dispatch(
            pass,
            dispatch.groups(),
            dispatch.invocations,
            self.max_workgroups_per_dimension,
        );
    }
}

fn check_len(compaction: &Compaction, len: u64) -> Result<()> {
    if len > compaction.capacity {
        return Err(Error::LengthTooLarge {
            len,
            capacity: compaction.capacity,
        });
    }
    Ok(())
}

/// What must start at zero before a compaction's pass: the count where the
/// method needs it, and the draw count of no segments (with segments, one of them
/// writes it).
pub(super) fn clear_before(encoder: &mut wgpu::CommandEncoder, compaction: &Compaction) {
    if needs_cleared_count(compaction) {
        encoder.clear_buffer(&compaction.count, 0, None);
    }
    if let Some((buffer, offset)) = compaction
        .draw_count()
        .filter(|_| compaction.segment_count() == 0)
    {
        encoder.clear_buffer(buffer, offset, Some(WORD));
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
