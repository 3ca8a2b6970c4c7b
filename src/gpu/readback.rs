//! Copies GPU buffers into mappable ones and awaits the mapping, natively and on the web.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use crate::error::{Error, Result};
use crate::layout::WORD;

/// Buffer ranges read back together after one submission, natively or in a
/// browser: `copy` each range while recording, submit, then `read` them all.
#[derive(Default)]
pub struct Readback {
    staging: Vec<Option<wgpu::Buffer>>,
}

impl Readback {
    /// Records a copy of `words` u32 from `source` (starting at word `first`);
    /// returns the position of this range in `read`'s result.
    pub fn copy(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        source: &wgpu::Buffer,
        first: u64,
        words: u64,
    ) -> usize {
        self.copy_at(device, encoder, source, first * WORD, words)
    }

    /// `copy` from byte `offset` (a multiple of 4).
    pub fn copy_at(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        source: &wgpu::Buffer,
        offset: u64,
        words: u64,
    ) -> usize {
        let staging = (words > 0).then(|| {
            let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("readback"),
                size: words * WORD,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            encoder.copy_buffer_to_buffer(source, offset, &buffer, 0, words * WORD);
            buffer
        });
        self.staging.push(staging);
        self.staging.len() - 1
    }

    /// Maps every staging buffer (after the copies were submitted) and returns
    /// their contents in the order they were added.
    pub async fn read(self, device: &wgpu::Device) -> Result<Vec<Vec<u32>>> {
        let mut pending = Vec::new();
        for buffer in self.staging.iter().flatten() {
            let signal = MapSignal::default();
            let shared = signal.0.clone();
            buffer
                .slice(..)
                .map_async(wgpu::MapMode::Read, move |result| {
                    let mut state = lock(&shared);
                    state.result = Some(result.map_err(|e| e.to_string()));
                    if let Some(waker) = state.waker.take() {
                        waker.wake();
                    }
                });
            pending.push(signal);
        }
        wait(device);
        for signal in pending {
            signal.await.map_err(Error::Readback)?;
        }
        let mut out = Vec::with_capacity(self.staging.len());
        for buffer in &self.staging {
            let words = match buffer {
                None => Vec::new(),
                Some(buffer) => {
                    let view = buffer
                        .slice(..)
                        .get_mapped_range()
                        .map_err(|e| Error::Readback(e.to_string()))?;
                    let words = bytemuck::cast_slice(&view).to_vec();
                    drop(view);
                    buffer.unmap();
                    words
                }
            };
            out.push(words);
        }
        Ok(out)
    }
}

impl Drop for Readback {
    /// The staging buffers are its own: freed at once, not left to the JS GC in a browser.
    fn drop(&mut self) {
        for buffer in self.staging.iter().flatten() {
            buffer.destroy();
        }
    }
}

/// Natively, block until the GPU is done so the map callbacks run; in the browser
/// the callbacks come from the event loop and this does nothing.
fn wait(device: &wgpu::Device) {
    // An error here is a lost device; the map callbacks then report it.
    let _ = device.poll(wgpu::PollType::wait_indefinitely());
}

#[derive(Default)]
struct MapState {
    result: Option<std::result::Result<(), String>>,
    waker: Option<Waker>,
}

#[derive(Default)]
struct MapSignal(Arc<Mutex<MapState>>);

fn lock(state: &Mutex<MapState>) -> std::sync::MutexGuard<'_, MapState> {
    state
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Future for MapSignal {
    type Output = std::result::Result<(), String>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut state = lock(&self.0);
        match state.result.take() {
            Some(result) => Poll::Ready(result),
            None => {
                state.waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}
