//! A learner's WGSL in place of one of the article's kernels: the module is
//! compiled by the device's own compiler (a browser's on the web), its
//! messages placed in UTF-16 columns as an editor counts them, and a compactor
//! built with it runs the library's own orchestration around it. An
//! instrumented module's guarded loops report a runaway to a probe buffer
//! (binding 15), read with [`take_probe`].

use std::sync::Arc;

use crate::compactor::Compactor;
use crate::error::{Error, Result};
use crate::gpu::catalogue::{KernelId, Module, KERNELS};
use crate::gpu::error_scope::GpuErrorScope;
use crate::gpu::kernel::{buffer_with, storage_buffer, Probe};
use crate::gpu::pipelines::Replaced;
use crate::gpu::readback::Readback;
use crate::teaching::LookbackOptions;
use crate::Method;

/// The kernels a learner may replace: the article's, each with the method that runs it.
pub const OVERRIDABLE: [(&str, Method); 5] = [
    ("atomic_counter", Method::Atomic),
    ("atomic_aggregated", Method::Aggregated),
    ("scan_block", Method::Scan),
    ("add_offsets", Method::Scan),
    ("scatter", Method::Scan),
];

/// Words of the probe: whether a guarded loop ran away, the line of the first
/// that did, then what the instrumentation counted of the run ([`PROBE_COSTS`]).
pub const PROBE_WORDS: u64 = 8;
/// Where the probe's counts are, from word 2: storage reads, storage writes,
/// atomics, barriers, and the invocations that ran (each statement of the
/// learner's adds its own to them; `www/panels/kernel/instrument.js`).
pub const PROBE_COSTS: std::ops::Range<usize> = 2..7;
/// Words of the schedule uniform (binding 14) the instrumented workgroups take
/// their ids through: `[order, a, b, delayed]`. `order` 0 is the GPU's own, 1
/// reversed, 2 the linear id `k` taken as `(a·k + b) mod n` (`a` coprime with
/// every dispatch's `n`); a `delayed` below `u32::MAX` names the workgroup (in
/// the new order) that spins a while before it starts.
pub const SCHEDULE_WORDS: u64 = 4;

/// What a page needs to know of a kernel it lets a learner replace.
#[derive(Clone, Debug)]
pub struct KernelFacts {
    /// Its module's name (`"scan_block"`).
    pub module: &'static str,
    /// The method that runs it.
    pub method: Method,
    /// Its file of `shaders/`.
    pub path: &'static str,
    /// The WGSL shipped in that file.
    pub wgsl: &'static str,
    /// The files the module appends after it (`shaders/live.wgsl`): (path, WGSL), in order.
    pub appended: Vec<(&'static str, &'static str)>,
    /// Its entry points, each with the bindings the host binds to it by name
    /// (`live`, the uniform, where it reads it).
    pub entry_points: Vec<(&'static str, Vec<&'static str>)>,
}

fn module_named(name: &str) -> Option<&'static Module> {
    KERNELS
        .iter()
        .map(|spec| spec.module)
        .find(|module| module.name == name)
}

/// The facts of `module`, one of [`OVERRIDABLE`].
pub fn kernel_facts(module: &str) -> Option<KernelFacts> {
    let &(name, method) = OVERRIDABLE.iter().find(|(m, _)| *m == module)?;
    let found = module_named(name)?;
    // As the learner's module is compiled: the default build (the scan untraced).
    let files = found.files(&Default::default());
    let (first, appended) = files.split_first()?;
    let entry_points = KERNELS
        .iter()
        // (The traced scan is the same entry point in another build: no entry of its own.)
        .filter(|spec| std::ptr::eq(spec.module, found) && spec.id != KernelId::ScanBlockTraced)
        .map(|spec| {
            let mut names: Vec<&'static str> = spec.bindings.iter().map(|&(_, n)| n).collect();
            if spec.reads_live {
                names.push("live");
            }
            (spec.entry_point, names)
        })
        .collect();
    Some(KernelFacts {
        module: name,
        method,
        path: first.0,
        wgsl: first.1,
        appended: appended.to_vec(),
        entry_points,
    })
}

/// One of [`OVERRIDABLE`] with other WGSL in place of its file.
#[derive(Clone, Debug)]
pub struct KernelOverride {
    module: &'static Module,
    wgsl: Arc<str>,
    probed: bool,
}

impl KernelOverride {
    /// `wgsl` in place of `module`'s file. `probed`: the WGSL declares the probe
    /// (`@group(0) @binding(15) var<storage, read_write>`, [`PROBE_WORDS`] atomics)
    /// and uses it in every entry point, so that the host binds it.
    pub fn new(module: &str, wgsl: impl Into<Arc<str>>, probed: bool) -> Result<Self> {
        let found = OVERRIDABLE
            .iter()
            .find(|(m, _)| *m == module)
            .and_then(|(m, _)| module_named(m))
            .ok_or_else(|| Error::UnknownKernel(crate::method::printable(module)))?;
        Ok(Self {
            module: found,
            wgsl: wgsl.into(),
            probed,
        })
    }

    /// The name of the module it replaces (`"scan_block"`).
    pub fn module(&self) -> &'static str {
        self.module.name
    }

    /// The file it replaces.
    fn path(&self) -> &'static str {
        self.module.plain_files()[0].path
    }

    /// The whole module as the device compiles it: the WGSL, then the files the
    /// module appends (`shaders/live.wgsl`).
    pub fn module_wgsl(&self) -> String {
        let replaced = Some((self.path(), self.wgsl.as_ref()));
        self.module.wgsl_with(&Default::default(), replaced)
    }
}

/// How serious a compiler's message is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The module does not compile.
    Error,
    /// It compiles, but something is likely wrong.
    Warning,
    /// A note, often explaining another message (where a non-uniform value came from).
    Info,
}

/// A compiler's message, placed as an editor counts: 1-based line of the whole
/// module, 1-based column and length in UTF-16 code units (wgpu gives bytes).
/// `line` 0: no place (a pipeline's error, or a message without one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// How serious.
    pub severity: Severity,
    /// The compiler's own words (a browser's, in English).
    pub message: String,
    /// 1-based line; 0 for none.
    pub line: u32,
    /// 1-based column in UTF-16 code units.
    pub column: u32,
    /// Length of the span in UTF-16 code units.
    pub length: u32,
}

/// The UTF-16 column (1-based) and length of the byte span `offset..offset + length` of `source`.
pub fn utf16_place(source: &str, offset: usize, length: usize) -> (u32, u32) {
    let start = offset.min(source.len());
    let start = (0..=start)
        .rev()
        .find(|&i| source.is_char_boundary(i))
        .unwrap_or(0);
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let end = (start + length).min(source.len());
    let end = (end..=source.len())
        .find(|&i| source.is_char_boundary(i))
        .unwrap_or(source.len());
    let column = source[line_start..start].encode_utf16().count() + 1;
    let span = source[start..end].encode_utf16().count();
    (column as u32, span as u32)
}

/// Compiles `kernel`'s module on `device` and returns the compiler's messages,
/// with an error scope's message (no place) where the module is invalid and the
/// compiler said nothing placed. Builds no pipeline.
///
/// Native callers (the tests, a renderer's own tool) compile here. The page
/// does not: its wasm hands the browser's `GPUShaderModule` to JavaScript
/// (`Playground.kernelModule`), which reads `getCompilationInfo()` itself.
/// Bringing those messages back through wgpu into this function on wasm cost
/// about 3 KiB of every page's download for the same messages.
pub async fn compile_messages(device: &wgpu::Device, kernel: &KernelOverride) -> Vec<Diagnostic> {
    let source = kernel.module_wgsl();
    let scope = GpuErrorScope::push(device);
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(kernel.module()),
        source: wgpu::ShaderSource::Wgsl(source.as_str().into()),
    });
    let info = module.get_compilation_info().await;
    let scope_error = scope.pop().await.err().map(|e| e.to_string());
    let mut out: Vec<Diagnostic> = info
        .messages
        .into_iter()
        .map(|m| {
            let severity = match m.message_type {
                wgpu::CompilationMessageType::Error => Severity::Error,
                wgpu::CompilationMessageType::Warning => Severity::Warning,
                wgpu::CompilationMessageType::Info => Severity::Info,
            };
            let (line, column, length) = match m.location {
                Some(at) => {
                    let (column, length) =
                        utf16_place(&source, at.offset as usize, at.length as usize);
                    (at.line_number, column, length)
                }
                None => (0, 0, 0),
            };
            Diagnostic {
                severity,
                message: m.message,
                line,
                column,
                length,
            }
        })
        .collect();
    if let Some(message) = scope_error {
        if !out.iter().any(|d| d.severity == Severity::Error) {
            out.push(Diagnostic {
                severity: Severity::Error,
                message,
                line: 0,
                column: 0,
                length: 0,
            });
        }
    }
    out
}

impl Compactor {
    /// A compactor whose pipelines compile `kernel` in place of its file (each
    /// pipeline on first use, as `new`'s do); everything else is the library's.
    /// Pipeline errors surface where the pipeline is first used (`warm_up`
    /// inside an error scope, or the first `run`).
    pub fn with_override(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        kernel: &KernelOverride,
    ) -> Self {
        let probe = kernel.probed.then(|| Probe {
            words: storage_buffer(
                device,
                "kernel probe",
                PROBE_WORDS,
                wgpu::BufferUsages::COPY_DST,
            ),
            schedule: buffer_with(
                device,
                queue,
                "kernel schedule",
                bytemuck::cast_slice(&IN_ORDER),
                wgpu::BufferUsages::UNIFORM,
            ),
        });
        let replaced = Replaced {
            path: kernel.path(),
            wgsl: kernel.wgsl.clone(),
            probe,
        };
        Self::assemble(device, queue, LookbackOptions::default(), Some(replaced))
    }
}

/// The probe of `compactor`'s instrumented kernel, if it has one: [`PROBE_WORDS`]
/// words, read with [`probe_line`] and cleared by the caller after each read
/// (the page copies it in its run's own submission).
pub fn probe_buffer(compactor: &Compactor) -> Option<&wgpu::Buffer> {
    compactor.probe().map(|p| &p.words)
}

/// The GPU's own order of workgroups: the schedule an instrumented kernel starts with.
pub const IN_ORDER: [u32; SCHEDULE_WORDS as usize] = [0, 1, 0, u32::MAX];

/// The order in which `compactor`'s instrumented kernel's workgroups take their
/// ids from its next run on ([`SCHEDULE_WORDS`]: `[order, a, b, delayed]`),
/// written through the queue. `Err(Range)` for an order the kernels do not
/// know, or without an instrumented kernel.
pub fn set_schedule(compactor: &Compactor, schedule: [u32; SCHEDULE_WORDS as usize]) -> Result<()> {
    let probe = compactor
        .probe()
        .ok_or_else(|| Error::Schedule("this compactor has no instrumented kernel".into()))?;
    if schedule[0] > 2 {
        return Err(Error::Schedule(format!("order {}: 0, 1 or 2", schedule[0])));
    }
    compactor
        .queue()
        .write_buffer(&probe.schedule, 0, bytemuck::cast_slice(&schedule));
    Ok(())
}

/// What a probe's words say: the line of the guarded loop that first ran past
/// the budget, or 0.
pub fn probe_line(words: &[u32]) -> u32 {
    match words {
        [tripped, line, ..] if *tripped != 0 => (*line).max(1),
        _ => 0,
    }
}

/// The line of the guarded loop that ran away since the last call, or 0; the
/// probe is cleared for the next run. 0 for a compactor without a probe.
pub async fn take_probe(compactor: &Compactor) -> Result<u32> {
    let Some(probe) = probe_buffer(compactor) else {
        return Ok(0);
    };
    let device = compactor.device();
    let mut readback = Readback::default();
    let mut encoder = device.create_command_encoder(&Default::default());
    readback.copy(device, &mut encoder, probe, 0, PROBE_WORDS);
    encoder.clear_buffer(probe, 0, None);
    compactor.queue().submit([encoder.finish()]);
    let words = readback.read(device).await?;
    Ok(words.first().map_or(0, |w| probe_line(w)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units_from_the_line_start() {
        let source = "// é𝄞\nlet x = 1 +;\n";
        // `;` on line 2: byte offset 20, column 12 in both counts (ASCII line).
        let offset = source.find(";\n").unwrap();
        assert_eq!(utf16_place(source, offset, 1), (12, 1));
        // On line 1, `𝄞` is 4 bytes, 2 UTF-16 units; `é` 2 bytes, 1 unit.
        let clef = source.find('𝄞').unwrap();
        assert_eq!(clef, 5);
        assert_eq!(utf16_place(source, clef, 4), (5, 2));
        // An offset inside a character is taken back to its start; past the end, the end.
        assert_eq!(utf16_place(source, clef + 1, 1), (5, 2));
        assert_eq!(utf16_place(source, 10_000, 3).1, 0);
    }

    #[test]
    fn every_overridable_kernel_has_facts_with_its_entry_points() {
        for (module, method) in OVERRIDABLE {
            let facts = kernel_facts(module).expect(module);
            assert_eq!(facts.method, method);
            assert_eq!(facts.path, format!("shaders/{module}.wgsl"));
            let appended: Vec<&str> = facts.appended.iter().map(|&(path, _)| path).collect();
            let expected: &[&str] = if module == "scan_block" {
                &["shaders/scan_record_none.wgsl", "shaders/live.wgsl"]
            } else {
                &["shaders/live.wgsl"]
            };
            assert_eq!(appended, expected);
            assert!(facts.entry_points.iter().any(|(e, _)| *e == module));
            for (entry, bindings) in &facts.entry_points {
                assert!(bindings.contains(&"live"), "{entry}");
                for name in bindings.iter().filter(|n| **n != "live") {
                    let declared = facts.wgsl.lines().any(|line| {
                        line.starts_with("@group(0) @binding(")
                            && line.split_once('>').is_some_and(|(_, rest)| {
                                rest.trim_start().starts_with(&format!("{name} "))
                            })
                    });
                    assert!(declared, "{entry}: {name}");
                }
            }
        }
        assert!(kernel_facts("tiles").is_none());
        assert!(KernelOverride::new("lookback", "", false).is_err());
    }
}
