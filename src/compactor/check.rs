//! A debug check of a renderer's segments: what the GPU assumes of them, read
//! back and checked on the CPU (too slow for every frame, and not needed there:
//! out of order, the records stay within the indices written).

use super::{Compaction, Compactor};
use crate::error::{Error, Result};
use crate::gpu::readback::Readback;
use crate::output::Segment;

/// The first segment of `list` that the GPU would get wrong: one that starts
/// before the one before it, or past the `objects`.
pub(crate) fn check_segment_list(list: &[Segment], objects: u64) -> Result<()> {
    let mut previous = 0;
    for (segment, s) in list.iter().enumerate() {
        let segment = segment as u32;
        if u64::from(s.first_object) > objects {
            return Err(Error::SegmentPastObjects {
                segment,
                first_object: s.first_object,
                objects,
            });
        }
        if s.first_object < previous {
            return Err(Error::SegmentsOutOfOrder {
                segment,
                first_object: s.first_object,
                previous,
            });
        }
        previous = s.first_object;
    }
    Ok(())
}

impl Compactor {
    /// Reads back the segments `compaction` was prepared with (their buffer needs
    /// `COPY_SRC`) and checks what its kernels assume: each `first_object` at or
    /// after the one before, none past the capacity. One submission and a wait:
    /// for a debug build or a test, not every frame. `Ok(())` without segments.
    pub async fn check_segments(&self, compaction: &Compaction) -> Result<()> {
        self.owns(compaction, "check_segments")?;
        let Some(segments) = &compaction.segments else {
            return Ok(());
        };
        let (buffer, offset) = &segments.source;
        let copy_src = wgpu::BufferUsages::COPY_SRC;
        if !buffer.usage().contains(copy_src) {
            return Err(Error::BufferUsage {
                buffer: "segments",
                missing: copy_src - buffer.usage(),
            });
        }
        let words = Segment::WORDS * u64::from(segments.count);
        // In error scopes: a destroyed or foreign segments buffer is an `Err`, not
        // the device's uncaptured-error handler (a panic natively, by default).
        let (readback, slot) = crate::gpu::error_scope::scoped(&self.device, async {
            let mut readback = Readback::default();
            let mut encoder = self.device.create_command_encoder(&Default::default());
            let slot = readback.copy_at(&self.device, &mut encoder, buffer, *offset, words);
            self.queue.submit([encoder.finish()]);
            Ok::<_, Error>((readback, slot))
        })
        .await?;
        let read = readback.read(&self.device).await?;
        let list: Vec<Segment> = read[slot]
            .chunks_exact(Segment::WORDS as usize)
            .map(|w| Segment {
                first_object: w[0],
                index_count: w[1],
                first_index: w[2],
                base_vertex: w[3] as i32,
            })
            .collect();
        check_segment_list(&list, compaction.capacity)
    }
}
