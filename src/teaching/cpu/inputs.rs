//! Seeded flag arrays for tests and benchmarks. `random` is the generator of
//! NVIDIA CUB's anchor (`shared/bench/cub_select.cu`), so that a benchmark and
//! CUB compact the very same array.

/// xorshift64, the generator `shared/bench/cub_select.cu` uses, so that the
/// benchmark and CUB compact the same flags.
pub struct XorShift64(u64);

impl XorShift64 {
    /// The generator CUB's anchor starts from for `seed`.
    pub fn new(seed: u64) -> Self {
        Self(0x9E37_79B9_7F4A_7C15 ^ seed)
    }

    /// The next 64 bits (shifts 13, 7, 17).
    pub fn next_u64(&mut self) -> u64 {
        let mut s = self.0;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        self.0 = s;
        s
    }
    /// Uniform in [0, 1) from the top 53 bits.
    pub fn next_unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Each flag independently visible with probability `density`. With `seed == n`
/// this is exactly the CUB anchor's input.
pub fn random(n: usize, density: f64, seed: u64) -> Vec<u32> {
    let mut rng = XorShift64::new(seed);
    (0..n)
        .map(|_| u32::from(rng.next_unit() < density))
        .collect()
}

/// Runs of visible flags (as a frustum or a room produces), covering about
/// `density` of the array; runs average `run` flags.
pub fn clustered(n: usize, density: f64, run: usize, seed: u64) -> Vec<u32> {
    let mut rng = XorShift64::new(seed);
    let run = run.max(1) as f64;
    let density = density.clamp(0.0, 1.0);
    let mut flags = Vec::with_capacity(n);
    let mut visible = rng.next_unit() < density;
    while flags.len() < n {
        let mean = if visible {
            run
        } else if density <= 0.0 {
            n as f64
        } else {
            run * (1.0 - density) / density
        };
        let len = (1.0 + 2.0 * mean * rng.next_unit()).round() as usize;
        let len = len.min(n - flags.len());
        flags.extend(std::iter::repeat_n(u32::from(visible), len));
        visible = !visible;
    }
    flags
}
