//! The rows of a benchmark and how they are printed.

use std::io::Write;

use compaction_playground::cli::json_string;

pub fn median(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    let min = v.first().copied().unwrap_or(f64::NAN);
    (v.get(v.len() / 2).copied().unwrap_or(f64::NAN), min)
}

pub struct Row {
    pub n: usize,
    pub k: usize,
    pub density: f64,
    pub method: String,
    pub input: &'static str,
    pub variant: String,
    pub timer: &'static str,
    pub median_us: f64,
    pub min_us: f64,
    pub bytes: f64,
    pub x_copy: f64,
    pub check: String,
}

impl Row {
    fn gbps(&self) -> f64 {
        self.bytes / (self.median_us * 1e3)
    }
}

pub fn print_header(out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>10} {:>10} {:>7} {:>14} {:>9} {:>9} {:>5} {:>10} {:>10} {:>8} {:>7}  check",
        "N",
        "K",
        "density",
        "method",
        "input",
        "variant",
        "timer",
        "median_us",
        "min_us",
        "GB/s",
        "x_copy"
    )
}

pub fn print_table(out: &mut impl Write, rows: &[Row]) -> std::io::Result<()> {
    for r in rows {
        writeln!(
            out,
            "{:>10} {:>10} {:>7} {:>14} {:>9} {:>9} {:>5} {:>10.1} {:>10.1} {:>8.1} {:>7.2}  {}",
            r.n,
            r.k,
            r.density,
            r.method,
            r.input,
            r.variant,
            r.timer,
            r.median_us,
            r.min_us,
            r.gbps(),
            r.x_copy,
            r.check
        )?;
    }
    Ok(())
}

pub fn print_json(out: &mut impl Write, rows: &[Row]) -> std::io::Result<()> {
    for r in rows {
        writeln!(
            out,
            "{{\"n\":{},\"k\":{},\"density\":{},\"method\":{},\"input\":{},\"variant\":{},\"timer\":{},\"median_us\":{:.3},\"min_us\":{:.3},\"gbps\":{:.2},\"x_copy\":{:.4},\"check\":{}}}",
            r.n,
            r.k,
            r.density,
            json_string(&r.method),
            json_string(r.input),
            json_string(&r.variant),
            json_string(r.timer),
            r.median_us,
            r.min_us,
            r.gbps(),
            r.x_copy,
            json_string(&r.check)
        )?;
    }
    Ok(())
}
