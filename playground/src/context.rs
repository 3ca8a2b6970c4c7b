//! Adapter, device and queue: the only place that knows native from web.

use crate::error::{Error, Result};

pub struct GpuContext {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
}

impl GpuContext {
    /// Opens the default high-performance adapter with the limits it offers
    /// (large storage bindings matter here) and, where present, the
    /// TIMESTAMP_QUERY and SUBGROUP features, and SUBGROUP_BARRIER for the
    /// `bench --source` variants that stage per subgroup (BENCHMARKS.md v29).
    pub async fn new() -> Result<Self> {
        let instance = new_instance()?;
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                ..Default::default()
            })
            .await
            .map_err(|e| Error::NoAdapter(e.to_string()))?;
        let wanted = wgpu::Features::TIMESTAMP_QUERY
            | wgpu::Features::SUBGROUP
            | wgpu::Features::SUBGROUP_BARRIER;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("compaction"),
                required_features: adapter.features() & wanted,
                required_limits: adapter.limits(),
                ..Default::default()
            })
            .await
            .map_err(|e| Error::Device(e.to_string()))?;
        Ok(Self {
            instance,
            adapter,
            device,
            queue,
        })
    }

    /// "NVIDIA H200 (DiscreteGpu, Vulkan)"
    /// Whether the adapter runs on the CPU (SwiftShader, lavapipe, llvmpipe): long
    /// work there takes seconds, so the page records it in slices.
    pub fn is_software(&self) -> bool {
        self.adapter.get_info().device_type == wgpu::DeviceType::Cpu
    }

    pub fn adapter_name(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?}, {:?})", info.name, info.device_type, info.backend)
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn new_instance() -> Result<wgpu::Instance> {
    // WGPU_BACKEND=vulkan etc. choose the backend (the tests use Mesa's lavapipe).
    Ok(wgpu::Instance::new(
        wgpu::InstanceDescriptor::new_without_display_handle_from_env(),
    ))
}

/// Any global with `navigator.gpu`: a page's window, a worker (wgpu reads it
/// from either), or a runtime that gives one (Node with a WebGPU package).
#[cfg(target_arch = "wasm32")]
fn new_instance() -> Result<wgpu::Instance> {
    let get = |of: &wasm_bindgen::JsValue, key: &str| js_sys::Reflect::get(of, &key.into()).ok();
    let has_gpu = get(&js_sys::global(), "navigator")
        .filter(|n| n.is_object())
        .and_then(|navigator| get(&navigator, "gpu"))
        .is_some_and(|gpu| !gpu.is_undefined() && !gpu.is_null());
    if !has_gpu {
        return Err(Error::NoWebGpu("navigator.gpu is missing".into()));
    }
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
    descriptor.backends = wgpu::Backends::BROWSER_WEBGPU;
    Ok(wgpu::Instance::new(descriptor))
}
