//! One GPU device for every `Playground` of the page: pipelines compile once
//! (seconds on a software adapter), and one queue of work, because wgpu's error
//! scopes are a stack per device that two interleaved runs would pop for each
//! other. Each `Playground` registers its own event callback.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use super::convert::js_error;
use crate::{Error, GpuContext};
use wgpu_compaction::Compactor;

pub(super) struct SharedGpu {
    /// Which device this is: wgpu's callbacks must be `Send`, so they name it by number.
    generation: u32,
    pub context: GpuContext,
    pub compactor: Rc<Compactor>,
    pub lock: AsyncLock,
    lost: RefCell<Option<String>>,
}

/// On a software adapter, a run of more invocations than this is recorded in
/// slices of about this many, each its own turn on the page's GPU: another
/// playground's call waits for one slice (SwiftShader: about 0.5 s for 2^19
/// flags of the scan's block pass), not for the whole run (17 s for 2^24), and
/// a benchmark's Cancel is looked at between them.
/// A hardware GPU runs 2^24 flags in milliseconds: one slice, no waits between.
const SLICE_INVOCATIONS: u64 = 1 << 19;

impl SharedGpu {
    /// The most invocations a slice of a run holds on this adapter
    /// ([`wgpu_compaction::Compactor::encode_slice`]).
    pub fn slice_invocations(&self) -> u64 {
        if self.context.is_software() {
            SLICE_INVOCATIONS
        } else {
            u64::MAX
        }
    }

    /// `Err(DeviceLost)` once the device is gone.
    pub fn check(&self) -> crate::Result<()> {
        match self.lost.borrow().as_ref() {
            Some(message) => Err(Error::DeviceLost(message.clone())),
            None => Ok(()),
        }
    }
}

struct Listener {
    generation: u32,
    callback: js_sys::Function,
}

thread_local! {
    static SHARED: RefCell<Option<Rc<SharedGpu>>> = const { RefCell::new(None) };
    /// The device being opened, so that elements starting together share it.
    static OPENING: RefCell<Option<js_sys::Promise>> = const { RefCell::new(None) };
    static GENERATION: Cell<u32> = const { Cell::new(0) };
    static NEXT_LISTENER: Cell<u32> = const { Cell::new(1) };
    static LISTENERS: RefCell<HashMap<u32, Listener>> = RefCell::new(HashMap::new());
}

/// The page's device: the open one, the one being opened, or a new one.
pub(super) async fn shared_gpu() -> Result<Rc<SharedGpu>, JsValue> {
    if let Some(shared) = current() {
        return Ok(shared);
    }
    let opening = OPENING.with(|o| o.borrow().clone());
    let opening = match opening {
        Some(promise) => promise,
        None => {
            let promise = future_to_promise(async {
                let result = open().await;
                OPENING.with(|o| *o.borrow_mut() = None);
                let shared = result.map_err(js_error)?;
                SHARED.with(|s| *s.borrow_mut() = Some(Rc::new(shared)));
                Ok(JsValue::UNDEFINED)
            });
            OPENING.with(|o| *o.borrow_mut() = Some(promise.clone()));
            promise
        }
    };
    JsFuture::from(opening).await?;
    current().ok_or_else(|| {
        js_error(Error::DeviceLost(
            "the GPU device was lost as soon as it opened".into(),
        ))
    })
}

fn current() -> Option<Rc<SharedGpu>> {
    SHARED.with(|s| s.borrow().clone())
}

async fn open() -> crate::Result<SharedGpu> {
    let context = GpuContext::new().await?;
    let generation = GENERATION.with(|g| {
        g.set(g.get() + 1);
        g.get()
    });
    context
        .device
        .set_device_lost_callback(move |reason, message| {
            lost(generation, &format!("{reason:?}: {message}"));
        });
    context.device.on_uncaptured_error(Arc::new(move |error| {
        emit(generation, "uncaptured-error", &error.to_string())
    }));
    let compactor = Rc::new(Compactor::new(&context.device, &context.queue));
    Ok(SharedGpu {
        generation,
        context,
        compactor,
        lock: AsyncLock::default(),
        lost: RefCell::new(None),
    })
}

/// The device is gone: later calls fail with `device-lost`, the next
/// `Playground.create` opens a new one, and every playground on it hears of it.
fn lost(generation: u32, message: &str) {
    let shared = SHARED.with(|s| {
        let mut slot = s.borrow_mut();
        match slot.as_ref() {
            Some(shared) if shared.generation == generation => slot.take(),
            _ => None,
        }
    });
    if let Some(shared) = shared {
        *shared.lost.borrow_mut() = Some(message.to_string());
    }
    emit(generation, "device-lost", message);
}

fn emit(generation: u32, kind: &str, message: &str) {
    // Collected first: a callback may create or free playgrounds, which
    // changes the listeners.
    let callbacks: Vec<js_sys::Function> = LISTENERS.with(|l| {
        l.borrow()
            .values()
            .filter(|l| l.generation == generation)
            .map(|l| l.callback.clone())
            .collect()
    });
    for callback in callbacks {
        let _ = callback.call2(&JsValue::NULL, &kind.into(), &message.into());
    }
}

/// Registers `callback` for the events of `shared`'s device; returns the key to remove it.
pub(super) fn listen(shared: &SharedGpu, callback: js_sys::Function) -> u32 {
    let id = NEXT_LISTENER.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1).max(1));
        id
    });
    let listener = Listener {
        generation: shared.generation,
        callback,
    };
    LISTENERS.with(|l| l.borrow_mut().insert(id, listener));
    id
}

pub(super) fn unlisten(id: u32) {
    LISTENERS.with(|l| l.borrow_mut().remove(&id));
}

/// A first-come, first-served lock for async work on one thread. Its futures
/// run to completion (they are driven by `future_to_promise`), so a ticket is
/// never abandoned.
#[derive(Default)]
pub(super) struct AsyncLock {
    next_ticket: Cell<u64>,
    serving: Cell<u64>,
    waiting: RefCell<Vec<Waker>>,
}

impl AsyncLock {
    pub fn lock(&self) -> impl Future<Output = LockGuard<'_>> {
        let ticket = self.next_ticket.get();
        self.next_ticket.set(ticket + 1);
        Turn { lock: self, ticket }
    }
}

struct Turn<'a> {
    lock: &'a AsyncLock,
    ticket: u64,
}

impl<'a> Future for Turn<'a> {
    type Output = LockGuard<'a>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<LockGuard<'a>> {
        if self.lock.serving.get() == self.ticket {
            Poll::Ready(LockGuard { lock: self.lock })
        } else {
            self.lock.waiting.borrow_mut().push(cx.waker().clone());
            Poll::Pending
        }
    }
}

pub(super) struct LockGuard<'a> {
    lock: &'a AsyncLock,
}

impl Drop for LockGuard<'_> {
    fn drop(&mut self) {
        self.lock.serving.set(self.lock.serving.get() + 1);
        let waiting = std::mem::take(&mut *self.lock.waiting.borrow_mut());
        for waker in waiting {
            waker.wake();
        }
    }
}

/// Flags uploaded for one call: destroyed when it ends, however it ends (in a
/// browser, wgpu leaves a dropped buffer to the JS GC).
pub(super) struct Uploaded(pub wgpu::Buffer);

impl Drop for Uploaded {
    fn drop(&mut self) {
        self.0.destroy();
    }
}
