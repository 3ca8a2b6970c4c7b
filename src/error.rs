//! The library's one error type: everything a caller can get wrong or a device
//! can refuse is one of these, never a panic.

use crate::method::Method;

/// Why a compaction cannot be prepared, encoded or read back.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// More flags than one storage binding of the device holds, or than the method takes.
    #[non_exhaustive]
    TooLarge {
        /// The flags asked for.
        n: u64,
        /// The bytes they need in one binding.
        bytes: u64,
        /// The most bytes the binding may have.
        limit: u64,
        /// The most flags, then.
        max_flags: u64,
    },
    /// A buffer lacks a usage the compaction binds it with.
    #[non_exhaustive]
    BufferUsage {
        /// Which buffer: `"flags"`, `"instance count target"`, ….
        buffer: &'static str,
        /// The usages it needs and does not have.
        missing: wgpu::BufferUsages,
    },
    /// A buffer is smaller than the range the compaction reads or writes.
    #[non_exhaustive]
    BufferTooSmall {
        /// Which buffer.
        buffer: &'static str,
        /// Its size in bytes.
        size: u64,
        /// The offset the range starts at.
        offset: u64,
        /// The bytes needed, from the offset.
        needed: u64,
    },
    /// An offset that the device or the copy needs aligned is not.
    #[non_exhaustive]
    Misaligned {
        /// Which offset.
        what: &'static str,
        /// The offset in bytes.
        offset: u64,
        /// The alignment it needs.
        alignment: u64,
    },
    /// The device's limits are below what the method's kernels need.
    #[non_exhaustive]
    Limit {
        /// The method.
        method: Method,
        /// The `wgpu::Limits` field.
        limit: &'static str,
        /// What the kernels need.
        needed: u64,
        /// What the device allows.
        allowed: u64,
    },
    /// Something the method does not do (bit input for a method other than `LookbackBits`).
    #[non_exhaustive]
    Unsupported {
        /// The method.
        method: Method,
        /// What it does not do.
        what: &'static str,
    },
    /// A payload of a size the kernels do not copy.
    #[non_exhaustive]
    PayloadWords {
        /// The words per object asked for.
        words: u32,
        /// The most (the least is 1).
        max: u32,
    },
    /// A buffer the compaction binds would be larger than one storage binding of
    /// the device holds (or than u32 numbers address).
    #[non_exhaustive]
    BindingTooLarge {
        /// Which buffer.
        buffer: &'static str,
        /// The bytes it would bind.
        bytes: u64,
        /// The most a binding holds.
        limit: u64,
    },
    /// Two ranges of one of your buffers that the compaction cannot bind together:
    /// one pass reads one and writes the other (wgpu refuses that), or they overlap
    /// where one is written.
    #[non_exhaustive]
    Aliased {
        /// The first range (`"flags"`, `"indices"`, `"payload"`, …).
        first: &'static str,
        /// The second.
        second: &'static str,
    },
    /// `Compactor::check_segments`: a segment that starts before the one before it.
    #[non_exhaustive]
    SegmentsOutOfOrder {
        /// Its position in the list.
        segment: u32,
        /// Its first object.
        first_object: u32,
        /// The first object of the segment before it.
        previous: u32,
    },
    /// `Compactor::check_segments`: a segment that starts past the objects.
    #[non_exhaustive]
    SegmentPastObjects {
        /// Its position in the list.
        segment: u32,
        /// Its first object.
        first_object: u32,
        /// The objects (the compaction's capacity).
        objects: u64,
    },
    /// A `max_visible` of 0, or past the capacity.
    #[non_exhaustive]
    MaxVisible {
        /// The `max_visible` asked for.
        max_visible: u64,
        /// The capacity.
        capacity: u64,
    },
    /// `index_base` plus the capacity passes `u32::MAX`: the last indices would wrap.
    #[non_exhaustive]
    IndexOverflow {
        /// The index base asked for.
        index_base: u32,
        /// The capacity in objects.
        capacity: u64,
    },
    /// The draw's `first_instance` plus the most instances it can draw passes
    /// `u32::MAX`: the last `instance_index`es would wrap.
    #[non_exhaustive]
    InstanceOverflow {
        /// The first instance asked for.
        first_instance: u32,
        /// The most instances the draw can count (the capacity, or `max_visible`).
        instances: u64,
    },
    /// A live length past the compaction's capacity.
    #[non_exhaustive]
    LengthTooLarge {
        /// The length asked for.
        len: u64,
        /// The capacity the compaction was prepared for.
        capacity: u64,
    },
    /// A compaction recorded (or read back) by a `Compactor`, or on a device,
    /// other than the one that prepared it.
    #[non_exhaustive]
    ForeignCompaction {
        /// What was asked: `encode`, `read_output`, …
        what: &'static str,
    },
    /// `encode_slice` asked for a slice past the last (`Compactor::slices` says how many).
    #[non_exhaustive]
    NoSuchSlice {
        /// The slice asked for.
        slice: usize,
        /// How many slices the compaction is recorded in.
        slices: usize,
    },
    /// A trace asked for more flags than a person can read ([`crate::teaching::MAX_TRACE_FLAGS`]).
    #[non_exhaustive]
    TraceTooLarge {
        /// The flags asked for.
        n: usize,
        /// The most a trace takes.
        max: usize,
    },
    /// A tile trace asked of a method that does not run on tiles.
    NotTiled(Method),
    /// No method has this name (its first characters, escaped).
    UnknownMethod(String),
    /// No kernel a learner may replace has this name (`teaching::OVERRIDABLE`).
    UnknownKernel(String),
    /// A schedule for a learner's kernel that cannot be set (`teaching::set_schedule`): why.
    Schedule(String),
    /// The device reported a validation or out-of-memory error during the work.
    Gpu(String),
    /// A renderer's visibility function (`CullDesc`) did not compile, or its
    /// bindings did not match its WGSL: what wgpu said.
    Cull(String),
    /// A renderer's visibility function, documented to write nothing, can: a
    /// function it calls (or itself) uses read-write storage, workgroup memory,
    /// a writable storage texture or an atomic. Refused at `prepare`.
    #[non_exhaustive]
    CullWrites {
        /// The line of `CullDesc::wgsl` (from 1).
        line: u32,
        /// What is used there: the variable's name, or the atomic operation.
        what: String,
        /// Why it may not be: `"var<storage, read_write>"`, `"var<workgroup>"`, ….
        why: &'static str,
    },
    /// Mapping a buffer to read it back failed (the device may be lost).
    Readback(String),
}

impl Error {
    /// What wgpu said of a renderer's visibility function or its bindings, as
    /// [`Error::Cull`]; any other error as it is.
    pub(crate) fn into_cull(self) -> Error {
        match self {
            Error::Gpu(message) => Error::Cull(message),
            other => other,
        }
    }
}

/// `Result` with the library's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::TooLarge { n, bytes, limit, max_flags } => write!(
                f,
                "{n} flags need {bytes} bytes in one storage binding, but this device allows at \
                 most {limit} bytes (max_storage_buffer_binding_size), i.e. {max_flags} flags"
            ),
            Error::BufferUsage { buffer, missing } => {
                write!(f, "the {buffer} buffer needs the usage {missing:?}")
            }
            Error::BufferTooSmall { buffer, size, offset, needed } => write!(
                f,
                "the {buffer} buffer has {size} bytes, but the compaction needs {needed} from \
                 offset {offset}, {} in all",
                offset.saturating_add(*needed)
            ),
            Error::Misaligned { what, offset, alignment } => {
                write!(f, "the {what} ({offset}) must be a multiple of {alignment}")
            }
            Error::Limit { method, limit, needed, allowed } => write!(
                f,
                "`{method}` needs {limit} of at least {needed}, but this device allows {allowed} \
                 (Compactor::required_limits says what each method needs)"
            ),
            Error::Unsupported { method, what } => write!(f, "`{method}` does not take {what}"),
            Error::PayloadWords { words, max } => write!(
                f,
                "a payload of {words} u32 per object: the kernels copy 1 to {max}"
            ),
            Error::BindingTooLarge { buffer, bytes, limit } => write!(
                f,
                "the {buffer} binding would be {bytes} bytes, but this device binds at most {limit} \
                 (max_storage_buffer_binding_size)"
            ),
            Error::Aliased { first, second } => write!(
                f,
                "the {first} and {second} ranges are in one buffer where a pass reads one and \
                 writes the other, or they overlap: give them separate buffers (or ranges that \
                 do not overlap, where both are written)"
            ),
            Error::SegmentsOutOfOrder { segment, first_object, previous } => write!(
                f,
                "segment {segment} starts at object {first_object}, before the segment before \
                 it ({previous}): the GPU assumes the segments in order"
            ),
            Error::SegmentPastObjects { segment, first_object, objects } => write!(
                f,
                "segment {segment} starts at object {first_object}, past the {objects} objects"
            ),
            Error::MaxVisible { max_visible, capacity } => write!(
                f,
                "max_visible {max_visible} must be from 1 to the capacity, {capacity}"
            ),
            Error::IndexOverflow { index_base, capacity } => write!(
                f,
                "index_base {index_base} plus a capacity of {capacity} objects passes u32::MAX \
                 ({}): the last indices would wrap",
                u32::MAX
            ),
            Error::InstanceOverflow {
                first_instance,
                instances,
            } => write!(
                f,
                "first_instance {first_instance} plus up to {instances} instances passes \
                 u32::MAX ({}): the last instance indices would wrap",
                u32::MAX
            ),
            Error::LengthTooLarge { len, capacity } => write!(
                f,
                "a live length of {len} flags is past the {capacity} this compaction was prepared for"
            ),
            Error::ForeignCompaction { what } => write!(
                f,
                "{what}: this compaction was prepared by another Compactor (or on another device); \
                 record it with the Compactor that prepared it"
            ),
            Error::NoSuchSlice { slice, slices } => write!(
                f,
                "slice {slice} asked for, but this compaction is recorded in {slices} (0 to {})",
                slices - 1
            ),
            Error::TraceTooLarge { n, max } => write!(
                f,
                "a trace is for arrays a person can read: at most {max} flags, but there are {n}; \
                 run the method without a trace instead"
            ),
            Error::NotTiled(method) => write!(
                f,
                "the method `{method}` does not run on tiles; tile traces are for lookback, \
                 lookback-bits and tile-atomic"
            ),
            Error::UnknownMethod(name) => {
                let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
                write!(f, "unknown method `{name}`; expected one of: {}", names.join(", "))
            }
            Error::Schedule(why) => write!(f, "schedule: {why}"),
            Error::UnknownKernel(name) => {
                let names = crate::teaching::OVERRIDABLE.map(|(m, _)| m);
                write!(f, "unknown kernel `{name}`; expected one of: {}", names.join(", "))
            }
            Error::Gpu(message) => write!(f, "the GPU reported an error: {message}"),
            Error::Cull(message) => write!(
                f,
                "the visibility function (CullDesc) does not compile or bind: {message}"
            ),
            Error::CullWrites { line, what, why } => write!(
                f,
                "the visibility function (CullDesc) must write nothing: line {line} of its WGSL uses {what}, {why}"
            ),
            Error::Readback(message) => {
                write!(f, "reading the result back from the GPU failed: {message}")
            }
        }
    }
}

impl std::error::Error for Error {}
