//! The renderer's vocabulary for a compaction: what it compacts (its flags, bits
//! or u32, at an offset), what it draws, and where the outputs go (its own
//! buffers or ranges of the caller's), with a payload and per-mesh segments.

use crate::compactor::Compactor;
use crate::output::DrawArgs;
use crate::Method;

/// How the flags are stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Input {
    /// One u32 per flag; any nonzero value is visible.
    #[default]
    U32,
    /// One bit per flag, 32 to a u32 word, least significant first (as a culling
    /// pass can write them with `atomicOr`). Only [`Method::LookbackBits`] and
    /// [`Method::PackedScan`] read bits.
    Bits,
}

/// A range of one of your buffers: the buffer and a byte offset into it.
pub type BufferAt<'a> = (&'a wgpu::Buffer, u64);

/// Everything a compaction is prepared for. `CompactionDesc::new` fills the
/// usual defaults; the `with_*` methods set the fields that differ (or set the
/// fields themselves). It may gain fields in a minor release: it is made by
/// `new` (or [`Compactor::culled`]), never written out.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CompactionDesc<'a> {
    /// Prefixes the labels of the buffers and passes the compaction creates.
    pub label: Option<&'a str>,
    /// The method.
    pub method: Method,
    /// The flags: needs `STORAGE` usage.
    pub flags: &'a wgpu::Buffer,
    /// Where the flags start in `flags`, in bytes: a multiple of the device's
    /// `min_storage_buffer_offset_alignment` (256 on most devices). The indices
    /// count from here: index 0 is the first flag at this offset.
    pub flags_offset: u64,
    /// u32 flags or bits.
    pub input: Input,
    /// The most flags a frame compacts. The live length (see
    /// [`Compactor::encode_len`]) is this until set otherwise.
    pub capacity: u64,
    /// The indirect arguments written for the draw: non-indexed (16 bytes) or
    /// indexed (20 bytes); the GPU fills in `instance_count`.
    pub draw: DrawArgs,
    /// Added to every index written (and so to what the vertex shader reads):
    /// for example the first object of this flags range in a renderer's object
    /// table. Default 0.
    pub index_base: u32,
    /// Write the indices into this range of your buffer instead of a buffer of the
    /// compaction's own: `STORAGE` usage, the offset a multiple of
    /// `min_storage_buffer_offset_alignment`, room for `capacity` u32 from it (or
    /// `max_visible`; several views can share one instance buffer this way).
    pub indices_to: Option<BufferAt<'a>>,
    /// Write the indirect arguments into this range of your buffer instead:
    /// `STORAGE | INDIRECT | COPY_DST` usage, the offset a multiple of
    /// `min_storage_buffer_offset_alignment`, room for the 16 or 20 bytes of
    /// `draw`. `prepare` writes `draw` there once; every encode writes its
    /// `instance_count`.
    pub indirect_to: Option<BufferAt<'a>>,
    /// Also copy the count (the `instance_count`) to this buffer at this byte
    /// offset at the end of every encode: for an arguments buffer of yours that
    /// the compaction does not bind. Needs `COPY_DST`; the offset a multiple of 4.
    pub instance_count_to: Option<BufferAt<'a>>,
    /// Copy each visible object's payload (a transform, a few words of instance
    /// data) into a dense buffer, in the same pass as the indices: what the
    /// vertex shader reads at `instance_index` directly. Order-keeping methods only.
    pub payload: Option<PayloadDesc<'a>>,
    /// Compact objects grouped by mesh into one dense range per mesh, with one
    /// draw record per mesh for `multi_draw_indexed_indirect(_count)`.
    /// Order-keeping methods only.
    pub segments: Option<SegmentsDesc<'a>>,
    /// Size the indices (and a payload's copies) for at most this many visible
    /// objects instead of the capacity: at 5 % visible, a twentieth of the memory.
    /// Past it the GPU writes nothing more (the first `max_visible` in order are
    /// kept), the count and `instance_count` are what was written, and
    /// [`crate::Compaction::dropped`] (`CompactionOutput::dropped` on the CPU) says
    /// how many did not fit, so that the renderer can grow it next frame.
    /// `Lookback` and `LookbackBits` only; 1 to the capacity. `None`: the capacity.
    pub max_visible: Option<u64>,
    /// Cull and compact in one pass: the GPU asks your visibility function about
    /// each object instead of reading a flag, so no flags are written or read
    /// (`flags`, `flags_offset` and `input` are then not used: make the
    /// description with [`Compactor::culled`]). `Lookback` only.
    pub cull: Option<CullDesc<'a>>,
}

/// A renderer's visibility function, called by the compaction in place of
/// reading flags (see [`CompactionDesc::cull`]).
///
/// `wgsl` defines `fn visible(object : u32) -> bool` and whatever it reads, in
/// `@group(1)` only (group 0 is the compaction's): bounds, the frustum, a depth
/// pyramid. `object` counts from 0 to the capacity, as the indices do before the
/// index base. It is called once per object, and again for the objects of a tile
/// the look-back counts itself (rare): it must answer the same within a pass, and
/// write nothing. Its declarations' names must not clash with the library's WGSL:
/// prefix them (`cull_`, say). A WGSL error is `Error::Cull` at `prepare`, with the
/// lines of your `wgsl`; one whose calls store to storage or workgroup memory,
/// or use atomics, is `Error::Cull` too, naming the line.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CullDesc<'a> {
    /// The WGSL of `visible` and its bindings.
    pub wgsl: &'a str,
    /// The resources at `@group(1)`, by binding number, as `wgsl` declares them
    /// (read-only storage, uniforms, textures, samplers). None if it binds none.
    pub bindings: &'a [wgpu::BindGroupEntry<'a>],
}

/// Where each object's payload is, and where its copy goes (see
/// [`CompactionDesc::payload`]).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PayloadDesc<'a> {
    /// The objects' payloads: object `i`'s `words` u32 at byte
    /// `offset + 4 · words · i` (objects counted as the indices are, before the
    /// index base). `STORAGE` usage, the offset aligned as the flags'.
    pub source: BufferAt<'a>,
    /// u32 words per object, 1 to 64 (a record of up to 256 bytes: 16-bit fields
    /// go two to a word).
    pub words: u32,
    /// The dense copies: visible object number `k` (in the order of the indices)
    /// at word `words · k` of this range of your buffer (`STORAGE`, aligned
    /// offset, room for `capacity · words` u32, or `max_visible · words`), or `None` for a buffer of the
    /// compaction's own ([`crate::Compaction::payload`]).
    pub to: Option<BufferAt<'a>>,
}

/// The renderer's meshes as contiguous segments of the objects (see
/// [`CompactionDesc::segments`]).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SegmentsDesc<'a> {
    /// `count` [`crate::Segment`]s (16 bytes each), read on the GPU every encode, so
    /// that a renderer can rewrite them: `STORAGE` usage, the offset aligned as
    /// the flags'.
    pub segments: BufferAt<'a>,
    /// How many segments.
    pub count: u32,
    /// Where the records go: `count` indirect-argument records (as `draw`: 20
    /// bytes indexed, 16 not), then one u32, the draw count. This range of your
    /// buffer (`STORAGE | INDIRECT | COPY_DST`, aligned offset), or `None` for a
    /// buffer of the compaction's own ([`crate::Compaction::segment_args`]).
    pub args_to: Option<BufferAt<'a>>,
    /// Pack the records to the meshes with a visible object: theirs first, in
    /// mesh order, the rest drawing nothing, and the draw count how many were
    /// kept, so that `multi_draw_*_indirect_count` issues no empty draw.
    /// [`crate::Compaction::record_meshes`] says each packed record's mesh. One
    /// more dispatch (one workgroup).
    pub packed: bool,
}

impl<'a> CompactionDesc<'a> {
    /// u32 flags from the start of `flags`, `capacity` of them, for a
    /// non-indexed draw of a quad (6 vertices) per instance, into buffers of the
    /// compaction's own.
    pub fn new(flags: &'a wgpu::Buffer, capacity: u64, method: Method) -> Self {
        Self {
            label: None,
            method,
            flags,
            flags_offset: 0,
            input: Input::U32,
            capacity,
            draw: DrawArgs::vertices(Compactor::DEFAULT_VERTEX_COUNT),
            index_base: 0,
            indices_to: None,
            indirect_to: None,
            instance_count_to: None,
            payload: None,
            segments: None,
            max_visible: None,
            cull: None,
        }
    }
}

/// Consuming setters, one per field that `new` gives a default: `Option`
/// fields take the value itself.
impl<'a> CompactionDesc<'a> {
    /// Sets [`CompactionDesc::label`].
    pub fn with_label(mut self, label: &'a str) -> Self {
        self.label = Some(label);
        self
    }
    /// Sets [`CompactionDesc::flags_offset`].
    pub fn with_flags_offset(mut self, offset: u64) -> Self {
        self.flags_offset = offset;
        self
    }
    /// Sets [`CompactionDesc::input`].
    pub fn with_input(mut self, input: Input) -> Self {
        self.input = input;
        self
    }
    /// Sets [`CompactionDesc::capacity`].
    pub fn with_capacity(mut self, capacity: u64) -> Self {
        self.capacity = capacity;
        self
    }
    /// Sets [`CompactionDesc::draw`].
    pub fn with_draw(mut self, draw: DrawArgs) -> Self {
        self.draw = draw;
        self
    }
    /// Sets [`CompactionDesc::index_base`].
    pub fn with_index_base(mut self, base: u32) -> Self {
        self.index_base = base;
        self
    }
    /// Sets [`CompactionDesc::indices_to`].
    pub fn with_indices_to(mut self, at: BufferAt<'a>) -> Self {
        self.indices_to = Some(at);
        self
    }
    /// Sets [`CompactionDesc::indirect_to`].
    pub fn with_indirect_to(mut self, at: BufferAt<'a>) -> Self {
        self.indirect_to = Some(at);
        self
    }
    /// Sets [`CompactionDesc::instance_count_to`].
    pub fn with_instance_count_to(mut self, at: BufferAt<'a>) -> Self {
        self.instance_count_to = Some(at);
        self
    }
    /// Sets [`CompactionDesc::payload`].
    pub fn with_payload(mut self, payload: PayloadDesc<'a>) -> Self {
        self.payload = Some(payload);
        self
    }
    /// Sets [`CompactionDesc::segments`].
    pub fn with_segments(mut self, segments: SegmentsDesc<'a>) -> Self {
        self.segments = Some(segments);
        self
    }
    /// Sets [`CompactionDesc::max_visible`].
    pub fn with_max_visible(mut self, max_visible: u64) -> Self {
        self.max_visible = Some(max_visible);
        self
    }
    /// Sets [`CompactionDesc::cull`] (see [`Compactor::culled`], which also
    /// fills the flags it then does not read).
    pub fn with_cull(mut self, cull: CullDesc<'a>) -> Self {
        self.cull = Some(cull);
        self
    }
}

impl<'a> CullDesc<'a> {
    /// `visible`'s WGSL and the resources it binds at `@group(1)` (empty: none).
    pub fn new(wgsl: &'a str, bindings: &'a [wgpu::BindGroupEntry<'a>]) -> Self {
        Self { wgsl, bindings }
    }
}

impl<'a> PayloadDesc<'a> {
    /// `words` u32 per object from `source`, copied into a buffer of the
    /// compaction's own (see [`PayloadDesc::with_to`]).
    pub fn new(source: BufferAt<'a>, words: u32) -> Self {
        Self {
            source,
            words,
            to: None,
        }
    }
    /// Sets [`PayloadDesc::to`]: the copies into this range of your buffer.
    pub fn with_to(mut self, at: BufferAt<'a>) -> Self {
        self.to = Some(at);
        self
    }
}

impl<'a> SegmentsDesc<'a> {
    /// `count` segments read from `segments`, their records into a buffer of
    /// the compaction's own, not packed.
    pub fn new(segments: BufferAt<'a>, count: u32) -> Self {
        Self {
            segments,
            count,
            args_to: None,
            packed: false,
        }
    }
    /// Sets [`SegmentsDesc::args_to`]: the records into this range of your buffer.
    pub fn with_args_to(mut self, at: BufferAt<'a>) -> Self {
        self.args_to = Some(at);
        self
    }
    /// Sets [`SegmentsDesc::packed`].
    pub fn with_packed(mut self, packed: bool) -> Self {
        self.packed = packed;
        self
    }
}

impl Compactor {
    /// A description of `Lookback` over `capacity` objects culled by `cull` in the
    /// same pass (no flags: the compactor's own stand-in fills `flags`), for a
    /// non-indexed draw of a quad per instance into buffers of the compaction's
    /// own. Set the other fields as for [`CompactionDesc::new`].
    pub fn culled<'a>(&'a self, cull: CullDesc<'a>, capacity: u64) -> CompactionDesc<'a> {
        CompactionDesc {
            cull: Some(cull),
            ..CompactionDesc::new(&self.empty_vec4, capacity, Method::Lookback)
        }
    }
}

/// The visible objects the outputs hold: `max_visible`, else the capacity.
pub(in crate::compactor) fn out_capacity(desc: &CompactionDesc) -> u64 {
    desc.max_visible.unwrap_or(desc.capacity)
}

/// The u32 words of the input: one per flag, or one per 32 bits.
pub(in crate::compactor) fn input_words(desc: &CompactionDesc) -> u64 {
    match desc.input {
        Input::U32 => desc.capacity,
        Input::Bits => desc.capacity.div_ceil(32),
    }
}

/// The segment records for `count` segments, then the draw count.
pub(in crate::compactor) fn segment_args_words(draw: DrawArgs, count: u32) -> u64 {
    draw.words() * u64::from(count) + 1
}
