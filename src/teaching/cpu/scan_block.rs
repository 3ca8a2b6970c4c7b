//! CPU mirror of `shaders/scan_block.wgsl`, step by step.

use crate::is_visible;

use crate::layout::{BLOCK, STEPS};

/// What one block-scan dispatch leaves.
pub struct ScanBlockOutput {
    /// Exclusive prefix inside each block.
    pub prefix: Vec<u32>,
    /// Inclusive total of each block.
    pub block_sums: Vec<u32>,
    /// `tmp` after the load and after each step, trimmed to `input.len()`.
    pub steps: Vec<Vec<u32>>,
}

/// `flags_input` mirrors the shader's `FLAGS_INPUT`: level 0 counts any nonzero
/// flag as one, upper levels add block sums as they are.
pub fn scan_block(input: &[u32], flags_input: bool) -> ScanBlockOutput {
    let blocks = input.len().div_ceil(BLOCK);
    let loaded: Vec<u32> = input
        .iter()
        .map(|&v| {
            if flags_input {
                u32::from(is_visible(v))
            } else {
                v
            }
        })
        .collect();
    let mut prefix = vec![0u32; input.len()];
    let mut block_sums = vec![0u32; blocks];
    let mut steps = vec![loaded.clone(); STEPS + 1];
    for (block, block_sum) in block_sums.iter_mut().enumerate() {
        let start = block * BLOCK;
        let end = (start + BLOCK).min(input.len());
        // The workgroup's shared array: zeros past the end of the input.
        let mut tmp = [0u32; BLOCK];
        tmp[..end - start].copy_from_slice(&loaded[start..end]);
        for (s, snapshot) in steps.iter_mut().enumerate().skip(1) {
            let offset = 1 << (s - 1);
            // Every invocation reads before any writes: the barrier between them.
            let read = tmp;
            for li in offset..BLOCK {
                tmp[li] = read[li].wrapping_add(read[li - offset]);
            }
            snapshot[start..end].copy_from_slice(&tmp[..end - start]);
        }
        for i in start..end {
            prefix[i] = tmp[i - start].wrapping_sub(loaded[i]);
        }
        *block_sum = tmp[BLOCK - 1];
    }
    ScanBlockOutput {
        prefix,
        block_sums,
        steps,
    }
}
