#![doc = include_str!("../LIBRARY.md")]
#![warn(missing_docs)]

mod compactor;
mod error;
mod gpu;
mod layout;
mod method;
mod output;
pub mod teaching;

pub use compactor::{
    BufferAt, Compaction, CompactionDesc, Compactor, CullDesc, Dropped, DroppedReadback,
    EncodeOptions, Input, Length, PayloadDesc, PendingOutput, SegmentsDesc, LENGTH_SLOTS,
};
pub use error::{Error, Result};
pub use layout::is_visible;
pub use method::Method;
pub use output::{fnv1a, CompactionOutput, DrawArgs, IndexedIndirectArgs, IndirectArgs, Segment};
