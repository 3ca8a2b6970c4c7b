//! A renderer's frame loop whose compaction is sized for the objects it
//! expects to see (`max_visible`), not for all of them, and grows when a frame
//! sees more: the compaction says on the GPU how many did not fit, a
//! `DroppedReadback` brings that count back a frame or two later without
//! waiting, and `Compactor::grow` prepares it again with room for them. The
//! camera turns toward a crowd: 400, then 6 000, then 20 000 of 200 000 objects
//! visible. Every frame prints what it drew and what it dropped; the last ones
//! drop nothing.
//!
//!   cargo run --release --example growing     (WGPU_BACKEND=vulkan etc. chooses)

use wgpu_compaction::{CompactionDesc, Compactor, DroppedReadback, Method};

const OBJECTS: u64 = 200_000;

/// How many objects frame `frame` sees (a culling pass would write these flags).
fn visible_in(frame: u32) -> u32 {
    match frame {
        0..=9 => 400,
        10..=19 => 6_000,
        _ => 20_000,
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter = pollster::block_on(instance.request_adapter(&Default::default()))?;
    let (device, queue) = pollster::block_on(
        adapter.request_device(&wgpu::DeviceDescriptor {
            required_limits: adapter
                .limits()
                .or_better_values_from(&Compactor::required_limits(Method::Lookback)),
            ..Default::default()
        }),
    )?;
    let flags = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("flags"),
        size: OBJECTS * 4,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    let compactor = Compactor::new(&device, &queue);
    // Room for 1 000 visible objects: a two-hundredth of the indices' memory.
    let desc = CompactionDesc::new(&flags, OBJECTS, Method::Lookback).with_max_visible(1_000);
    compactor.warm_up_for(std::slice::from_ref(&desc))?;
    let mut compaction = compactor.prepare_with(&desc)?;
    let mut dropped = DroppedReadback::new(&compactor);

    for frame in 0..30 {
        let seen = visible_in(frame);
        let words: Vec<u32> = (0..OBJECTS as u32)
            .map(|i| u32::from(i % 7 == 0 && i / 7 < seen))
            .collect();
        queue.write_buffer(&flags, 0, bytemuck::cast_slice(&words));

        let mut encoder = device.create_command_encoder(&Default::default());
        compactor.encode(&mut encoder, &compaction)?;
        // ... the draw: draw_indirect(compaction.indirect(), 0) draws what fitted.
        dropped.record(&compaction, &mut encoder);
        queue.submit([encoder.finish()]);
        dropped.submitted();
        // The event loop's poll: nothing waits for the GPU.
        device.poll(wgpu::PollType::Poll)?;

        if let Some(count) = dropped.latest()? {
            print!(
                "frame {frame:2}: {seen:6} visible; a frame read back: {:6} visible, {:6} dropped",
                count.visible, count.dropped
            );
            if let Some(bigger) = compactor.grow(&compaction, &desc, count.visible)? {
                print!(
                    " -> outputs for {} from the next frame",
                    bigger.max_visible()
                );
                compaction = bigger;
            }
            println!();
        }
    }
    // What the last frame drew: every visible object.
    let out = pollster::block_on(compactor.run_compaction(&compaction))?;
    println!(
        "last frame: {} drawn, {} dropped, outputs for {} of {OBJECTS}",
        out.count,
        out.dropped,
        compaction.max_visible()
    );
    assert_eq!((out.count, out.dropped), (visible_in(29), 0));
    Ok(())
}
