//! A compute pipeline with its bind group layout, built from its row of the
//! catalogue, and the buffer helpers the compactor shares.

use std::num::NonZeroU64;

use super::catalogue::{Binding, Spec, INPUT_BINDINGS, PAYLOAD_BINDINGS};
use super::error_scope::scoped_now;
use crate::error::{Error, Result};
use crate::layout::{LIVE_BINDING, WORD};

pub(crate) struct Kernel {
    /// Its row of the catalogue (the tests tie each method's dispatches to
    /// `KernelId::of`; `packed-scan`'s trace reads the counts after its packing).
    pub id: super::catalogue::KernelId,
    label: String,
    pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    workgroup_size: u32,
    /// Its storage bindings (the catalogue's, and the payload's where it copies one).
    bindings: Vec<Binding>,
    /// Whether the kernel reads the live length (binding `LIVE_BINDING`).
    reads_live: bool,
    /// Whether it binds an instrumented override's probe (`PROBE_BINDING`).
    probed: bool,
}

/// The bindings a kernel has beyond its row of the catalogue.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Extras {
    /// The payload's (`PAYLOAD_BINDINGS`).
    pub payload: bool,
    /// The probe of an instrumented kernel override (`PROBE_BINDING`).
    pub probe: bool,
    /// A tile kernel that asks a renderer's visibility function: without the
    /// input's bindings (`INPUT_BINDINGS`).
    pub culled: bool,
}

/// Where an instrumented kernel override reports a runaway loop
/// (`teaching::KernelOverride`).
pub(crate) const PROBE_BINDING: u32 = 15;
/// The uniform an instrumented override's workgroups take their ids through
/// (`teaching::set_schedule`): a uniform, so that what the ids decide stays
/// workgroup-uniform, as the builtin's was.
pub(crate) const SCHEDULE_BINDING: u32 = 14;

/// An instrumented override's probe (`PROBE_BINDING`) and schedule (`SCHEDULE_BINDING`).
pub(crate) struct Probe {
    pub words: wgpu::Buffer,
    pub schedule: wgpu::Buffer,
}

/// The group of a renderer's visibility function's resources (`CullDesc`).
pub(crate) const CULL_GROUP: u32 = 1;

/// A dispatch's bind groups: the kernel's, and a visibility function's if it has one.
pub(crate) type Groups<'a> = (&'a wgpu::BindGroup, Option<&'a wgpu::BindGroup>);

impl Kernel {
    /// The pipeline of `entry_point` (the spec's, or its payload entry) of `module`.
    pub fn new(
        device: &wgpu::Device,
        module: &wgpu::ShaderModule,
        spec: &Spec,
        entry_point: &str,
        label: &str,
        constants: &[(&str, f64)],
        extras: Extras,
    ) -> Self {
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(label),
            // The layout is derived from the bindings this entry point uses.
            layout: None,
            module,
            entry_point: Some(entry_point),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants,
                zero_initialize_workgroup_memory: false,
            },
            cache: None,
        });
        let layout = pipeline.get_bind_group_layout(0);
        let mut bindings = spec.bindings.to_vec();
        if extras.payload {
            bindings.extend(PAYLOAD_BINDINGS);
        }
        if extras.culled {
            bindings.retain(|binding| !INPUT_BINDINGS.contains(binding));
        }
        Self {
            id: spec.id,
            label: label.to_string(),
            pipeline,
            layout,
            workgroup_size: spec.workgroup_size as u32,
            bindings,
            reads_live: spec.reads_live,
            probed: extras.probe,
        }
    }

    /// Binds each buffer to the binding its name has in the catalogue, `live`
    /// (the live length uniform) where the kernel reads it, and `probe` where it
    /// is an instrumented override's. Every binding the kernel has must be given
    /// (the catalogue's names; a test runs every one).
    pub fn bind(
        &self,
        device: &wgpu::Device,
        buffers: &[(&str, wgpu::BufferBinding)],
        live: &wgpu::Buffer,
        probe: Option<&Probe>,
    ) -> wgpu::BindGroup {
        debug_assert_eq!(
            buffers.len(),
            self.bindings.len(),
            "{}: bindings",
            self.label
        );
        let mut entries: Vec<wgpu::BindGroupEntry> = buffers
            .iter()
            .map(|(name, b)| wgpu::BindGroupEntry {
                binding: self.binding(name),
                resource: wgpu::BindingResource::Buffer(b.clone()),
            })
            .collect();
        if self.reads_live {
            entries.push(wgpu::BindGroupEntry {
                binding: LIVE_BINDING,
                resource: live.as_entire_binding(),
            });
        }
        if let Some(probe) = probe.filter(|_| self.probed) {
            entries.push(wgpu::BindGroupEntry {
                binding: PROBE_BINDING,
                resource: probe.words.as_entire_binding(),
            });
            entries.push(wgpu::BindGroupEntry {
                binding: SCHEDULE_BINDING,
                resource: probe.schedule.as_entire_binding(),
            });
        }
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(&self.label),
            layout: &self.layout,
            entries: &entries,
        })
    }

    /// The number of the binding named `name`: the library's own names only.
    fn binding(&self, name: &str) -> u32 {
        match self.bindings.iter().find(|(_, n)| *n == name) {
            Some(&(number, _)) => number,
            None => unreachable!("{} has no binding {name}", self.label),
        }
    }

    /// The bind group of a renderer's visibility function (`CullDesc`): its
    /// resources at @group(1), as its WGSL declares them; none where it declares
    /// none and none are given. What does not match is `Error::Cull` (natively: in
    /// a browser wgpu answers later, and the device hears of it).
    pub fn bind_cull(
        &self,
        device: &wgpu::Device,
        entries: &[wgpu::BindGroupEntry],
    ) -> Result<Option<wgpu::BindGroup>> {
        if entries.is_empty() && cfg!(target_arch = "wasm32") {
            return Ok(None);
        }
        // A pipeline whose WGSL declares nothing in the group has no layout for it.
        let layout = scoped_now(device, || {
            Ok(self.pipeline.get_bind_group_layout(CULL_GROUP))
        });
        let layout = match layout {
            Ok(layout) => layout,
            Err(_) if entries.is_empty() => return Ok(None),
            Err(_) => {
                return Err(Error::Cull(
                    "CullDesc::bindings are given, but the WGSL declares nothing in @group(1)"
                        .into(),
                ))
            }
        };
        let group = scoped_now(device, || {
            Ok(device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(&format!("{}:cull", self.label)),
                layout: &layout,
                entries,
            }))
        });
        group.map(Some).map_err(Error::into_cull)
    }

    /// Enough workgroups for `invocations`, laid out on a 2-D grid when they
    /// exceed the per-dimension limit (the shaders linearise the id back).
    pub fn dispatch(
        &self,
        pass: &mut wgpu::ComputePass,
        groups: Groups,
        invocations: u64,
        max_per_dimension: u32,
    ) {
        let count = self.groups(invocations);
        if count == 0 {
            return;
        }
        let (x, y) = grid(count, max_per_dimension);
        self.set(pass, groups);
        pass.dispatch_workgroups(x, y, 1);
    }

    fn set(&self, pass: &mut wgpu::ComputePass, (group, cull): Groups) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, group, &[]);
        if let Some(cull) = cull {
            pass.set_bind_group(CULL_GROUP, cull, &[]);
        }
    }
}

impl Kernel {
    /// Workgroups covering `invocations`.
    pub fn groups(&self, invocations: u64) -> u64 {
        invocations.div_ceil(u64::from(self.workgroup_size))
    }

    /// Exactly `groups` workgroups on one dimension (a slice: the shader adds its
    /// first workgroup, live.z, to each id).
    pub fn dispatch_groups(&self, pass: &mut wgpu::ComputePass, groups: Groups, count: u32) {
        if count == 0 {
            return;
        }
        self.set(pass, groups);
        pass.dispatch_workgroups(count, 1, 1);
    }
}

/// The smallest `(x, y)` grid, `x` within the limit, holding `groups` workgroups.
pub(crate) fn grid(groups: u64, max_per_dimension: u32) -> (u32, u32) {
    let max = u64::from(max_per_dimension.max(1));
    let y = groups.div_ceil(max);
    let x = groups.div_ceil(y);
    (x as u32, y as u32)
}

/// The first `words` u32 of `buffer`, as a binding (at least one word: WebGPU
/// forbids empty bindings, and the kernels never read past their length).
pub(crate) fn words(buffer: &wgpu::Buffer, words: u64) -> wgpu::BufferBinding<'_> {
    words_at(buffer, 0, words)
}

/// `words` u32 of `buffer` from byte `offset`.
pub(crate) fn words_at(buffer: &wgpu::Buffer, offset: u64, words: u64) -> wgpu::BufferBinding<'_> {
    wgpu::BufferBinding {
        buffer,
        offset,
        size: NonZeroU64::new(words.max(1) * WORD),
    }
}

/// A storage buffer of `words` u32 (at least one), readable by copies.
pub(crate) fn storage_buffer(
    device: &wgpu::Device,
    label: &str,
    words: u64,
    extra: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: words.max(1) * WORD,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | extra,
        mapped_at_creation: false,
    })
}

/// A buffer holding `contents`, written through the queue (`COPY_DST` added), not
/// mapped at creation: on a lost device `create_buffer_init`'s mapping panics,
/// where this is an error the caller's error scope catches.
pub(crate) fn buffer_with(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    label: &str,
    contents: &[u8],
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: contents.len() as u64,
        usage: usage | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    queue.write_buffer(&buffer, 0, contents);
    buffer
}

/// Whether `buffer` holds `bytes` from `offset`, checked: an offset near
/// `u64::MAX` does not wrap into a range that seems to fit.
pub(crate) fn holds(buffer: &wgpu::Buffer, offset: u64, bytes: u64) -> bool {
    offset
        .checked_add(bytes)
        .is_some_and(|end| end <= buffer.size())
}
