//! Every check `prepare` makes before it allocates: the device's limits, usages,
//! sizes and offsets (wrapping arithmetic included), bindings past a limit,
//! buffers a pass would both read and write. Each refusal is a typed `Err`,
//! never a panic and never an error wgpu would raise later.

use crate::compactor::limits::{check, compaction_needs};
use crate::compactor::Compactor;
use crate::error::{Error, Result};
use crate::gpu::kernel::holds;
use crate::layout::{MAX_PAYLOAD_WORDS, WORD};
use crate::output::{DrawArgs, Segment};
use crate::Method;

use super::desc::{input_words, out_capacity, segment_args_words, BufferAt, CompactionDesc, Input};

impl Compactor {
    /// Every check `prepare` makes before it allocates.
    pub(super) fn check(&self, desc: &CompactionDesc) -> Result<()> {
        let method = desc.method;
        let needs = compaction_needs(method, desc.payload.is_some(), desc.segments.is_some());
        check(method, needs, &self.device.limits())?;
        self.check_len_for(desc.capacity, method)?;
        if let Some(max_visible) = desc.max_visible {
            if !matches!(method, Method::Lookback | Method::LookbackBits) {
                return Err(Error::Unsupported {
                    method,
                    what: "max_visible (only lookback and lookback-bits stop at it)",
                });
            }
            if max_visible == 0 || max_visible > desc.capacity {
                return Err(Error::MaxVisible {
                    max_visible,
                    capacity: desc.capacity,
                });
            }
        }
        let out = out_capacity(desc);
        // The last index written is index_base + capacity - 1.
        if u64::from(desc.index_base) + desc.capacity > u64::from(u32::MAX) + 1 {
            return Err(Error::IndexOverflow {
                index_base: desc.index_base,
                capacity: desc.capacity,
            });
        }
        // The last instance drawn is first_instance + instance_count - 1.
        let first_instance = match desc.draw {
            DrawArgs::NonIndexed(args) => args.first_instance,
            DrawArgs::Indexed(args) => args.first_instance,
        };
        if u64::from(first_instance) + out > u64::from(u32::MAX) + 1 {
            return Err(Error::InstanceOverflow {
                first_instance,
                instances: out,
            });
        }
        if desc.input == Input::Bits && !method.reads_bits() {
            return Err(Error::Unsupported {
                method,
                what: "bit input (only lookback-bits and packed-scan read bits)",
            });
        }
        let storage = wgpu::BufferUsages::STORAGE;
        if let Some(cull) = &desc.cull {
            check_cull(method)?;
            #[cfg(feature = "cull")]
            super::visible::check(cull.wgsl)?;
            #[cfg(not(feature = "cull"))]
            let _ = cull;
        } else {
            self.check_range(
                ("flags", "flags offset"),
                (desc.flags, desc.flags_offset),
                input_words(desc),
                storage,
                true,
            )?;
        }
        if let Some(indices) = desc.indices_to {
            self.check_range(("indices", "indices offset"), indices, out, storage, true)?;
        }
        if let Some(indirect) = desc.indirect_to {
            // `prepare` writes the draw there through the queue.
            let usage = storage | wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST;
            self.check_range(
                ("indirect", "indirect offset"),
                indirect,
                desc.draw.words(),
                usage,
                true,
            )?;
        }
        if let Some(target) = desc.instance_count_to {
            let usage = wgpu::BufferUsages::COPY_DST;
            self.check_range(
                ("instance count target", "instance count offset"),
                target,
                1,
                usage,
                false,
            )?;
        }
        if let Some(payload) = &desc.payload {
            if !method.takes_payload() {
                return Err(Error::Unsupported {
                    method,
                    what: "a payload (its order varies: only the order-keeping methods copy one)",
                });
            }
            if !(1..=MAX_PAYLOAD_WORDS).contains(&payload.words) {
                return Err(Error::PayloadWords {
                    words: payload.words,
                    max: MAX_PAYLOAD_WORDS,
                });
            }
            let words = desc.capacity.saturating_mul(u64::from(payload.words));
            let copies = out.saturating_mul(u64::from(payload.words));
            self.check_binding_size("payload", copies)?;
            self.check_binding_size("payload source", words)?;
            self.check_range(
                ("payload source", "payload source offset"),
                payload.source,
                words,
                storage,
                true,
            )?;
            if let Some(to) = payload.to {
                self.check_range(("payload", "payload offset"), to, copies, storage, true)?;
            }
        }
        if let Some(segments) = &desc.segments {
            if !cfg!(feature = "segments") {
                return Err(Error::Unsupported {
                    method,
                    what: "segments (this build of wgpu-compaction has no `segments` feature)",
                });
            }
            if !method.preserves_order() {
                return Err(Error::Unsupported {
                    method,
                    what: "segments (its order varies: only the order-keeping methods keep a mesh's objects together)",
                });
            }
            let count = u64::from(segments.count);
            let records = Segment::WORDS * count;
            self.check_binding_size("segments", records)?;
            self.check_range(
                ("segments", "segments offset"),
                segments.segments,
                records,
                storage,
                true,
            )?;
            let args = segment_args_words(desc.draw, segments.count);
            self.check_binding_size("segment args", args)?;
            if let Some(to) = segments.args_to {
                let usage = storage | wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST;
                self.check_range(
                    ("segment args", "segment args offset"),
                    to,
                    args,
                    usage,
                    true,
                )?;
            }
        }
        check_aliasing(desc)
    }
}

/// A visibility function takes the place of `Lookback`'s flags, in a build that has
/// its kernel.
fn check_cull(method: Method) -> Result<()> {
    if !cfg!(feature = "cull") {
        return Err(Error::Unsupported {
            method,
            what: "a visibility function (this build of wgpu-compaction has no `cull` feature)",
        });
    }
    if method != Method::Lookback {
        return Err(Error::Unsupported {
            method,
            what: "a visibility function (only lookback culls in its pass)",
        });
    }
    Ok(())
}

impl Compactor {
    /// A range of a caller's buffer the compaction binds or copies into: its
    /// usages, its offset (aligned for a storage binding, or to 4 for a copy)
    /// and room for `words` u32 (at least one: bindings are never empty).
    pub(in crate::compactor) fn check_range(
        &self,
        (buffer, offset_what): (&'static str, &'static str),
        (target, offset): BufferAt,
        words: u64,
        usage: wgpu::BufferUsages,
        bound: bool,
    ) -> Result<()> {
        if !target.usage().contains(usage) {
            return Err(Error::BufferUsage {
                buffer,
                missing: usage - target.usage(),
            });
        }
        let alignment = if bound {
            u64::from(self.device.limits().min_storage_buffer_offset_alignment)
        } else {
            WORD
        };
        if !offset.is_multiple_of(alignment) {
            return Err(Error::Misaligned {
                what: offset_what,
                offset,
                alignment,
            });
        }
        let needed = words.max(1).saturating_mul(WORD);
        if !holds(target, offset, needed) {
            return Err(Error::BufferTooSmall {
                buffer,
                size: target.size(),
                offset,
                needed,
            });
        }
        Ok(())
    }

    /// `words` u32 in one storage binding of this device, each numbered by a u32:
    /// no more than the flags it can hold (`max_flags`).
    fn check_binding_size(&self, buffer: &'static str, words: u64) -> Result<()> {
        if words > self.max_flags() {
            return Err(Error::BindingTooLarge {
                buffer,
                bytes: words.saturating_mul(WORD),
                limit: self.max_flags() * WORD,
            });
        }
        Ok(())
    }
}

/// A range of a caller's buffer the compaction binds: what it is, the byte range,
/// and how each pass uses it.
struct Bound<'a> {
    what: &'static str,
    buffer: &'a wgpu::Buffer,
    range: std::ops::Range<u64>,
    /// In the compaction's pass, then in the segments' pass: read (`R`),
    /// written (`W`), or not bound.
    access: [Option<Access>; 2],
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    R,
    W,
}

impl<'a> Bound<'a> {
    fn new(
        what: &'static str,
        (buffer, offset): BufferAt<'a>,
        words: u64,
        access: [Option<Access>; 2],
    ) -> Self {
        Self {
            what,
            buffer,
            // The range checks before made sure that this does not wrap.
            range: offset..offset + words.max(1) * WORD,
            access,
        }
    }
}

/// The caller's ranges must not share a buffer where one pass reads one and
/// writes the other (wgpu refuses such a dispatch), nor overlap where either is
/// written (the outputs would overwrite inputs or each other).
fn check_aliasing(desc: &CompactionDesc) -> Result<()> {
    use Access::{R, W};
    let capacity = desc.capacity;
    let out = out_capacity(desc);
    // `segment_args_grouped` reads the flags the tiles read (not u32 flags that
    // `LookbackBits` packs first).
    let grouped_reads_flags = desc.segments.is_some()
        && (desc.method == Method::Lookback
            || (desc.method == Method::LookbackBits && desc.input == Input::Bits));
    let mut bound = Vec::new();
    match &desc.cull {
        // The renderer's buffers its visibility function reads in the pass.
        Some(cull) => bound.extend(cull.bindings.iter().filter_map(|entry| {
            let wgpu::BindingResource::Buffer(b) = &entry.resource else {
                return None;
            };
            // Clamped to the buffer: a range past it is wgpu's error at `prepare`.
            let size = b.buffer.size();
            let end = b
                .size
                .map_or(size, |s| b.offset.saturating_add(s.get()))
                .min(size);
            let offset = b.offset.min(end);
            let words = (end - offset).div_ceil(WORD);
            Some(Bound::new(
                "cull binding",
                (b.buffer, offset),
                words,
                [Some(R), None],
            ))
        })),
        None => bound.push(Bound::new(
            "flags",
            (desc.flags, desc.flags_offset),
            input_words(desc),
            [Some(R), grouped_reads_flags.then_some(R)],
        )),
    }
    if let Some(at) = desc.indices_to {
        bound.push(Bound::new("indices", at, out, [Some(W), Some(R)]));
    }
    if let Some(at) = desc.indirect_to {
        let words = desc.draw.words();
        bound.push(Bound::new("indirect", at, words, [Some(W), Some(R)]));
    }
    if let Some(p) = &desc.payload {
        let words = capacity * u64::from(p.words);
        bound.push(Bound::new(
            "payload source",
            p.source,
            words,
            [Some(R), None],
        ));
        if let Some(at) = p.to {
            let copies = out * u64::from(p.words);
            bound.push(Bound::new("payload", at, copies, [Some(W), None]));
        }
    }
    if let Some(s) = &desc.segments {
        let words = Segment::WORDS * u64::from(s.count);
        bound.push(Bound::new("segments", s.segments, words, [None, Some(R)]));
        if let Some(at) = s.args_to {
            let words = segment_args_words(desc.draw, s.count);
            bound.push(Bound::new("segment args", at, words, [None, Some(W)]));
        }
    }
    for (i, a) in bound.iter().enumerate() {
        for b in &bound[i + 1..] {
            if a.buffer != b.buffer {
                continue;
            }
            let read_and_written = (0..2).any(
                |pass| matches!((a.access[pass], b.access[pass]), (Some(x), Some(y)) if x != y),
            );
            let written = a.access.contains(&Some(W)) || b.access.contains(&Some(W));
            let overlap = a.range.start < b.range.end && b.range.start < a.range.end;
            if read_and_written || (written && overlap) {
                return Err(Error::Aliased {
                    first: a.what,
                    second: b.what,
                });
            }
        }
    }
    // The count is copied after the pass: over any range the compaction binds,
    // it would overwrite an index, an argument or a flag of the next frame.
    if let Some(at) = desc.instance_count_to {
        let count = Bound::new("instance count", at, 1, [None, None]);
        let over = bound.iter().find(|b| {
            b.buffer == count.buffer
                && b.range.start < count.range.end
                && count.range.start < b.range.end
        });
        if let Some(b) = over {
            return Err(Error::Aliased {
                first: b.what,
                second: count.what,
            });
        }
    }
    Ok(())
}
