//! The draw the playground shows: one `draw_indirect` whose instance count the
//! compaction wrote on the GPU, each instance fetching `visibles[instance_index]`.
//! Drawn offscreen and read back: visible cells are painted, invisible ones not,
//! each in the colour of its place in the draw.

use std::sync::OnceLock;

use compaction_playground::draw_instances::{position_colour, Grid, OffscreenImage};
use compaction_playground::{flags, GpuContext};
use wgpu_compaction::teaching::Readback;
use wgpu_compaction::{Compactor, Method};

fn compactor() -> &'static Compactor {
    static GPU: OnceLock<(GpuContext, Compactor)> = OnceLock::new();
    &GPU.get_or_init(|| {
        let context = pollster::block_on(GpuContext::new())
            .unwrap_or_else(|e| panic!("the GPU tests need an adapter (Mesa lavapipe in CI): {e}"));
        let compactor = Compactor::new(&context.device, &context.queue);
        (context, compactor)
    })
    .1
}

fn painted_cells(flags: &[u32], method: Method) -> Vec<bool> {
    painted(flags, method, Grid::fit)
}

/// Which of the `flags.len()` cells of a one-row image the draw painted.
fn painted(flags: &[u32], method: Method, grid: impl Fn(u32, u32, u32) -> Grid) -> Vec<bool> {
    drawn(flags, method, grid)
        .0
        .iter()
        .map(|rgba| rgba[3] == 255)
        .collect()
}

/// The RGBA at the centre of each of the `flags.len()` cells of a one-row
/// image, and the indices the draw read.
fn drawn(
    flags: &[u32],
    method: Method,
    grid: impl Fn(u32, u32, u32) -> Grid,
) -> (Vec<[u8; 4]>, Vec<u32>) {
    let compactor = compactor();
    let device = compactor.device();
    let n = flags.len() as u32;
    // One row of 10-pixel cells (Grid::fit puts n cells on a n·10 × 10 target).
    let image = OffscreenImage::new(device, n * 10, 10);
    let buffer = compactor.upload(flags).expect("upload");
    let compaction = compactor
        .prepare(
            &buffer,
            u64::from(n),
            method,
            Compactor::DEFAULT_VERTEX_COUNT,
        )
        .expect("prepare");
    let mut encoder = device.create_command_encoder(&Default::default());
    compactor.encode(&mut encoder, &compaction).expect("encode");
    image.encode(
        device,
        &mut encoder,
        compaction.indices(),
        compaction.indirect(),
        grid(n, image.width(), image.height()),
    );
    let mut readback = Readback::default();
    readback.copy(
        device,
        &mut encoder,
        image.pixels(),
        0,
        image.pixels().size() / 4,
    );
    let visible = flags.iter().filter(|&&f| f != 0).count() as u64;
    readback.copy(device, &mut encoder, compaction.indices(), 0, visible);
    compactor.queue().submit([encoder.finish()]);
    let mut read = pollster::block_on(readback.read(device)).expect("read");
    let rgba = image.unpad(&read[0]);
    let cells = (0..n as usize)
        .map(|cell| {
            let at = (5 * n as usize * 10 + cell * 10 + 5) * 4;
            [rgba[at], rgba[at + 1], rgba[at + 2], rgba[at + 3]]
        })
        .collect();
    (cells, std::mem::take(&mut read[1]))
}

#[test]
fn each_object_is_coloured_by_its_place_in_the_draw() {
    let flags = flags::random(48, 0.5, 5);
    let n = flags.len() as u32;
    for method in Method::ALL {
        let (cells, indices) = drawn(&flags, method, Grid::fit);
        assert_eq!(indices.len(), flags.iter().filter(|&&f| f != 0).count());
        for (slot, &object) in indices.iter().enumerate() {
            let want = position_colour(slot as u32, n).map(|c| (c * 255.0).round() as i32);
            let got = cells[object as usize];
            for k in 0..3 {
                assert!(
                    (i32::from(got[k]) - want[k]).abs() <= 2,
                    "{method}: object {object} drawn {slot}th is {got:?}, wants {want:?}"
                );
            }
        }
    }
    // The scan draws in object order: its cells, left to right, are the ramp.
    let (_, indices) = drawn(&flags, Method::Scan, Grid::fit);
    assert!(indices.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn draw_instances_paints_exactly_the_visible_cells() {
    for method in Method::ALL {
        let got = painted_cells(&flags::ARTICLE_EXAMPLE, method);
        let want: Vec<bool> = flags::ARTICLE_EXAMPLE.iter().map(|&f| f != 0).collect();
        assert_eq!(got, want, "{method}");
    }
    let wild = [0, 7, 0, u32::MAX, 2, 0, 0, 1];
    let want: Vec<bool> = wild.iter().map(|&f| f != 0).collect();
    assert_eq!(painted_cells(&wild, Method::Scan), want);
}

#[test]
fn draw_order_paints_the_first_instance_count_cells() {
    let flags = flags::random(64, 0.5, 3);
    let visible = flags.iter().filter(|&&f| f != 0).count();
    for method in Method::ALL {
        // A grid of n cells (not fitted to the visible count) to see where the draw stops.
        let got = painted(&flags, method, |n, w, h| Grid::draw_order(n, n, 4, w, h));
        let want: Vec<bool> = (0..flags.len()).map(|cell| cell < visible).collect();
        assert_eq!(got, want, "{method}");
    }
}
