//! The benchmark's options.

use compaction_playground::cli;
use wgpu_compaction::{Compactor, Method};

pub const USAGE: &str = "usage: bench [--sizes N,N,...] [--density D,D,...] [--reps R] [--warmup W] \
                     [--methods m,m,...] [--portable] [--unchecked] [--unpaired] [--paired-from TILES] [--narrow] \
                     [--no-robustness] [--stats] [--fixed] [--json] [--payload W,W,...] [--segments S,S,...] \
                     [--cull min|early] [--source tile-kernels-variant.wgsl ...]";

/// The most `--reps`: the timer's query set holds 4096 timestamps, two a run.
pub const MAX_REPS: usize = 2048;
/// The most `--warmup` rounds.
pub const MAX_WARMUP: usize = 10_000;
/// The most `--payload` words per object (what the kernels copy).
pub const MAX_PAYLOAD_WORDS: usize = 64;
/// The most `--segments`.
pub const MAX_SEGMENTS: usize = 1 << 20;

/// What the command line asks for.
pub enum Parsed {
    Run(Args),
    Help,
}

/// `LookbackOptions::paired_from_tiles` of the `--unpaired` builds: never paired;
/// `wide_bits_from_tiles` of the `--narrow` ones: never wide.
pub const UNPAIRED: u32 = u32::MAX;
pub const NARROW: u32 = u32::MAX;

pub struct Args {
    pub sizes: Vec<usize>,
    pub densities: Vec<f64>,
    pub reps: usize,
    pub warmup: usize,
    pub methods: Vec<Method>,
    pub portable: bool,
    pub unchecked: bool,
    /// `--unpaired`: also `lookback` with one tile a workgroup at every size.
    pub unpaired: bool,
    /// `--paired-from TILES`: the capacity from which `lookback` takes two tiles a
    /// workgroup, in every build (`LookbackOptions::paired_from_tiles`).
    pub paired_from: Option<u32>,
    /// `--narrow`: also `lookback-bits` with one tile a look-back state at every size.
    pub narrow: bool,
    /// `--no-robustness`: the whole process on a device without the driver's robust
    /// buffer access (`robustness.rs`).
    pub no_robustness: bool,
    pub stats: bool,
    /// `--fixed`: rows of a tile kernel's grid doing nothing, and only taking tickets.
    pub fixed: bool,
    /// `--cull min|early`: `lookback` culling spheres against planes, in its own
    /// pass (one-pass) and as a culling pass writing flags, then the compaction;
    /// `Some(true)` for the test that leaves at the first rejecting plane.
    pub cull: Option<bool>,
    pub json: bool,
    /// `--source PATH`: tile kernels built from other WGSL, each a variant.
    pub sources: Vec<(String, &'static str)>,
    /// `--payload W,…`: rows of the order-keeping methods that also copy W words
    /// of payload per visible object.
    pub payload: Vec<u32>,
    /// `--segments S,…`: rows of the order-keeping methods with S per-mesh segments.
    pub segments: Vec<u32>,
}

/// The `--source` file a compactor was built from.
pub fn source_name<'a>(
    compactor: &Compactor,
    sources: &'a [(String, &'static str)],
) -> Option<&'a str> {
    let source = compactor.lookback_options().source?;
    sources
        .iter()
        .find(|(_, s)| std::ptr::eq(*s, source))
        .map(|(name, _)| name.as_str())
}

fn list<T: std::str::FromStr>(value: &str, what: &str) -> Result<Vec<T>, String> {
    value
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.trim()
                .parse()
                .map_err(|_| format!("{what}: `{s}` is not valid"))
        })
        .collect()
}

pub fn parse_args() -> Result<Parsed, String> {
    let mut args = Args {
        sizes: vec![100_000, 1 << 24],
        densities: vec![0.5],
        reps: 30,
        warmup: 5,
        methods: Method::ALL.to_vec(),
        portable: false,
        unchecked: false,
        unpaired: false,
        paired_from: None,
        narrow: false,
        no_robustness: false,
        stats: false,
        fixed: false,
        cull: None,
        json: false,
        sources: Vec::new(),
        payload: Vec::new(),
        segments: Vec::new(),
    };
    let mut options = cli::Options::new(cli::args()?.into_iter());
    while let Some((name, inline)) = options.next_option() {
        let mut value = || options.value(&name, inline.clone(), USAGE);
        match name.as_str() {
            "--sizes" => args.sizes = list(&value()?, "--sizes")?,
            "--density" | "--densities" => args.densities = list(&value()?, "--density")?,
            "--reps" => args.reps = whole(&value()?, "--reps", 1, MAX_REPS)?,
            "--warmup" => args.warmup = whole(&value()?, "--warmup", 0, MAX_WARMUP)?,
            "--methods" => {
                args.methods = list::<String>(&value()?, "--methods")?
                    .iter()
                    .map(|m| m.parse::<Method>().map_err(|e| e.to_string()))
                    .collect::<Result<_, _>>()?
            }
            "--portable" => args.portable = true,
            "--unchecked" => args.unchecked = true,
            "--unpaired" => args.unpaired = true,
            "--paired-from" => {
                args.paired_from = Some(
                    value()?
                        .parse()
                        .map_err(|_| "--paired-from: not a number")?,
                )
            }
            "--narrow" => args.narrow = true,
            "--no-robustness" => args.no_robustness = true,
            "--stats" => args.stats = true,
            "--fixed" => args.fixed = true,
            "--cull" => {
                args.cull = Some(match value()?.as_str() {
                    "min" => false,
                    "early" => true,
                    other => {
                        return Err(format!(
                            "--cull: `min` or `early`, not `{}`",
                            cli::escaped(other)
                        ))
                    }
                })
            }
            "--json" => args.json = true,
            "--payload" => {
                args.payload = list::<String>(&value()?, "--payload")?
                    .iter()
                    .map(|w| whole(w, "--payload", 1, MAX_PAYLOAD_WORDS).map(|w| w as u32))
                    .collect::<Result<_, _>>()?
            }
            "--segments" => {
                args.segments = list::<String>(&value()?, "--segments")?
                    .iter()
                    .map(|s| whole(s, "--segments", 1, MAX_SEGMENTS).map(|s| s as u32))
                    .collect::<Result<_, _>>()?
            }
            "--source" => {
                let path = value()?;
                let text = cli::read_source(&path)?;
                let name = std::path::Path::new(&path)
                    .file_stem()
                    .map_or(path.clone(), |s| s.to_string_lossy().into_owned());
                args.sources.push((name, Box::leak(text.into_boxed_str())));
            }
            "-h" | "--help" => return Ok(Parsed::Help),
            other => return Err(format!("unknown argument `{other}`; {USAGE}")),
        }
    }
    if args.sizes.iter().any(|&n| n < 4) {
        return Err("--sizes: each size must be at least 4 (the copy reference moves vec4)".into());
    }
    if args.densities.iter().any(|d| !(0.0..=1.0).contains(d)) {
        return Err("--density must lie in [0, 1]".into());
    }
    Ok(Parsed::Run(args))
}

/// A whole number from `min` to `max`, or a message naming the option and its bounds.
fn whole(value: &str, what: &str, min: usize, max: usize) -> Result<usize, String> {
    match value.trim().parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "{what} must be a whole number from {min} to {max}, not `{value}`"
        )),
    }
}
