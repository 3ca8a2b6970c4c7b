//! What a renderer reads of a prepared compaction: its buffers (yours or its
//! own) and offsets, and freeing its own.

use super::{Compaction, Input};
use crate::layout::WORD;
use crate::output::DrawArgs;
use crate::Method;

impl Compaction {
    /// The method it runs.
    pub fn method(&self) -> Method {
        self.method
    }

    /// The most flags it compacts (what it was prepared for).
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// How its flags are stored.
    pub fn input(&self) -> Input {
        self.input
    }

    /// The buffer of the dense list of visible indices (from
    /// [`Self::indices_offset`]; its first `count` words are meaningful): yours
    /// ([`crate::CompactionDesc::indices_to`]) or the compaction's own, `STORAGE |
    /// VERTEX | COPY_SRC`, so that a vertex shader can read it as a storage buffer
    /// (`visibles[instance_index]`) or as an instance-rate attribute.
    pub fn indices(&self) -> &wgpu::Buffer {
        &self.indices.buffer
    }

    /// Where the indices start in [`Self::indices`], in bytes (0 in a buffer of its own).
    pub fn indices_offset(&self) -> u64 {
        self.indices.offset
    }

    /// The visible objects its indices (and payload copies) hold: `max_visible`
    /// where it was prepared with one, else the capacity.
    pub fn max_visible(&self) -> u64 {
        self.out_capacity
    }

    /// The word after the count (byte 4 of [`Compaction::count`]): after a run,
    /// how many visible objects did not fit in `max_visible` and were not written
    /// (0 when all did). Bind or copy it to grow the outputs next frame.
    pub fn dropped(&self) -> (&wgpu::Buffer, u64) {
        (&self.count, WORD)
    }

    /// Word 0: the number of visible objects written (the draw's
    /// `instance_count`); word 1: see [`Compaction::dropped`].
    pub fn count(&self) -> &wgpu::Buffer {
        &self.count
    }

    /// The buffer of the indirect arguments (16 or 20 bytes, as prepared, at
    /// [`Self::indirect_offset`]) with `instance_count` written on the GPU: for
    /// `draw_indirect` / `draw_indexed_indirect`. Yours
    /// ([`crate::CompactionDesc::indirect_to`]) or the compaction's own.
    pub fn indirect(&self) -> &wgpu::Buffer {
        &self.indirect.buffer
    }

    /// Where the indirect arguments are in [`Self::indirect`], in bytes.
    pub fn indirect_offset(&self) -> u64 {
        self.indirect.offset
    }

    /// The dense payload copies (see [`crate::CompactionDesc::payload`]): the buffer
    /// and the byte offset where visible object 0's words start; `None` without
    /// a payload. A buffer of its own is `STORAGE | VERTEX | COPY_SRC`.
    pub fn payload(&self) -> Option<(&wgpu::Buffer, u64)> {
        self.payload.as_ref().map(|p| p.out.at())
    }

    /// The per-segment draw records (see [`crate::CompactionDesc::segments`]): the buffer
    /// and the byte offset of record 0, for `multi_draw_indexed_indirect(buffer,
    /// offset, count)` (or the non-indexed one); `None` without segments. A
    /// buffer of its own is `STORAGE | INDIRECT | COPY_SRC | COPY_DST`.
    pub fn segment_args(&self) -> Option<(&wgpu::Buffer, u64)> {
        self.segments.as_ref().map(|s| s.args.at())
    }

    /// The draw count after the segment records: the buffer and its byte offset,
    /// for `multi_draw_indexed_indirect_count(.., buffer, offset, count)`. It is
    /// one past the last segment with a visible object (0 when none is), so the
    /// draws it skips are all empty.
    pub fn draw_count(&self) -> Option<(&wgpu::Buffer, u64)> {
        self.segments.as_ref().map(|s| {
            let offset = s.args.offset + self.draw.words() * u64::from(s.count) * WORD;
            (&s.args.buffer, offset)
        })
    }

    /// With packed segment records (`SegmentsDesc::packed`): one u32 per record,
    /// the mesh (segment) record `k` draws, `u32::MAX` past the draw count; the
    /// buffer and byte offset. `None` otherwise.
    pub fn record_meshes(&self) -> Option<(&wgpu::Buffer, u64)> {
        let packed = self.segments.as_ref()?.packed.as_ref()?;
        Some((&packed.meshes, 0))
    }

    /// How many segments it was prepared with (0 without).
    pub fn segment_count(&self) -> u32 {
        self.segments.as_ref().map_or(0, |s| s.count)
    }

    /// The live uniform, `vec4<u32>`: `x` the length asked for (what
    /// `encode_len_from` copied from the GPU, possibly past the capacity), `y`
    /// the capacity. The kernels compact `min(x, y)`; bind it as a uniform to
    /// tell an overflow on the GPU (`x > y`), or read `requested` in
    /// [`crate::CompactionOutput`]. `UNIFORM | COPY_SRC`.
    pub fn live(&self) -> &wgpu::Buffer {
        &self.live
    }

    /// The kind of indirect arguments it writes, with the values it was prepared with.
    pub fn draw_args(&self) -> DrawArgs {
        self.draw
    }

    /// Frees its own GPU buffers now (outputs and scratch; never the flags or any
    /// buffer of yours it writes into). Work already submitted
    /// finishes first; a clone of one of its buffers is unusable after. Dropped
    /// instead, its buffers go when wgpu lets go of them: in a browser, when the
    /// JS GC collects their `GPUBuffer`s, which can keep tens of megabytes of GPU
    /// memory for seconds (wgpu's WebGPU backend never destroys on drop).
    pub fn destroy(mut self) {
        self.destroy_buffers();
        self.destroy_on_drop = false;
    }

    /// The same compaction, its buffers destroyed (as by [`Compaction::destroy`])
    /// when it is dropped, whichever way the code holding it ends: for one made
    /// for one call (a run, a trace, a benchmark).
    pub fn destroy_on_drop(mut self) -> Self {
        self.destroy_on_drop = true;
        self
    }

    /// Its compute pass's label: the one given in `CompactionDesc`, else the method's name.
    pub(super) fn pass_label(&self) -> &str {
        self.label.as_deref().unwrap_or(self.method.name())
    }

    pub(super) fn destroy_buffers(&self) {
        let levels = self
            .levels
            .iter()
            .flat_map(|l| [Some(&l.prefix), l.block_sums.as_ref(), l.trace.as_ref()]);
        let outputs = [
            Some(&self.indices),
            Some(&self.indirect),
            self.payload.as_ref().map(|p| &p.out),
            self.segments.as_ref().map(|s| &s.args),
        ];
        let own_outputs = outputs
            .into_iter()
            .flatten()
            .filter(|o| o.own)
            .map(|o| &o.buffer);
        self.lengths
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .destroy();
        let own = [Some(&self.count), Some(&self.live)]
            .into_iter()
            .chain([
                self.tile_states.as_ref(),
                self.tile_counts.as_ref(),
                self.packed_bits.as_ref(),
            ])
            .chain(levels);
        for buffer in own.flatten().chain(own_outputs) {
            buffer.destroy();
        }
    }

    /// The single-pass methods' tile states: word 0 counts tickets, word `1 + t`
    /// is state `t`'s (one tile of 4096 flags, two for `LookbackBits` from
    /// `LookbackOptions::wide_bits_from_tiles`) (value << 2 | status; see `shaders/lookback.wgsl`),
    /// then [`crate::teaching::STAT_WORDS`] counters when built with `LookbackOptions::stats`.
    pub fn tile_states(&self) -> Option<&wgpu::Buffer> {
        self.tile_states.as_ref()
    }

    /// `PackedScan`'s tile slots: after a run, word `t` is tile `t`'s first slot
    /// in the indices (the visible flags before it); the words past the live
    /// tiles are left over.
    pub fn tile_slots(&self) -> Option<&wgpu::Buffer> {
        self.tile_counts.as_ref()
    }

    /// `LookbackBits` or `PackedScan` prepared from u32 flags: the bits the pass
    /// packs them into.
    pub fn packed_bits(&self) -> Option<&wgpu::Buffer> {
        self.packed_bits.as_ref()
    }
}
