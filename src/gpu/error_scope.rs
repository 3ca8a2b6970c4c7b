//! Validation and out-of-memory errors as `Error::Gpu`, instead of the default
//! handler's panic (native) or a console message (web).

use std::future::Future;

use crate::error::{Error, Result};

pub(crate) struct GpuErrorScope {
    // Fields drop in order: the scope pushed last must be popped first.
    validation: wgpu::ErrorScopeGuard,
    out_of_memory: wgpu::ErrorScopeGuard,
}

impl GpuErrorScope {
    pub fn push(device: &wgpu::Device) -> Self {
        let out_of_memory = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
        Self {
            out_of_memory,
            validation,
        }
    }

    pub async fn pop(self) -> Result<()> {
        let validation = self.validation.pop().await;
        let out_of_memory = self.out_of_memory.pop().await;
        match validation.or(out_of_memory) {
            Some(error) => Err(Error::Gpu(error.to_string())),
            None => Ok(()),
        }
    }
}

/// Runs `work` inside validation and out-of-memory error scopes: a GPU error it
/// causes becomes its result (`Error::Gpu`) instead of going to the device's
/// uncaptured-error handler (a panic natively, by default). Scopes are a stack
/// per device: do not interleave two scoped works on one device.
pub async fn scoped<T, E: From<Error>>(
    device: &wgpu::Device,
    work: impl Future<Output = std::result::Result<T, E>>,
) -> std::result::Result<T, E> {
    let scope = GpuErrorScope::push(device);
    let result = work.await;
    scope.pop().await?;
    result
}

/// Runs `work` (which records or creates, and waits for nothing) inside
/// validation and out-of-memory error scopes, and takes their answer at once:
/// natively wgpu-core answers a pop immediately, so a GPU error `work` caused (a
/// buffer of another device, a destroyed device) is its `Error::Gpu` instead of
/// the uncaptured-error handler's panic. In a browser the scopes answer later,
/// so `work` runs unscoped there and its errors go to the device as before.
pub fn scoped_now<T>(device: &wgpu::Device, work: impl FnOnce() -> Result<T>) -> Result<T> {
    if cfg!(target_arch = "wasm32") {
        return work();
    }
    let scope = GpuErrorScope::push(device);
    let out = work();
    let popped = std::pin::pin!(scope.pop());
    match popped.poll(&mut std::task::Context::from_waker(std::task::Waker::noop())) {
        std::task::Poll::Ready(Err(e)) => Err(e),
        _ => out,
    }
}
