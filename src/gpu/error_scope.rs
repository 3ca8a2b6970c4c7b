//! Validation and out-of-memory errors as `Error::Gpu`, instead of the default
//! handler's panic (native) or a console message (web).

use std::future::Future;

use crate::error::{Error, Result};

pub struct GpuErrorScope {
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

/// Runs `work` inside an error scope: a GPU error it causes becomes its result.
pub async fn scoped<T>(device: &wgpu::Device, work: impl Future<Output = Result<T>>) -> Result<T> {
    let scope = GpuErrorScope::push(device);
    let result = work.await;
    scope.pop().await?;
    result
}
