//! Outputs that grow: a compaction sized for `max_visible` objects says on the
//! GPU how many more were visible ([`Compaction::dropped`]). [`DroppedReadback`]
//! brings that count back a frame or two later without waiting for the GPU, and
//! [`Compactor::grow`] prepares the compaction again with room for all of them.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use super::{Compaction, CompactionDesc, Compactor};
use crate::error::{Error, Result};
use crate::layout::WORD;

/// How many counts may be on their way back at once: a renderer with three
/// frames in flight reads each of them.
const SLOTS: usize = 4;

/// A slot's state (its `AtomicU32`).
const FREE: u32 = 0;
const COPIED: u32 = 1;
const MAPPING: u32 = 2;
const MAPPED: u32 = 3;
const FAILED: u32 = 4;

struct Slot {
    buffer: wgpu::Buffer,
    state: Arc<AtomicU32>,
    /// The frame it was recorded in (`record`'s count), to tell the newest.
    frame: u64,
}

/// What one frame's compaction found, read back by [`DroppedReadback`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Dropped {
    /// The visible objects that did not fit in its `max_visible`.
    pub dropped: u32,
    /// All the visible objects: those written and those dropped (what
    /// [`Compactor::grow`] makes room for).
    pub visible: u64,
}

/// A compaction's count and dropped count ([`Compaction::count`],
/// [`Compaction::dropped`]), read back without a stall: every frame `record`
/// copies them into a small mappable buffer in the
/// frame's encoder, `submitted` starts mapping it once the encoder is
/// submitted, and `latest` answers with the newest count that has arrived (a
/// frame or two later), or `None`. Nothing waits: the mapping completes as the
/// device is polled (in a browser by itself; natively by your event loop's
/// `device.poll(wgpu::PollType::Poll)`, or any `queue.submit`).
pub struct DroppedReadback {
    slots: Vec<Slot>,
    frames: u64,
}

impl DroppedReadback {
    /// The readback's buffers (two words each) on `compactor`'s device.
    pub fn new(compactor: &Compactor) -> Self {
        let slots = (0..SLOTS)
            .map(|_| Slot {
                buffer: compactor.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("dropped readback"),
                    size: 2 * WORD,
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                }),
                state: Arc::new(AtomicU32::new(FREE)),
                frame: 0,
            })
            .collect();
        Self { slots, frames: 0 }
    }

    /// Records a copy of `compaction`'s counts, after its encode in
    /// `encoder`. `false` when every slot is still on its way back (the GPU is
    /// frames behind): this frame's count is skipped, nothing waits.
    pub fn record(&mut self, compaction: &Compaction, encoder: &mut wgpu::CommandEncoder) -> bool {
        self.frames += 1;
        let Some(slot) = self
            .slots
            .iter_mut()
            .find(|s| s.state.load(Ordering::Acquire) == FREE)
        else {
            return false;
        };
        // The count written, then the dropped count after it (`Compaction::count`).
        encoder.copy_buffer_to_buffer(compaction.count(), 0, &slot.buffer, 0, 2 * WORD);
        slot.state.store(COPIED, Ordering::Release);
        slot.frame = self.frames;
        true
    }

    /// Starts mapping what `record` copied: call it after the encoder is submitted.
    pub fn submitted(&mut self) {
        for slot in &mut self.slots {
            if slot.state.load(Ordering::Acquire) != COPIED {
                continue;
            }
            slot.state.store(MAPPING, Ordering::Release);
            let state = Arc::clone(&slot.state);
            slot.buffer
                .slice(..)
                .map_async(wgpu::MapMode::Read, move |result| {
                    state.store(
                        if result.is_ok() { MAPPED } else { FAILED },
                        Ordering::Release,
                    );
                });
        }
    }

    /// The newest frame's count that has come back since the last call, or
    /// `None`. Never waits. `Err` if a mapping failed (the device was lost).
    pub fn latest(&mut self) -> Result<Option<Dropped>> {
        let mut newest: Option<(u64, Dropped)> = None;
        let mut failed = false;
        for slot in &mut self.slots {
            match slot.state.load(Ordering::Acquire) {
                MAPPED => {
                    let value = slot.buffer.slice(..).get_mapped_range().map(|bytes| {
                        let words: &[u32] = bytemuck::cast_slice(&bytes);
                        (words[0], words[1])
                    });
                    slot.buffer.unmap();
                    slot.state.store(FREE, Ordering::Release);
                    match value {
                        Ok((written, dropped))
                            if newest.is_none_or(|(frame, _)| slot.frame > frame) =>
                        {
                            let visible = u64::from(written) + u64::from(dropped);
                            newest = Some((slot.frame, Dropped { dropped, visible }));
                        }
                        Ok(_) => {}
                        Err(_) => failed = true,
                    }
                }
                FAILED => {
                    slot.state.store(FREE, Ordering::Release);
                    failed = true;
                }
                _ => {}
            }
        }
        match (newest, failed) {
            (Some((_, value)), _) => Ok(Some(value)),
            (None, true) => Err(Error::Readback(
                "the dropped count could not be mapped".into(),
            )),
            (None, false) => Ok(None),
        }
    }
}

impl Compactor {
    /// `desc` (what `compaction` was prepared from) prepared again with room for
    /// `visible` objects ([`Dropped::visible`], read back by
    /// [`DroppedReadback`]): its `max_visible` raised to the next power of two
    /// above a quarter more, at most the capacity. `Ok(None)` when they already
    /// fit, so that a count that comes back late (of a frame before the last
    /// growth) grows nothing. The new compaction replaces the old one from the
    /// next frame (what is in flight keeps the old buffers alive until it is
    /// done); one that writes into your `indices_to` or payload `to` needs those
    /// ranges to hold the new `max_visible` (`prepare` says so otherwise).
    pub fn grow(
        &self,
        compaction: &Compaction,
        desc: &CompactionDesc,
        visible: u64,
    ) -> Result<Option<Compaction>> {
        let held = compaction.max_visible();
        if visible <= held || held >= desc.capacity {
            return Ok(None);
        }
        let max_visible = visible
            .saturating_mul(5)
            .div_ceil(4)
            .next_power_of_two()
            .min(desc.capacity);
        self.prepare_with(&desc.clone().with_max_visible(max_visible))
            .map(Some)
    }
}
