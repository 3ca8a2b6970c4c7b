//! The CPU reference: the library's CPU mirror of every kernel, for browsers
//! without WebGPU. It draws nothing.

use wgpu_compaction::teaching::trace::{
    AtomicTrace, PackedTrace, ScanTrace, TileSchedule, TileTrace,
};
use wgpu_compaction::teaching::{cpu, shader_sources, LookbackOptions, ShaderSource};
use wgpu_compaction::{CompactionOutput, Compactor, DrawArgs, Method};

use crate::web::timing::{time_cpu, Measured};

pub(in crate::web) struct Cpu;

impl Cpu {
    pub fn adapter_name(&self) -> String {
        "CPU reference".into()
    }

    pub fn run(&self, flags: &[u32], method: Method) -> CompactionOutput {
        cpu::compact(
            flags,
            method,
            DrawArgs::vertices(Compactor::DEFAULT_VERTEX_COUNT),
        )
    }

    pub fn trace_scan(&self, flags: &[u32]) -> crate::Result<ScanTrace> {
        check_trace(flags.len())?;
        Ok(cpu::trace_scan(flags))
    }

    pub fn trace_atomic(&self, flags: &[u32], method: Method) -> crate::Result<AtomicTrace> {
        check_trace(flags.len())?;
        Ok(cpu::trace_atomic(flags, method))
    }

    pub fn trace_packed(&self, flags: &[u32]) -> crate::Result<PackedTrace> {
        check_trace(flags.len())?;
        Ok(cpu::trace_packed(flags))
    }

    pub fn trace_tiles(
        &self,
        flags: &[u32],
        method: Method,
        schedule: &TileSchedule,
    ) -> crate::Result<TileTrace> {
        Ok(cpu::trace_tiles(flags, method, schedule)?)
    }

    /// What a browser's GPU compiles: the portable build (wgpu on wasm has no subgroups).
    pub fn sources(&self, method: Method) -> Vec<ShaderSource> {
        shader_sources(method, &LookbackOptions::default(), false)
    }

    pub fn time(&self, flags: &[u32], method: Method, (reps, samples): (u32, u32)) -> Measured {
        time_cpu(flags, method, reps, samples)
    }
}

/// The GPU's traces refuse more flags than a person can read; so does the mirror.
fn check_trace(len: usize) -> crate::Result<()> {
    Ok(wgpu_compaction::teaching::check_trace_len(len)?)
}
