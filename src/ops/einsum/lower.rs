//! Lowering a parsed einsum to GPU work.
//!
//! Repeated labels (diagonals) and size-1 broadcasting become strided views; labels that only
//! one operand carries and the result does not need are summed out first (a GEMV against ones);
//! each pairwise step of the plan becomes one strided batched contraction
//! `C[b,m,n] = Σ_k A[b,m,k]·B[b,k,n]` where b, m, n, k are *groups* of labels (batch, left-free,
//! right-free, contracted) addressed by one stride each — so permuted, diagonal and broadcast
//! operands need no copy when their groups collapse, and the result is written straight into
//! the requested label order. An operand whose group does not collapse is packed once.

use super::parse::{Label, Parsed, parse};
use super::path::{EinsumPath, Strategy, plan};
use crate::array::Array;
use crate::device::blocks::collapse;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::ops::join::concatenate;
use crate::ops::matmul::matmul_into;

/// An operand during lowering: no repeated labels; axis `i` carries `labels[i]`.
#[derive(Clone)]
struct Term {
    array: Array,
    labels: Vec<Label>,
}

/// `numpy.einsum(subscripts, *operands)`: NumPy's full grammar (implicit and explicit modes,
/// `...`, repeated labels, size-1 broadcasting), contracted pairwise in an optimised order
/// ([`einsum_path`]) with each step a strided batched contraction on the GPU.
///
/// ```
/// use gpuarray::{einsum, Array, DType};
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = Array::ones(&dev, &[4, 2, 3], DType::F32)?;
/// let b = Array::ones(&dev, &[4, 3, 5], DType::F32)?;
/// let c = einsum("ijk,ikm->ijm", &[&a, &b])?;          // batched matmul
/// assert_eq!((c.shape(), c.to_vec::<f32>()?[0]), (&[4usize, 2, 5][..], 3.0));
/// let t = einsum("ii", &[&Array::eye(&dev, 3, DType::F32)?])?;   // trace
/// assert_eq!(t.to_vec::<f32>()?, vec![3.0]);
/// # Ok(()) }
/// ```
pub fn einsum(subscripts: &str, operands: &[&Array]) -> Result<Array> {
    einsum_with(subscripts, operands, Strategy::Optimal)
}

/// einsum of complex operands (all of one dtype, as every einsum) as real einsums of their
/// parts: the product of k factors is the sum over the 2^k choices of a real or imaginary part
/// from each, times i^(number of imaginary parts) — four real einsums for two operands, as
/// [`Array::matmul`] does.
fn complex_einsum(subscripts: &str, operands: &[&Array], strategy: Strategy) -> Result<Array> {
    let parts: Vec<[Array; 2]> = operands
        .iter()
        .map(|a| Ok([a.real(), a.imag()?]))
        .collect::<Result<_>>()?;
    // Sums of the terms with i^c = 1, i, −1, −i.
    let mut sums: [Option<Array>; 4] = [None, None, None, None];
    for choice in 0..1usize << operands.len() {
        let picked: Vec<&Array> = parts
            .iter()
            .enumerate()
            .map(|(k, p)| &p[(choice >> k) & 1])
            .collect();
        let term = einsum_with(subscripts, &picked, strategy)?;
        let slot = &mut sums[choice.count_ones() as usize % 4];
        *slot = Some(match slot.take() {
            Some(s) => s.add(&term)?,
            None => term,
        });
    }
    let signed = |plus: &Option<Array>, minus: &Option<Array>| -> Result<Array> {
        match (plus, minus) {
            (Some(p), Some(m)) => p.sub(m),
            (Some(p), None) => Ok(p.clone()),
            (None, Some(m)) => m.neg(),
            (None, None) => unreachable!("one operand at least"),
        }
    };
    let re = signed(&sums[0], &sums[2])?;
    let im = match (&sums[1], &sums[3]) {
        (None, None) => Array::zeros(re.device(), re.shape(), re.dtype())?,
        _ => signed(&sums[1], &sums[3])?,
    };
    let joined = concatenate(&[&re.expand_dims(-1)?, &im.expand_dims(-1)?], -1)?;
    Array::from_parts(&joined)
}

/// [`einsum`] with the contraction order chosen by `strategy` (`Naive` runs left to right).
///
/// ```
/// use gpuarray::{einsum_with, Array, DType, EinsumStrategy};
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let v = Array::ones(&dev, &[3], DType::F32)?;
/// let s = einsum_with("i,i,i->", &[&v, &v, &v], EinsumStrategy::Greedy)?;
/// assert_eq!(s.to_vec::<f32>()?, vec![3.0]);
/// # Ok(()) }
/// ```
pub fn einsum_with(subscripts: &str, operands: &[&Array], strategy: Strategy) -> Result<Array> {
    let (parsed, path) = prepare(subscripts, operands, strategy)?;
    if operands.iter().any(|a| a.dtype().is_complex()) {
        return complex_einsum(subscripts, operands, strategy);
    }
    if let Some(wide) = crate::ops::matmul::widened(operands[0]) {
        // 8- and 16-bit integers contract in i32/u32 and narrow back (the same wrapped bits);
        // packed f16 contracts in f32, rounded once.
        let widened: Vec<Array> = operands
            .iter()
            .map(|a| a.astype(wide))
            .collect::<Result<_>>()?;
        let refs: Vec<&Array> = widened.iter().collect();
        return einsum_with(subscripts, &refs, strategy)?.astype(operands[0].dtype());
    }
    let first = operands[0];
    // Under a profile the steps' launches are attributed to this call.
    let _call = first.device().inner.call_scope("einsum");
    let out_shape: Vec<usize> = parsed
        .output
        .iter()
        .map(|&l| parsed.sizes[l as usize])
        .collect();
    // Zero-size labels: an empty result, or an empty sum (zeros).
    if out_shape.contains(&0) {
        return Array::zeros(first.device(), &out_shape, first.dtype());
    }
    if parsed
        .inputs
        .iter()
        .flatten()
        .any(|&l| parsed.sizes[l as usize] == 0)
    {
        return Array::zeros(first.device(), &out_shape, first.dtype());
    }
    let mut terms: Vec<Term> = operands
        .iter()
        .zip(&parsed.inputs)
        .map(|(a, labels)| view_term(a, labels, &parsed))
        .collect::<Result<_>>()?;
    for (step, &(i, j)) in path.steps.iter().enumerate() {
        let (i, j) = (i.min(j), i.max(j));
        let b = terms.remove(j);
        let a = terms.remove(i);
        let last = step + 1 == path.steps.len();
        // Labels still needed: the output's and those of the operands not yet contracted.
        let keep: Vec<Label> = parsed
            .output
            .iter()
            .chain(terms.iter().flat_map(|t| &t.labels))
            .copied()
            .collect();
        let order = if last {
            Some(parsed.output.as_slice())
        } else {
            None
        };
        terms.push(contract(a, b, &keep, order)?);
    }
    let t = terms.pop().expect("a plan leaves one operand");
    // A single operand (or leftovers): sum what the output lacks, then order the axes.
    let drop: Vec<Label> = t
        .labels
        .iter()
        .copied()
        .filter(|l| !parsed.output.contains(l))
        .collect();
    let t = sum_out(t, &drop)?;
    let perm: Vec<usize> = parsed
        .output
        .iter()
        .map(|l| {
            t.labels
                .iter()
                .position(|x| x == l)
                .expect("output labels survive")
        })
        .collect();
    t.array.transpose(&perm)
}

/// `numpy.einsum_path`: the contraction order [`einsum`] uses and its report (naive vs
/// optimised FLOP counts, largest intermediate); `Display` prints it like NumPy.
///
/// ```
/// use gpuarray::{einsum_path, Array, DType};
/// # fn main() -> gpuarray::Result<()> {
/// # let dev = gpuarray::Device::new()?;
/// let a = Array::ones(&dev, &[10, 20], DType::F32)?;
/// let b = Array::ones(&dev, &[20, 30], DType::F32)?;
/// let c = Array::ones(&dev, &[30, 5], DType::F32)?;
/// let plan = einsum_path("ij,jk,kl->il", &[&a, &b, &c])?;
/// println!("{plan}");
/// assert_eq!(plan.steps, vec![(1, 2), (0, 1)]);
/// # Ok(()) }
/// ```
pub fn einsum_path(subscripts: &str, operands: &[&Array]) -> Result<EinsumPath> {
    Ok(prepare(subscripts, operands, Strategy::Optimal)?.1)
}

fn prepare(
    subscripts: &str,
    operands: &[&Array],
    strategy: Strategy,
) -> Result<(Parsed, EinsumPath)> {
    let Some(first) = operands.first() else {
        return Err(Error::Einsum {
            msg: "must specify the einstein sum subscripts string and at least one operand".into(),
            pos: None,
        });
    };
    for op in &operands[1..] {
        first.same_device("einsum", op)?;
        if op.dtype() != first.dtype() {
            return Err(Error::DTypeMismatch {
                op: "einsum",
                expected: first.dtype(),
                got: op.dtype(),
            });
        }
    }
    first.device().inner.check_alive("einsum")?;
    let shapes: Vec<&[usize]> = operands.iter().map(|a| a.shape()).collect();
    let parsed = parse(subscripts, &shapes)?;
    let path = plan(&parsed, strategy, None);
    Ok((parsed, path))
}

/// The operand as a view with one axis per distinct label: repeated labels become the diagonal
/// (strides add up), size-1 axes of broadcast labels get stride 0 and the label's full size.
fn view_term(a: &Array, labels: &[Label], parsed: &Parsed) -> Result<Term> {
    let mut uniq: Vec<Label> = Vec::new();
    let mut strides: Vec<isize> = Vec::new();
    for (axis, &l) in labels.iter().enumerate() {
        let s = a.strides()[axis];
        match uniq.iter().position(|&u| u == l) {
            Some(p) => strides[p] += s,
            None => {
                uniq.push(l);
                strides.push(s);
            }
        }
    }
    let shape: Vec<usize> = uniq.iter().map(|&l| parsed.sizes[l as usize]).collect();
    for (i, &l) in uniq.iter().enumerate() {
        let axis = labels
            .iter()
            .position(|&x| x == l)
            .expect("label of this operand");
        if a.shape()[axis] != shape[i] {
            strides[i] = 0; // size 1 broadcast to the label's size
        }
    }
    Ok(Term {
        array: a.with_layout(Layout {
            shape,
            strides,
            offset: a.layout.offset,
        }),
        labels: uniq,
    })
}

/// Sums `labels` out of `t`: a GEMV of the (kept, summed) matrix against ones.
fn sum_out(t: Term, labels: &[Label]) -> Result<Term> {
    if labels.is_empty() {
        return Ok(t);
    }
    let kept: Vec<Label> = t
        .labels
        .iter()
        .copied()
        .filter(|l| !labels.contains(l))
        .collect();
    let pos = |l: &Label| {
        t.labels
            .iter()
            .position(|x| x == l)
            .expect("label of this term")
    };
    let perm: Vec<usize> = kept.iter().chain(labels).map(pos).collect();
    let f: usize = kept.iter().map(|l| t.array.shape()[pos(l)]).product();
    let s: usize = labels.iter().map(|l| t.array.shape()[pos(l)]).product();
    let m = t
        .array
        .transpose(&perm)?
        .reshape(&[f as isize, s as isize])?;
    let ones = Array::ones(t.array.device(), &[s], t.array.dtype())?;
    let kept_shape: Vec<isize> = kept
        .iter()
        .map(|l| t.array.shape()[pos(l)] as isize)
        .collect();
    let summed = m.matmul(&ones)?.reshape(&kept_shape)?;
    Ok(Term {
        array: summed,
        labels: kept,
    })
}

/// One group of labels of one operand collapsed to (size, stride), or `None` when the group's
/// strides do not merge into one.
fn group(t: &Term, labels: &[Label]) -> Option<(u64, i64)> {
    let shape: Vec<u64> = labels
        .iter()
        .map(|l| t.array.shape()[t.labels.iter().position(|x| x == l).unwrap()] as u64)
        .collect();
    let strides: Vec<i64> = labels
        .iter()
        .map(|l| t.array.strides()[t.labels.iter().position(|x| x == l).unwrap()] as i64)
        .collect();
    let size: u64 = shape.iter().product();
    let (s, st) = collapse(&shape, &[strides]);
    match s.len() {
        0 => Some((size, 0)),
        1 => Some((size, st[0][0])),
        _ => None,
    }
}

/// The operand as a 3-d view over three label groups, packing it (once) into the groups' order
/// when its strides do not allow the view.
fn grouped(t: &Term, groups: [&[Label]; 3]) -> Result<Array> {
    let try_view = |t: &Term| -> Option<Array> {
        let g: Vec<(u64, i64)> = groups.iter().map(|g| group(t, g)).collect::<Option<_>>()?;
        let layout = Layout {
            shape: g.iter().map(|x| x.0 as usize).collect(),
            strides: g.iter().map(|x| x.1 as isize).collect(),
            offset: t.array.layout.offset,
        };
        Some(t.array.with_layout(layout))
    };
    if let Some(v) = try_view(t) {
        return Ok(v);
    }
    let order: Vec<Label> = groups.iter().flat_map(|g| g.iter().copied()).collect();
    let perm: Vec<usize> = order
        .iter()
        .map(|l| t.labels.iter().position(|x| x == l).unwrap())
        .collect();
    let packed = Term {
        array: t.array.transpose(&perm)?.contiguous()?,
        labels: order,
    };
    Ok(try_view(&packed).expect("a contiguous array in group order collapses"))
}

/// One pairwise step: `a` and `b` contracted over their shared labels that `keep` lacks.
fn contract(a: Term, b: Term, keep: &[Label], order: Option<&[Label]>) -> Result<Term> {
    let kept = |l: &Label| keep.contains(l);
    // Labels only one operand has and nobody needs are summed before the step.
    let a_drop: Vec<Label> = a
        .labels
        .iter()
        .copied()
        .filter(|l| !kept(l) && !b.labels.contains(l))
        .collect();
    let b_drop: Vec<Label> = b
        .labels
        .iter()
        .copied()
        .filter(|l| !kept(l) && !a.labels.contains(l))
        .collect();
    let a = sum_out(a, &a_drop)?;
    let b = sum_out(b, &b_drop)?;
    let batch: Vec<Label> = a
        .labels
        .iter()
        .copied()
        .filter(|l| b.labels.contains(l) && kept(l))
        .collect();
    let m: Vec<Label> = a
        .labels
        .iter()
        .copied()
        .filter(|l| !b.labels.contains(l))
        .collect();
    let n: Vec<Label> = b
        .labels
        .iter()
        .copied()
        .filter(|l| !a.labels.contains(l))
        .collect();
    let k: Vec<Label> = a
        .labels
        .iter()
        .copied()
        .filter(|l| b.labels.contains(l) && !kept(l))
        .collect();
    let size = |l: &Label| {
        let t = if a.labels.contains(l) { &a } else { &b };
        t.array.shape()[t.labels.iter().position(|x| x == l).unwrap()]
    };
    // The result's axis order: the requested one when its groups collapse, else (b, m, n).
    let natural: Vec<Label> = batch.iter().chain(&m).chain(&n).copied().collect();
    let wanted =
        order.filter(|o| o.len() == natural.len() && o.iter().all(|l| natural.contains(l)));
    let dtype: DType = a.array.dtype();
    let make = |labels: &[Label]| -> Result<Term> {
        let shape: Vec<usize> = labels.iter().map(size).collect();
        Ok(Term {
            array: Array::empty("einsum", a.array.device(), &shape, dtype)?,
            labels: labels.to_vec(),
        })
    };
    let c = match wanted {
        Some(o) => {
            let c = make(o)?;
            // Order the m and n groups as they appear in C so C's groups collapse.
            if [&batch, &m, &n].iter().all(|g| group(&c, g).is_some()) {
                c
            } else {
                make(&natural)?
            }
        }
        None => make(&natural)?,
    };
    let by_c = |g: &[Label]| -> Vec<Label> {
        c.labels.iter().copied().filter(|l| g.contains(l)).collect()
    };
    let (batch, m, n) = (by_c(&batch), by_c(&m), by_c(&n));
    let a3 = grouped(&a, [&batch, &m, &k])?;
    let b3 = grouped(&b, [&batch, &k, &n])?;
    let c3 = grouped(&c, [&batch, &m, &n])?;
    matmul_into(&a3, &b3, &c3)?;
    Ok(c)
}
