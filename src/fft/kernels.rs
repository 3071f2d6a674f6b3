//! The FFT's kernel families (`shaders/fft.wgsl`), declared for the device, and the launches of
//! one plan over a batch of contiguous transforms.

use super::local;
use super::plan::{How, Plan, Scale};
use crate::array::Array;
use crate::device::params::Params;
use crate::device::{Binding, KernelDef, PipelineKey, Variant, Work};
use crate::dtype::DType;
use crate::error::{Error, Result};

/// Invocations per workgroup.
const WG: u32 = 64;

/// f32, and f64 where the adapter has it natively (an emulating device's f64 is refused at the
/// launch: these kernels have no software path).
pub(crate) fn variants(dtypes: &[DType]) -> Vec<Variant> {
    dtypes
        .iter()
        .copied()
        .filter(|&d| d == DType::F32 || d == DType::F64)
        .map(Variant::one)
        .collect()
}

/// What every FFT shader starts with: the part type `T` of variant `v` and the shared complex
/// arithmetic (`shaders/fft_common.wgsl`), then `body`.
pub(crate) fn with_prelude(v: Variant, body: &str) -> String {
    let alias = if v.a == DType::F64 {
        "alias T = f64;\n"
    } else {
        "alias T = f32;\n"
    };
    format!(
        "{alias}{}{body}",
        include_str!("../../shaders/fft_common.wgsl")
    )
}

fn source(v: Variant) -> String {
    with_prelude(v, include_str!("../../shaders/fft.wgsl"))
}

const fn family(name: &'static str, entry: &'static str) -> KernelDef {
    KernelDef::on_first_use(name, entry, &[("R", 2), ("WG", WG)], variants, source)
}

/// One radix-R pass of the Stockham FFT.
pub(crate) static FFT_STOCKHAM: KernelDef = family("fft_stockham", "stockham");
/// Bluestein: the input times the chirp, zero-padded.
pub(crate) static FFT_CHIRP_PRE: KernelDef = family("fft_chirp_pre", "chirp_pre");
/// Bluestein: the spectrum times the chirp's.
pub(crate) static FFT_CHIRP_MUL: KernelDef = family("fft_chirp_mul", "chirp_mul");
/// Bluestein: the chirp and the scale applied, cropped to n.
pub(crate) static FFT_CHIRP_POST: KernelDef = family("fft_chirp_post", "chirp_post");
/// rfft: the spectrum of n real points from the FFT of their n/2 pairs.
pub(crate) static FFT_REAL_POST: KernelDef = family("fft_real_post", "real_post");
/// irfft: the half-length spectrum whose inverse FFT holds the signal's sample pairs.
pub(crate) static FFT_REAL_PRE: KernelDef = family("fft_real_pre", "real_pre");
/// Four-step: the twiddles between the column and the row transforms.
pub(crate) static FFT_TWIDDLE_ROWS: KernelDef = family("fft_twiddle_rows", "twiddle_rows");

/// What one launch covers.
struct Launch<'a> {
    key: PipelineKey,
    x: &'a Array,
    x_per: u64,
    y: &'a Array,
    y_per: u64,
    table: &'a Array,
    batch: u64,
    /// Invocations per transform.
    threads: u64,
    flops: u64,
    /// n, ns, inverse, scale_at, m (the rest of the parameters are the launch's own).
    fields: [u32; 5],
    /// `ns` is the first item of each launch (the four-step twiddles' row offset).
    first_item_in_ns: bool,
}

fn run(op: &'static str, l: &Launch) -> Result<()> {
    let dev = &l.x.device().inner;
    let eb = l.x.dtype().size_bytes();
    let groups = l.threads.div_ceil(WG as u64).max(1);
    let fits = crate::ops::window_elements(dev, eb) / l.x_per.max(l.y_per).max(1);
    if fits == 0 {
        return Err(Error::TooLarge {
            op,
            requested: l.x_per.max(l.y_per) * eb,
            max: dev.max_window(),
            what: "bytes of one transform (one storage binding; longer transforms are not \
                   supported yet)",
        });
    }
    let max_dim = dev.limits.max_compute_workgroups_per_dimension as u64;
    let per_launch = fits
        .min(max_dim * max_dim / groups)
        .min(u32::MAX as u64 / groups);
    let (tw, tw_base) = crate::ops::contiguous_window(op, l.table, 0, l.table.len() as u64, eb)?;
    let mut start = 0;
    while start < l.batch {
        let len = per_launch.min(l.batch - start);
        let (xw, xb) = crate::ops::contiguous_window(op, l.x, start * l.x_per, len * l.x_per, eb)?;
        let (yw, yb) = crate::ops::contiguous_window(op, l.y, start * l.y_per, len * l.y_per, eb)?;
        let [n, ns, inverse, scale_at, m] = l.fields;
        let ns = if l.first_item_in_ns { start as u32 } else { ns };
        let params = Params::default()
            .u32(n)
            .u32(ns)
            .u32(len as u32)
            .u32(groups as u32)
            .u32(xb)
            .u32(yb)
            .u32(tw_base)
            .u32(inverse)
            .u32(scale_at)
            .u32(m)
            .bytes()
            .to_vec();
        let bindings: [Binding; 3] = [xw, yw, tw];
        let x = (len * groups).min(max_dim);
        let y = (len * groups).div_ceil(x);
        dev.guarded(op, || {
            dev.dispatch_grid(
                &l.key,
                &params,
                &bindings,
                (x as u32, y as u32, 1),
                Work::computes(format!("transforms={len}"), l.flops * len),
            )
        })?;
        start += len;
    }
    Ok(())
}

fn key(family: &'static KernelDef, real: DType, radix: usize) -> PipelineKey {
    PipelineKey::new(family, Variant::one(real))
        .with("R", radix as u32)
        .with("WG", WG)
}

/// The transforms of `x` ((batch, n), contiguous, complex of the plan's precision) by `plan`,
/// forward or inverse (unscaled), times `scale`: a new (batch, n) array.
pub(crate) fn transform(plan: &Plan, x: &Array, inverse: bool, scale: Scale) -> Result<Array> {
    const OP: &str = "fft";
    let (batch, n) = (x.shape()[0], plan.n);
    debug_assert_eq!(x.shape(), &[batch, n]);
    let dev = x.device();
    let inv = u32::from(inverse);
    match &plan.how {
        How::FourStep {
            n1,
            n2,
            cols,
            rows,
            table,
        } => four_step(x, plan, (*n1, *n2), (cols, rows), table, inverse, scale),
        How::Stockham { radices, table } => {
            if radices.is_empty() || batch == 0 {
                // n = 1: every scale is 1.
                return x.astype(x.dtype());
            }
            if n <= local::local_max(&dev.inner, plan.real) {
                let at = (n + scale.at()) as u64;
                let shape = (batch as u64, n, 1);
                return local::transform(OP, plan.real, table, x, shape, inverse, at);
            }
            let mut cur = x.clone();
            let mut ns = 1;
            for (i, &r) in radices.iter().enumerate() {
                let out = Array::empty(OP, dev, &[batch, n], x.dtype())?;
                let last = i + 1 == radices.len();
                let at = n + if last { scale.at() } else { 0 };
                run(
                    OP,
                    &Launch {
                        key: key(&FFT_STOCKHAM, plan.real, r),
                        x: &cur,
                        x_per: n as u64,
                        y: &out,
                        y_per: n as u64,
                        table,
                        batch: batch as u64,
                        threads: (n / r) as u64,
                        flops: (n * (8 * r + 6)) as u64,
                        fields: [n as u32, ns as u32, inv, at as u32, 0],
                        first_item_in_ns: false,
                    },
                )?;
                ns *= r;
                cur = out;
            }
            Ok(cur)
        }
        How::RealPost { .. } => Err(Error::invalid(OP, "an rfft table is not a transform")),
        How::Bluestein {
            m,
            chirp,
            b_hat,
            inner,
        } => {
            let m = *m;
            let real = plan.real;
            let padded = Array::empty(OP, dev, &[batch, m], x.dtype())?;
            let fields = |at: usize| [n as u32, 0, inv, at as u32, m as u32];
            run(
                OP,
                &Launch {
                    key: key(&FFT_CHIRP_PRE, real, 2),
                    x,
                    x_per: n as u64,
                    y: &padded,
                    y_per: m as u64,
                    table: chirp,
                    batch: batch as u64,
                    threads: m as u64,
                    flops: 6 * n as u64,
                    fields: fields(0),
                    first_item_in_ns: false,
                },
            )?;
            let spectrum = transform(inner, &padded, false, Scale::One)?;
            let product = Array::empty(OP, dev, &[batch, m], x.dtype())?;
            run(
                OP,
                &Launch {
                    key: key(&FFT_CHIRP_MUL, real, 2),
                    x: &spectrum,
                    x_per: m as u64,
                    y: &product,
                    y_per: m as u64,
                    table: b_hat,
                    batch: batch as u64,
                    threads: m as u64,
                    flops: 6 * m as u64,
                    fields: fields(0),
                    first_item_in_ns: false,
                },
            )?;
            let back = transform(inner, &product, true, Scale::One)?;
            let out = Array::empty(OP, dev, &[batch, n], x.dtype())?;
            run(
                OP,
                &Launch {
                    key: key(&FFT_CHIRP_POST, real, 2),
                    x: &back,
                    x_per: m as u64,
                    y: &out,
                    y_per: n as u64,
                    table: chirp,
                    batch: batch as u64,
                    threads: n as u64,
                    flops: 8 * n as u64,
                    fields: fields(n + scale.at()),
                    first_item_in_ns: false,
                },
            )?;
            Ok(out)
        }
    }
}

/// rfft of each row of the real `x` ((batch, n), n even, contiguous, of the plan's part
/// dtype): the FFT of the n/2 (even, odd) pairs read as complex numbers (no copy), then
/// `post`'s step to the n/2 + 1 non-negative frequencies, times `scale`: half the work of a
/// complex transform of length n.
pub(crate) fn real_transform(half: &Plan, post: &Plan, x: &Array, scale: Scale) -> Result<Array> {
    const OP: &str = "rfft";
    let (batch, n) = (x.shape()[0], post.n);
    let m = n / 2;
    debug_assert_eq!((half.n, x.shape()), (m, &[batch, n][..]));
    let How::RealPost { table } = &post.how else {
        return Err(Error::invalid(OP, "not an rfft table"));
    };
    let pairs = Array::from_parts(&x.reshape(&[batch as isize, m as isize, 2])?)?;
    let spectrum = transform(half, &pairs, false, Scale::One)?;
    let out = Array::empty(OP, x.device(), &[batch, m + 1], spectrum.dtype())?;
    if batch == 0 {
        return Ok(out);
    }
    run(
        OP,
        &Launch {
            key: key(&FFT_REAL_POST, post.real, 2),
            x: &spectrum,
            x_per: m as u64,
            y: &out,
            y_per: (m + 1) as u64,
            table,
            batch: batch as u64,
            threads: (m + 1) as u64,
            flops: 14 * (m + 1) as u64,
            fields: [m as u32, 0, 0, (m + 1 + scale.at()) as u32, 0],
            first_item_in_ns: false,
        },
    )?;
    Ok(out)
}

/// irfft of each row of `x` ((batch, n/2 + 1) non-negative frequencies, contiguous, complex
/// of the plan's precision) to n real points, n even: `post`'s step back to a half-length
/// spectrum, its inverse FFT, and the result's (real, imaginary) pairs read as the samples (no
/// copy); times `scale` (the norm's factor for length n). A new (batch, n) real array.
pub(crate) fn real_inverse(half: &Plan, post: &Plan, x: &Array, scale: Scale) -> Result<Array> {
    const OP: &str = "irfft";
    let (batch, n) = (x.shape()[0], post.n);
    let m = n / 2;
    debug_assert_eq!((half.n, x.shape()), (m, &[batch, m + 1][..]));
    let How::RealPost { table } = &post.how else {
        return Err(Error::invalid(OP, "not an rfft table"));
    };
    let spectrum = Array::empty(OP, x.device(), &[batch, m], x.dtype())?;
    if batch > 0 {
        run(
            OP,
            &Launch {
                key: key(&FFT_REAL_PRE, post.real, 2),
                x,
                x_per: (m + 1) as u64,
                y: &spectrum,
                y_per: m as u64,
                table,
                batch: batch as u64,
                threads: m as u64,
                flops: 14 * m as u64,
                fields: [m as u32, 0, 1, (m + 1 + scale.at()) as u32, 0],
                first_item_in_ns: false,
            },
        )?;
    }
    let pairs = transform(half, &spectrum, true, Scale::One)?;
    pairs.parts().reshape(&[batch as isize, n as isize])
}

/// The transforms of `x` along its axis `ax` (not the last), read and written where they lie,
/// without moving the axis last: `Some` (a new array of `x`'s shape) when `plan`'s length fits
/// one workgroup and a row of `x` (the axis and those after it) one binding, else `None`.
pub(crate) fn transform_axis(
    plan: &Plan,
    x: &Array,
    ax: usize,
    inverse: bool,
    scale: Scale,
) -> Result<Option<Array>> {
    const OP: &str = "fft";
    let n = plan.n;
    let dev = x.device();
    let How::Stockham { radices, table } = &plan.how else {
        return Ok(None);
    };
    let inner = x.shape()[ax + 1..].iter().product::<usize>() as u64;
    let outer = x.shape()[..ax].iter().product::<usize>() as u64;
    if radices.is_empty()
        || x.is_empty()
        || n > local::local_max(&dev.inner, plan.real)
        || local::rows_per_launch(&dev.inner, plan.real, n, inner) == 0
    {
        return Ok(None);
    }
    let at = (n + scale.at()) as u64;
    let x = x.contiguous()?;
    local::transform(OP, plan.real, table, &x, (outer, n, inner), inverse, at).map(Some)
}

/// The four-step FFT of each row of `x` (batch, n), n = n1·n2 past one binding: the length-n1
/// transforms of the columns of each row viewed as (n1, n2) (transposed to rows first), the
/// twiddles e^(∓2πi·b·k/n), the length-n2 transforms, and the transpose that leaves the
/// result in natural order (X[k1 + n1·k2]). Every piece fits a binding; copies and launches
/// go window by window.
fn four_step(
    x: &Array,
    plan: &Plan,
    (n1, n2): (usize, usize),
    (cols, rows): (&Plan, &Plan),
    table: &Array,
    inverse: bool,
    scale: Scale,
) -> Result<Array> {
    const OP: &str = "fft";
    let n = plan.n;
    let batch = x.shape()[0];
    let mut outs = Vec::with_capacity(batch);
    for b in 0..batch {
        let row = x
            .slice(&[crate::layout::SliceArg::Index(b as isize)])?
            .reshape(&[n1 as isize, n2 as isize])?;
        // Columns: (n2, n1), each a length-n1 transform.
        let t = row.t().contiguous()?;
        let y1 = transform(cols, &t, inverse, Scale::One)?;
        let tw = Array::empty(OP, x.device(), &[n2, n1], x.dtype())?;
        let l = table_split(n);
        run(
            OP,
            &Launch {
                key: key(&FFT_TWIDDLE_ROWS, plan.real, 2),
                x: &y1,
                x_per: n1 as u64,
                y: &tw,
                y_per: n1 as u64,
                table,
                batch: n2 as u64,
                threads: n1 as u64,
                flops: 12 * n1 as u64,
                fields: [n1 as u32, 0, u32::from(inverse), l as u32, n2 as u32],
                first_item_in_ns: true,
            },
        )?;
        // Rows: (n1, n2), each a length-n2 transform; then back to natural order.
        let t2 = tw.t().contiguous()?;
        let z = transform(rows, &t2, inverse, Scale::One)?;
        outs.push(z.t().contiguous()?.reshape(&[1, n as isize])?);
    }
    let out = if batch == 1 {
        outs.pop().expect("one row")
    } else {
        let refs: Vec<&Array> = outs.iter().collect();
        crate::ops::join::concatenate(&refs, 0)?
    };
    let f = match scale {
        Scale::One => return Ok(out),
        Scale::Inverse => 1.0 / n as f64,
        Scale::Ortho => 1.0 / (n as f64).sqrt(),
    };
    out.mul(f)
}

/// L, the length of the four-step twiddle table's low part (⌈√n⌉; the high part has ⌈n/L⌉).
pub(crate) fn table_split(n: usize) -> usize {
    (n as f64).sqrt().ceil() as usize
}
