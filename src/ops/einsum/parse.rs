//! The einsum subscripts parser: NumPy's grammar and semantics (the C parser that
//! `numpy.einsum(optimize=False)`, NumPy's default, runs), and every rejection it makes.
//!
//! The checks run in NumPy's order — operand count, ASCII, each term in turn (its operand-count
//! check, then its characters), the `->`, the output, diagonals, then cross-operand sizes — so the
//! error reported for an input with several faults is the one NumPy reports. Each error names the
//! character position it applies to. See `notes/einsum.md` §1-3 for the sources.
//!
//! Length: about half of this file is its unit tests (every rejection NumPy makes, one case
//! each); the parser itself is one pass over the grammar and stays in one place.

use crate::error::{Error, Result};

/// A label: 0..52 for 'A'..'Z','a'..'z' (ASCII order, so uppercase sorts first); 52.. for
/// ellipsis (broadcast) dims, numbered from the left of the broadcast shape.
pub(crate) type Label = u16;

/// The number of letter labels; broadcast labels start here.
pub(crate) const LETTERS: usize = 52;
/// NumPy's `NPY_MAXARGS` is 64 and the output takes one slot, so einsum takes at most 63 operands.
pub(crate) const MAX_OPERANDS: usize = 63;
/// NumPy's `NPY_MAXDIMS`: the most dimensions an array, an einsum output or its iteration has.
pub(crate) const MAX_DIMS: usize = 64;

/// A parsed einsum expression, with every label's size resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Parsed {
    /// Per operand, the label of each axis, in axis order (ellipsis expanded; repeated labels
    /// kept: "ii" -> [i, i]).
    pub inputs: Vec<Vec<Label>>,
    /// The output's labels in order (implicit mode: broadcast dims first, then labels that appear
    /// exactly once overall, in ASCII order).
    pub output: Vec<Label>,
    /// Size of every label after size-1 broadcasting across operands (indexable by Label; unused
    /// entries 0). Repeated labels within one operand must match exactly.
    pub sizes: Vec<usize>,
    /// How many broadcast (ellipsis) dims there are: labels `LETTERS..LETTERS + ndim_broadcast`.
    pub ndim_broadcast: usize,
}

impl Parsed {
    /// `'a'`, `'B'`, or `"...0"` (the leftmost broadcast dim) for broadcast labels.
    pub fn label_name(l: Label) -> String {
        match letter_char(l) {
            Some(c) => c.to_string(),
            None => format!("...{}", l as usize - LETTERS),
        }
    }
}

/// The letter of a letter label, `None` for a broadcast label.
pub(crate) fn letter_char(l: Label) -> Option<char> {
    match l {
        0..=25 => Some((b'A' + l as u8) as char),
        26..=51 => Some((b'a' + (l - 26) as u8) as char),
        _ => None,
    }
}

/// The label of an ASCII letter (what C's `isalpha` accepts in the "C" locale).
fn letter_label(b: u8) -> Option<Label> {
    match b {
        b'A'..=b'Z' => Some((b - b'A') as Label),
        b'a'..=b'z' => Some((b - b'a') as Label + 26),
        _ => None,
    }
}

fn err(msg: impl Into<String>, pos: Option<usize>) -> Error {
    Error::Einsum {
        msg: msg.into(),
        pos,
    }
}

/// How NumPy prints an offending character: as is, escaped when it would not show.
fn shown(b: u8) -> String {
    (b as char).escape_default().to_string()
}

fn invalid_subscript(b: u8, pos: usize) -> Error {
    err(
        format!(
            "invalid subscript '{}' in einstein sum subscripts string, subscripts must be letters",
            shown(b)
        ),
        Some(pos),
    )
}

/// One operand's term as written: its letters (with their positions) and where its `...` is.
struct Term {
    letters: Vec<(Label, usize)>,
    /// `(index into letters where the ellipsis sits, character position)`.
    ellipsis: Option<(usize, usize)>,
}

/// One axis of an operand after ellipsis expansion.
#[derive(Clone, Copy)]
struct Axis {
    label: Label,
    /// Where in the subscripts the axis is named (the `...` for broadcast dims).
    pos: usize,
}

/// Parses `subscripts` for operands of the given shapes with NumPy's default-einsum
/// (optimize=False, the C parser) rules and error conditions.
pub(crate) fn parse(subscripts: &str, shapes: &[&[usize]]) -> Result<Parsed> {
    // An array with more than NPY_MAXDIMS dimensions cannot exist in NumPy; it fails before
    // einsum is even called.
    if let Some((i, s)) = shapes.iter().enumerate().find(|(_, s)| s.len() > MAX_DIMS) {
        return Err(err(
            format!(
                "operand {i} has {} dimensions; NumPy arrays have at most {MAX_DIMS}",
                s.len()
            ),
            None,
        ));
    }
    let nop = shapes.len();
    if nop == 0 {
        return Err(err(
            "must specify the einstein sum subscripts string and at least one operand",
            None,
        ));
    }
    if nop > MAX_OPERANDS {
        return Err(err(
            format!("too many operands ({nop} given, einsum takes at most {MAX_OPERANDS})"),
            None,
        ));
    }
    // NumPy encodes the string as ASCII before parsing anything (a UnicodeEncodeError otherwise).
    if let Some((i, c)) = subscripts.chars().enumerate().find(|(_, c)| !c.is_ascii()) {
        return Err(err(
            format!(
                "invalid subscript '{}' in einstein sum subscripts string, subscripts must be \
                 ASCII letters (NumPy: 'ascii' codec can't encode character)",
                c.escape_debug()
            ),
            Some(i),
        ));
    }
    // Past this point the string is ASCII, so byte positions are character positions.
    let bytes = subscripts.as_bytes();
    // NumPy's C parser stops at a NUL (C strings) and ignores the rest; we refuse it instead of
    // silently dropping part of the expression.
    if let Some(i) = bytes.iter().position(|&b| b == 0) {
        return Err(invalid_subscript(0, i));
    }

    // ---- the input terms, split on ',' and '-' like the C parser (strcspn(s, ",-")) ----------
    let mut counts = [0u32; LETTERS];
    let mut terms = Vec::with_capacity(nop);
    let mut cursor = 0;
    for (iop, shape) in shapes.iter().enumerate() {
        let start = cursor;
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b',' || b == b'-')
            .map_or(bytes.len(), |k| start + k);
        let terminator = bytes.get(end).copied();
        let last = iop + 1 == nop;
        // NumPy words these two the other way round ("more operands provided to einstein sum
        // function than specified in the subscripts string" when the string has more terms); ours
        // say which side has more.
        if last && terminator == Some(b',') {
            return Err(err(
                format!(
                    "more operands specified in the subscripts string than the {nop} provided \
                     to einstein sum"
                ),
                Some(end),
            ));
        }
        if !last && terminator != Some(b',') {
            return Err(err(
                format!(
                    "fewer operands specified in the subscripts string ({}) than the {nop} \
                     provided to einstein sum",
                    iop + 1
                ),
                Some(end),
            ));
        }
        terms.push(parse_term(
            bytes,
            start,
            end,
            shape.len(),
            iop,
            &mut counts,
        )?);
        cursor = if last { end } else { end + 1 };
    }

    // The broadcast rank is the most ellipsis dims any operand has.
    let ellipsis_dims =
        |t: &Term, shape: &[usize]| t.ellipsis.map_or(0, |_| shape.len() - t.letters.len());
    let nb = terms
        .iter()
        .zip(shapes)
        .map(|(t, s)| ellipsis_dims(t, s))
        .max()
        .unwrap_or(0);
    let broadcast = (0..nb).map(|k| (LETTERS + k) as Label);

    // ---- the output -----------------------------------------------------------------------------
    let output: Vec<Label> = if cursor == bytes.len() {
        // Implicit: broadcast dims first, then the labels used exactly once, in ASCII order.
        let mut out: Vec<Label> = broadcast.collect();
        for (l, &count) in counts.iter().enumerate() {
            if count == 1 {
                if out.len() >= MAX_DIMS {
                    return Err(err(
                        "einstein sum subscript string has too many distinct labels",
                        None,
                    ));
                }
                out.push(l as Label);
            }
        }
        out
    } else {
        if !bytes[cursor..].starts_with(b"->") {
            return Err(err(
                "einstein sum subscript string does not contain proper '->' output specified",
                Some(cursor),
            ));
        }
        // A second arrow would otherwise be read as output characters and blamed on whatever
        // they repeat ("i->i->i": a repeated 'i'); name the real problem.
        if let Some(at) = bytes[cursor + 2..].windows(2).position(|w| w == b"->") {
            return Err(err(
                "einstein sum subscript string contains more than one '->'",
                Some(cursor + 2 + at),
            ));
        }
        parse_output(bytes, cursor + 2, nb, &counts)?
    };

    // ---- expand each operand's ellipsis into broadcast labels, right-aligned ------------------
    let axes: Vec<Vec<Axis>> = terms
        .iter()
        .zip(shapes)
        .map(|(t, s)| {
            let mut v: Vec<Axis> = t
                .letters
                .iter()
                .map(|&(label, pos)| Axis { label, pos })
                .collect();
            if let Some((at, pos)) = t.ellipsis {
                let k = ellipsis_dims(t, s);
                let labels = (nb - k..nb).map(|j| Axis {
                    label: (LETTERS + j) as Label,
                    pos,
                });
                v.splice(at..at, labels);
            }
            v
        })
        .collect();

    // ---- diagonals: a label repeated within one operand needs equal sizes, exactly ----------
    if nop == 1 {
        // NumPy first tries to return a view of a lone operand; that path reports a mismatch in
        // its own words until it meets a summed label, where it gives up and the general check
        // below takes over. It takes a size of 0 for "not seen yet" (EC `get_single_op_view`), so
        // 'ii->i' on (0, 3) gets through it, and NumPy returns a view that reads out of bounds;
        // the general check below refuses that.
        let mut dims = vec![0usize; output.len()];
        for (axis, &dim) in axes[0].iter().zip(shapes[0]) {
            if axis.label as usize >= LETTERS {
                continue;
            }
            let Some(slot) = output.iter().position(|&o| o == axis.label) else {
                break;
            };
            if dims[slot] != 0 && dims[slot] != dim {
                return Err(err(
                    format!(
                        "dimensions in single operand for collapsing index '{}' don't match \
                         ({} != {dim})",
                        Parsed::label_name(axis.label),
                        dims[slot]
                    ),
                    Some(axis.pos),
                ));
            }
            dims[slot] = dim;
        }
    }
    for (iop, (op_axes, shape)) in axes.iter().zip(shapes).enumerate() {
        let mut first: [Option<usize>; LETTERS] = [None; LETTERS];
        for (axis, &dim) in op_axes.iter().zip(shape.iter()) {
            let l = axis.label as usize;
            if l >= LETTERS {
                continue;
            }
            match first[l] {
                Some(d0) if d0 != dim => {
                    return Err(err(
                        format!(
                            "dimensions in operand {iop} for collapsing index '{}' don't match \
                             ({d0} != {dim})",
                            Parsed::label_name(axis.label)
                        ),
                        Some(axis.pos),
                    ));
                }
                _ => first[l] = Some(dim),
            }
        }
    }

    // ---- the iteration space: output dims plus summed labels, at most NPY_MAXDIMS ---------------
    let summed = (0..LETTERS)
        .filter(|&l| counts[l] > 0 && !output.contains(&(l as Label)))
        .count();
    if output.len() + summed > MAX_DIMS {
        return Err(err(
            format!(
                "too many subscripts in einsum ({} output and {summed} summed dimensions, at most \
                 {MAX_DIMS})",
                output.len()
            ),
            None,
        ));
    }

    // ---- sizes across operands: equal, or 1 (which broadcasts), like NumPy's nditer -----------
    let mut sizes = vec![0usize; LETTERS + nb];
    let mut from: Vec<Option<usize>> = vec![None; LETTERS + nb];
    for (iop, (op_axes, shape)) in axes.iter().zip(shapes).enumerate() {
        for (axis, &dim) in op_axes.iter().zip(shape.iter()) {
            let l = axis.label as usize;
            match from[l] {
                None => {
                    sizes[l] = dim;
                    from[l] = Some(iop);
                }
                Some(_) if sizes[l] == 1 => {
                    sizes[l] = dim;
                    from[l] = Some(iop);
                }
                Some(first) if dim != 1 && dim != sizes[l] => {
                    let what = match letter_char(axis.label) {
                        Some(c) => format!("label '{c}'"),
                        None => format!("broadcast ('...') dimension {}", l - LETTERS),
                    };
                    return Err(err(
                        format!(
                            "operands could not be broadcast together: {what} has size {} in \
                             operand {first} but size {dim} in operand {iop}",
                            sizes[l]
                        ),
                        Some(axis.pos),
                    ));
                }
                Some(_) => {}
            }
        }
    }

    // NumPy's iterator refuses an iteration space of more than isize::MAX points. (NumPy also
    // refuses some spaces that contain a zero-size dim, depending on its axis order; an empty
    // space is accepted here.) The bound is 64-bit NumPy's on every target: the contraction never
    // builds that space, and on wasm32 (32-bit isize) the seed case at 256 alone has 2^32 points.
    let used = (0..LETTERS + nb).filter(|&l| from[l].is_some());
    if !used.clone().any(|l| sizes[l] == 0) {
        let total = used
            .clone()
            .try_fold(1u64, |acc, l| acc.checked_mul(sizes[l] as u64));
        if total.is_none_or(|t| t > i64::MAX as u64) {
            return Err(err(
                "iterator is too large: the product of all label sizes exceeds 2^63 - 1",
                None,
            ));
        }
    }

    Ok(Parsed {
        inputs: axes
            .into_iter()
            .map(|a| a.into_iter().map(|x| x.label).collect())
            .collect(),
        output,
        sizes,
        ndim_broadcast: nb,
    })
}

/// One input term, `bytes[start..end]`, for an operand of `ndim` dimensions (EC
/// `parse_operand_subscripts`).
fn parse_term(
    bytes: &[u8],
    start: usize,
    end: usize,
    ndim: usize,
    iop: usize,
    counts: &mut [u32; LETTERS],
) -> Result<Term> {
    let mut letters = Vec::new();
    let mut ellipsis = None;
    let mut i = start;
    while i < end {
        let b = bytes[i];
        if let Some(l) = letter_label(b) {
            if letters.len() >= ndim {
                return Err(err(
                    format!(
                        "einstein sum subscripts string contains too many subscripts for operand \
                         {iop} (it has {ndim} dimensions)"
                    ),
                    Some(i),
                ));
            }
            letters.push((l, i));
            counts[l as usize] += 1;
        } else if b == b'.' {
            // A '.' must start a whole "..." inside this term, and only one per term.
            if ellipsis.is_some() || i + 2 >= end || bytes[i + 1] != b'.' || bytes[i + 2] != b'.' {
                return Err(err(
                    format!(
                        "einstein sum subscripts string contains a '.' that is not part of an \
                         ellipsis ('...') in operand {iop}"
                    ),
                    Some(i),
                ));
            }
            ellipsis = Some((letters.len(), i));
            i += 2;
        } else if b != b' ' {
            return Err(invalid_subscript(b, i));
        }
        i += 1;
    }
    if ellipsis.is_none() && letters.len() != ndim {
        return Err(err(
            format!(
                "operand {iop} has more dimensions ({ndim}) than subscripts given in einstein sum \
                 ({}), but no '...' ellipsis provided to broadcast the extra dimensions",
                letters.len()
            ),
            Some(start),
        ));
    }
    Ok(Term { letters, ellipsis })
}

/// The explicit output, `bytes[start..]`, with `nb` broadcast dims (EC `parse_output_subscripts`).
fn parse_output(
    bytes: &[u8],
    start: usize,
    nb: usize,
    counts: &[u32; LETTERS],
) -> Result<Vec<Label>> {
    let too_many = |i| {
        err(
            format!(
                "einstein sum subscripts string contains too many subscripts in the output (at \
                 most {MAX_DIMS} dimensions)"
            ),
            Some(i),
        )
    };
    let mut out: Vec<Label> = Vec::new();
    let mut ellipsis = false;
    let mut i = start;
    while i < bytes.len() {
        let b = bytes[i];
        if let Some(l) = letter_label(b) {
            if bytes[i + 1..].contains(&b) {
                return Err(err(
                    format!(
                        "einstein sum subscripts string includes output subscript '{}' multiple \
                         times",
                        b as char
                    ),
                    Some(i),
                ));
            }
            if counts[l as usize] == 0 {
                return Err(err(
                    format!(
                        "einstein sum subscripts string included output subscript '{}' which \
                         never appeared in an input",
                        b as char
                    ),
                    Some(i),
                ));
            }
            if out.len() >= MAX_DIMS {
                return Err(too_many(i));
            }
            out.push(l);
        } else if b == b'.' {
            if ellipsis || i + 2 >= bytes.len() || bytes[i + 1] != b'.' || bytes[i + 2] != b'.' {
                return Err(err(
                    "einstein sum subscripts string contains a '.' that is not part of an \
                     ellipsis ('...') in the output",
                    Some(i),
                ));
            }
            if out.len() + nb > MAX_DIMS {
                return Err(too_many(i));
            }
            ellipsis = true;
            out.extend((0..nb).map(|k| (LETTERS + k) as Label));
            i += 2;
        } else if b != b' ' {
            return Err(invalid_subscript(b, i));
        }
        i += 1;
    }
    // NumPy's default einsum never sums broadcast dims: the output must keep them (numpy#9984).
    if !ellipsis && nb > 0 {
        return Err(err(
            "output has more dimensions than subscripts given in einstein sum, but no '...' \
             ellipsis provided to broadcast the extra dimensions.",
            Some(start),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(c: char) -> Label {
        letter_label(c as u8).expect("a letter")
    }

    fn ls(s: &str) -> Vec<Label> {
        s.chars().map(l).collect()
    }

    /// The error's message and position, failing the test if `parse` succeeds.
    fn fails(s: &str, shapes: &[&[usize]]) -> (String, Option<usize>) {
        match parse(s, shapes) {
            Err(Error::Einsum { msg, pos }) => (msg, pos),
            other => panic!("{s:?} {shapes:?}: expected an einsum error, got {other:?}"),
        }
    }

    /// Asserts the error starts with `prefix` and sits at `pos`.
    #[track_caller]
    fn rejects(s: &str, shapes: &[&[usize]], prefix: &str, pos: Option<usize>) {
        let (msg, at) = fails(s, shapes);
        assert!(
            msg.starts_with(prefix),
            "{s:?} {shapes:?}: message {msg:?} does not start with {prefix:?}"
        );
        assert_eq!(at, pos, "{s:?} {shapes:?}: position ({msg})");
    }

    fn ok(s: &str, shapes: &[&[usize]]) -> Parsed {
        parse(s, shapes).unwrap_or_else(|e| panic!("{s:?} {shapes:?}: {e}"))
    }

    fn out_shape(p: &Parsed) -> Vec<usize> {
        p.output.iter().map(|&l| p.sizes[l as usize]).collect()
    }

    // ---- errors, one class at a time, with their positions ------------------------------------

    #[test]
    fn einsum_operand_count_errors() {
        rejects(
            "i",
            &[],
            "must specify the einstein sum subscripts string",
            None,
        );
        let one: &[usize] = &[1];
        let many = vec![one; 64];
        rejects(&vec!["i"; 64].join(","), &many, "too many operands", None);
        assert!(parse(&vec!["i"; 63].join(","), &many[..63]).is_ok());
        // More terms than operands: at the comma that starts the extra term.
        rejects("i,j", &[&[2]], "more operands specified", Some(1));
        rejects(
            "i,j,k->i",
            &[&[2], &[2]],
            "more operands specified",
            Some(3),
        );
        // Fewer terms than operands: where the comma was expected.
        rejects("i", &[&[2], &[2]], "fewer operands specified", Some(1));
        rejects("i->i", &[&[2], &[2]], "fewer operands specified", Some(1));
        // NumPy checks the count for an operand before that operand's characters.
        rejects("i$,j", &[&[2]], "more operands specified", Some(2));
        rejects("i$", &[&[2], &[2]], "fewer operands specified", Some(2));
        let deep = [1usize; 65];
        rejects("...", &[&deep], "operand 0 has 65 dimensions", None);
    }

    #[test]
    fn einsum_character_errors() {
        rejects("i$j", &[&[1, 2]], "invalid subscript '$'", Some(1));
        rejects("i>", &[&[2]], "invalid subscript '>'", Some(1));
        rejects("i1", &[&[2, 2]], "invalid subscript '1'", Some(1));
        rejects("i->$", &[&[2]], "invalid subscript '$'", Some(3));
        rejects("i->i,", &[&[2]], "invalid subscript ','", Some(4));
        rejects("i\tj", &[&[2, 2]], "invalid subscript '\\t'", Some(1));
        // Non-ASCII anywhere is refused first (NumPy: UnicodeEncodeError), at its character
        // position, not its byte position.
        rejects("ié,jé", &[&[2, 2]], "invalid subscript 'é'", Some(1));
        rejects("ij→j", &[&[2, 2]], "invalid subscript '→'", Some(2));
        rejects("é$,", &[&[2]], "invalid subscript 'é'", Some(0));
        rejects("ij\u{0}", &[&[2, 2]], "invalid subscript '\\u{0}'", Some(2));
    }

    #[test]
    fn einsum_arrow_errors() {
        let m = "einstein sum subscript string does not contain proper '->' output specified";
        rejects("i-j", &[&[2]], m, Some(1));
        rejects("i- >i", &[&[2]], m, Some(1));
        rejects("i-", &[&[2]], m, Some(1));
        rejects("i,j-", &[&[2], &[2]], m, Some(3));
        rejects("ij-->i", &[&[2, 2]], m, Some(2));
        // NumPy reads a second arrow as output characters and blames what they repeat ('i'
        // here); the real problem is the arrow, and the error says so.
        let twice = "einstein sum subscript string contains more than one '->'";
        rejects("i->i->i", &[&[2]], twice, Some(4));
        rejects("i->j->", &[&[2]], twice, Some(4));
        rejects("ij->ij->ij", &[&[2, 2]], twice, Some(6));
        rejects("i->-", &[&[2]], "invalid subscript '-'", Some(3));
    }

    #[test]
    fn einsum_subscript_count_errors() {
        rejects(
            "ijk",
            &[&[2, 3]],
            "einstein sum subscripts string contains too many subscripts for operand 0",
            Some(2),
        );
        rejects(
            "i,...jk",
            &[&[2], &[3]],
            "einstein sum subscripts string contains too many subscripts for operand 1",
            Some(6),
        );
        rejects(
            "i",
            &[&[2, 3]],
            "operand 0 has more dimensions (2) than subscripts given in einstein sum (1), but no '...'",
            Some(0),
        );
        rejects(
            "i,",
            &[&[2], &[3]],
            "operand 1 has more dimensions (1) than subscripts",
            Some(2),
        );
        // The C parser checks the term before it sees the malformed arrow after it.
        rejects("-", &[&[3]], "operand 0 has more dimensions", Some(0));
    }

    #[test]
    fn einsum_ellipsis_errors() {
        let m = "einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') in operand";
        rejects("i..j", &[&[2, 2]], m, Some(1));
        rejects("...i...", &[&[2, 2]], m, Some(4));
        rejects("....", &[&[2, 2]], m, Some(3));
        rejects(". ..", &[&[2]], m, Some(0));
        rejects("i..", &[&[2]], m, Some(1));
        rejects(
            "i,..",
            &[&[2], &[2]],
            "einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') in operand 1",
            Some(2),
        );
        let out = "einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') in the output";
        rejects("i->..", &[&[2]], out, Some(3));
        rejects("...->......", &[&[2]], out, Some(8));
        rejects("...->. ..", &[&[2]], out, Some(5));
        // Broadcast dims that the explicit output does not keep: NumPy will not sum them.
        rejects(
            "...i->i",
            &[&[2, 3]],
            "output has more dimensions than subscripts given in einstein sum, but no '...'",
            Some(6),
        );
        rejects(
            "i,...->i",
            &[&[2], &[3]],
            "output has more dimensions",
            Some(7),
        );
    }

    #[test]
    fn einsum_output_errors() {
        rejects(
            "ij->ii",
            &[&[2, 2]],
            "einstein sum subscripts string includes output subscript 'i' multiple times",
            Some(4),
        );
        rejects(
            "ij->jij",
            &[&[2, 2]],
            "einstein sum subscripts string includes output subscript 'j' multiple times",
            Some(4),
        );
        rejects(
            "ij->k",
            &[&[2, 2]],
            "einstein sum subscripts string included output subscript 'k' which never appeared in an input",
            Some(4),
        );
        rejects(
            "ij->I",
            &[&[2, 2]],
            "einstein sum subscripts string included output subscript 'I'",
            Some(4),
        );
        rejects(
            "->i",
            &[&[]],
            "einstein sum subscripts string included output subscript 'i'",
            Some(2),
        );
    }

    #[test]
    fn einsum_size_errors() {
        rejects(
            "ij,jk",
            &[&[2, 3], &[4, 5]],
            "operands could not be broadcast together: label 'j' has size 3 in operand 0 but size 4 in operand 1",
            Some(3),
        );
        rejects(
            "i,j,i",
            &[&[2], &[5], &[3]],
            "operands could not be broadcast together: label 'i' has size 2 in operand 0 but size 3 in operand 2",
            Some(4),
        );
        // Size 1 broadcasts, so the clash is with the operand that set the size.
        rejects(
            "i,i,i",
            &[&[1], &[2], &[3]],
            "operands could not be broadcast together: label 'i' has size 2 in operand 1 but size 3 in operand 2",
            Some(4),
        );
        rejects(
            "i,i",
            &[&[3], &[0]],
            "operands could not be broadcast together: label 'i' has size 3",
            Some(2),
        );
        rejects(
            "...i,...i",
            &[&[2, 3], &[4, 3]],
            "operands could not be broadcast together: broadcast ('...') dimension 0 has size 2 in operand 0 but size 4 in operand 1",
            Some(5),
        );
        // Broadcast dims are right-aligned: op 1's only ellipsis dim is dimension 1 of 2.
        rejects(
            "...,...",
            &[&[2, 3], &[4]],
            "operands could not be broadcast together: broadcast ('...') dimension 1",
            Some(4),
        );
        let big = 1usize << 40;
        rejects("i,j", &[&[big], &[big]], "iterator is too large", None);
        assert!(parse("i,j,k->k", &[&[big], &[big], &[0]]).is_ok());
    }

    #[test]
    fn einsum_diagonal_errors() {
        // Summed: NumPy's general path reports it for operand 0.
        rejects(
            "ii",
            &[&[3, 4]],
            "dimensions in operand 0 for collapsing index 'i' don't match (3 != 4)",
            Some(1),
        );
        rejects(
            "ij,kk",
            &[&[2, 3], &[3, 4]],
            "dimensions in operand 1 for collapsing index 'k' don't match (3 != 4)",
            Some(4),
        );
        // Size 1 does not broadcast within an operand.
        rejects(
            "ii",
            &[&[3, 1]],
            "dimensions in operand 0 for collapsing index 'i' don't match (3 != 1)",
            Some(1),
        );
        // Kept, single operand: NumPy's view path, in its words.
        rejects(
            "ii->i",
            &[&[3, 4]],
            "dimensions in single operand for collapsing index 'i' don't match (3 != 4)",
            Some(1),
        );
        rejects(
            "iij->ij",
            &[&[3, 4, 5]],
            "dimensions in single operand for collapsing index 'i' don't match (3 != 4)",
            Some(1),
        );
        // The view path gives up at the summed 'j' before it reaches the second 'i'.
        rejects(
            "iji->i",
            &[&[3, 4, 5]],
            "dimensions in operand 0 for collapsing index 'i' don't match (3 != 5)",
            Some(2),
        );
        // NumPy lets 'ii->i' on (0, 3) through (a view reading out of bounds); we refuse it.
        rejects(
            "ii->i",
            &[&[0, 3]],
            "dimensions in operand 0 for collapsing index 'i' don't match (0 != 3)",
            Some(1),
        );
        // ... though its view path does compare once it has seen a non-zero size.
        rejects(
            "iii->i",
            &[&[0, 1, 0]],
            "dimensions in single operand for collapsing index 'i' don't match (1 != 0)",
            Some(2),
        );
        // Diagonals are checked for every operand before sizes across operands.
        rejects(
            "ij,jj",
            &[&[2, 3], &[4, 5]],
            "dimensions in operand 1 for collapsing index 'j'",
            Some(4),
        );
    }

    #[test]
    fn einsum_dimension_limits() {
        let wide = [1usize; 64];
        // Implicit: 64 broadcast dims plus 'a' make 65 output dims.
        rejects(
            "...,a",
            &[&wide, &[3]],
            "einstein sum subscript string has too many distinct labels",
            None,
        );
        rejects(
            "...,a->a...",
            &[&wide, &[3]],
            "einstein sum subscripts string contains too many subscripts in the output",
            Some(8),
        );
        rejects(
            "...,a->...a",
            &[&wide, &[3]],
            "einstein sum subscripts string contains too many subscripts in the output",
            Some(10),
        );
        // 63 broadcast dims kept plus 'a' and 'b' summed make 65 iteration dims.
        rejects(
            "...a,b,ab",
            &[&wide, &[3], &[1, 3]],
            "too many subscripts in einsum",
            None,
        );
        assert!(parse("...a,a", &[&wide, &[1]]).is_ok());
    }

    // ---- accepted expressions ------------------------------------------------------------------

    #[test]
    fn einsum_implicit_output_order() {
        assert_eq!(ok("ba", &[&[2, 3]]).output, ls("ab"));
        // ASCII order: uppercase first.
        assert_eq!(ok("aB", &[&[2, 3]]).output, ls("Ba"));
        assert_eq!(ok("iI", &[&[2, 3]]).output, ls("Ii"));
        assert_eq!(ok("ij,jh", &[&[2, 3], &[3, 4]]).output, ls("hi"));
        // A label repeated in one operand counts twice.
        assert_eq!(ok("ii,i", &[&[2, 2], &[2]]).output, ls(""));
        // Broadcast dims come first.
        let p = ok("b...a", &[&[2, 5, 6, 3]]);
        assert_eq!(p.output, vec![52, 53, l('a'), l('b')]);
        assert_eq!(out_shape(&p), vec![5, 6, 3, 2]);
    }

    #[test]
    fn einsum_traces_and_diagonals() {
        let p = ok("ii", &[&[3, 3]]);
        assert_eq!(p.inputs, vec![ls("ii")]);
        assert!(p.output.is_empty());
        assert_eq!(ok("ii->i", &[&[3, 3]]).output, ls("i"));
        assert_eq!(ok("iij->ji", &[&[3, 3, 4]]).output, ls("ji"));
        assert_eq!(ok("iii->i", &[&[2, 2, 2]]).output, ls("i"));
        assert_eq!(ok("ijji", &[&[2, 3, 3, 2]]).output, ls(""));
        let p = ok("i...i", &[&[2, 5, 2]]);
        assert_eq!(p.inputs, vec![vec![l('i'), 52, l('i')]]);
        assert_eq!(p.output, vec![52]);
        // (1, 1) is a fine diagonal, and broadcasts against another operand.
        let p = ok("ii,i", &[&[1, 1], &[3]]);
        assert_eq!(p.sizes[l('i') as usize], 3);
    }

    #[test]
    fn einsum_ellipsis() {
        let p = ok("i...j", &[&[2, 3, 4, 5]]);
        assert_eq!(p.inputs, vec![vec![l('i'), 52, 53, l('j')]]);
        assert_eq!(p.output, vec![52, 53, l('i'), l('j')]);
        assert_eq!(p.ndim_broadcast, 2);
        // Right-aligned: the shorter operand's one ellipsis dim is the last broadcast dim.
        let p = ok("i...,...->...", &[&[2, 3, 4], &[4]]);
        assert_eq!(p.inputs, vec![vec![l('i'), 52, 53], vec![53]]);
        assert_eq!(out_shape(&p), vec![3, 4]);
        // Broadcasting of ellipsis dims, size 1 against n.
        let p = ok("...i,...i", &[&[2, 3], &[1, 3]]);
        assert_eq!(out_shape(&p), vec![2]);
        let p = ok("...,...", &[&[1, 3], &[4, 1]]);
        assert_eq!(out_shape(&p), vec![4, 3]);
        // Zero broadcast dims, an output ellipsis anywhere, spaces around it.
        assert_eq!(ok("i->...i", &[&[3]]).output, ls("i"));
        assert_eq!(ok("...i->i...", &[&[2, 3]]).output, vec![l('i'), 52]);
        assert_eq!(ok(" ... i -> i ... ", &[&[2, 3]]).output, vec![l('i'), 52]);
        // An operand without '...' still broadcasts against one that has it.
        let p = ok("...ij,jk->...ik", &[&[7, 2, 3], &[3, 4]]);
        assert_eq!(out_shape(&p), vec![7, 2, 4]);
        assert_eq!(ok("...", &[&[]]).output, vec![]);
    }

    #[test]
    fn einsum_zero_d_and_empty() {
        let p = ok(",i->i", &[&[], &[3]]);
        assert_eq!(p.inputs, vec![vec![], ls("i")]);
        assert_eq!(out_shape(&p), vec![3]);
        assert!(ok("", &[&[]]).output.is_empty());
        assert!(ok("->", &[&[]]).output.is_empty());
        assert!(ok(",", &[&[], &[]]).output.is_empty());
        assert!(ok("i,->", &[&[3], &[]]).output.is_empty());
        assert!(ok("...,...", &[&[], &[]]).output.is_empty());
        assert!(ok("ij->", &[&[2, 3]]).output.is_empty());
    }

    #[test]
    fn einsum_zero_size_and_broadcasting() {
        let p = ok("ij,jk->ik", &[&[2, 0], &[0, 3]]);
        assert_eq!(p.sizes[l('j') as usize], 0);
        assert_eq!(out_shape(&p), vec![2, 3]);
        // Size 1 broadcasts to 0, in either order.
        assert_eq!(ok("i,i->i", &[&[1], &[0]]).sizes[l('i') as usize], 0);
        assert_eq!(ok("i,i->i", &[&[0], &[1]]).sizes[l('i') as usize], 0);
        // Labelled dims of size 1 broadcast (gh-10930, gh-10343).
        assert_eq!(ok("i,i", &[&[3], &[1]]).sizes[l('i') as usize], 3);
        let p = ok("ij,ij->j", &[&[10, 2], &[1, 2]]);
        assert_eq!(p.sizes[l('i') as usize], 10);
        assert_eq!(out_shape(&p), vec![2]);
        let p = ok("ij,jk", &[&[2, 1], &[5, 4]]);
        assert_eq!(p.sizes[l('j') as usize], 5);
    }

    #[test]
    fn einsum_labels_and_spaces() {
        let all: String = ('A'..='Z').chain('a'..='z').collect();
        let shape = [1usize; 52];
        let p = ok(&all, &[&shape]);
        assert_eq!(p.output, (0..52).collect::<Vec<Label>>());
        let p = ok(" i j , j k -> i k ", &[&[2, 3], &[3, 4]]);
        assert_eq!(p.inputs, vec![ls("ij"), ls("jk")]);
        assert_eq!(out_shape(&p), vec![2, 4]);
        assert_eq!(Parsed::label_name(l('a')), "a");
        assert_eq!(Parsed::label_name(l('B')), "B");
        assert_eq!(Parsed::label_name(53), "...1");
    }

    // ---- NumPy itself, on generated calls ------------------------------------------------------

    /// Our error in the classes `tests/golden/einsum_parse.py` puts NumPy's in.
    fn class_of(msg: &str, pos: Option<usize>) -> String {
        let quoted = || msg.split('\'').nth(1).unwrap_or("").to_string();
        let number_after = |key: &str| {
            msg.split(key).nth(1).map_or(String::new(), |r| {
                r.chars().take_while(|c| c.is_ascii_digit()).collect()
            })
        };
        let pair = || {
            let inside = msg.rsplit('(').next().unwrap_or("").trim_end_matches(')');
            inside.replace(" != ", " ")
        };
        if msg.contains("ASCII letters") {
            format!("non_ascii {}", pos.unwrap_or(usize::MAX))
        } else if msg.starts_with("too many operands") {
            "too_many_operands".into()
        } else if msg.starts_with("more operands specified") {
            "more_terms".into()
        } else if msg.starts_with("fewer operands specified") {
            "fewer_terms".into()
        } else if msg.contains("too many subscripts for operand") {
            format!("too_many_subscripts {}", number_after("for operand "))
        } else if msg.contains("not part of an ellipsis ('...') in operand") {
            format!("bad_dot {}", number_after("in operand "))
        } else if msg.contains("not part of an ellipsis ('...') in the output") {
            "bad_dot_out".into()
        } else if msg.starts_with("invalid subscript") {
            format!("bad_char {}", quoted())
        } else if msg.starts_with("operand ") && msg.contains("more dimensions") {
            "too_few_subscripts".into()
        } else if msg.contains("proper '->'") {
            "bad_arrow".into()
        } else if msg.contains("multiple times") {
            format!("out_repeated {}", quoted())
        } else if msg.contains("never appeared") {
            format!("out_unknown {}", quoted())
        } else if msg.starts_with("output has more dimensions") {
            "out_no_ellipsis".into()
        } else if msg.starts_with("dimensions in single operand") {
            format!("diag_single {} {}", quoted(), pair())
        } else if msg.starts_with("dimensions in operand") {
            format!(
                "diag {} {} {}",
                number_after("in operand "),
                quoted(),
                pair()
            )
        } else if msg.starts_with("operands could not be broadcast") {
            "broadcast".into()
        } else if msg.contains("too many subscripts") || msg.contains("too many distinct") {
            "too_many_dims".into()
        } else if msg.starts_with("iterator is too large") {
            "too_large".into()
        } else {
            format!("unclassified: {msg}")
        }
    }

    fn dims(text: &str) -> Vec<usize> {
        if text == "()" {
            return Vec::new();
        }
        text.split('x')
            .map(|d| d.parse().expect("a size"))
            .collect()
    }

    fn unhex(h: &str) -> String {
        let bytes: Vec<u8> = (0..h.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&h[i..i + 2], 16).expect("hex"))
            .collect();
        String::from_utf8(bytes).expect("utf-8")
    }

    /// Every call in the golden file: NumPy's accept/reject, error class and output shape.
    #[test]
    fn einsum_parse_matches_numpy() {
        let golden = include_str!("../../../tests/golden/einsum_parse.txt");
        let (mut checked, mut accepted, mut quirks) = (0, 0, 0);
        for line in golden.lines().filter(|l| !l.starts_with('#')) {
            let mut fields = line.split('\t');
            let (hex, shapes, want) = (
                fields.next().unwrap(),
                fields.next().unwrap(),
                fields.next().unwrap(),
            );
            let s = unhex(hex);
            let shapes: Vec<Vec<usize>> = shapes
                .split(' ')
                .filter(|t| !t.is_empty())
                .map(dims)
                .collect();
            let refs: Vec<&[usize]> = shapes.iter().map(|s| s.as_slice()).collect();
            let got = match parse(&s, &refs) {
                Ok(p) => {
                    let shape = out_shape(&p);
                    let text: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
                    format!(
                        "ok {}",
                        if text.is_empty() {
                            "()".into()
                        } else {
                            text.join("x")
                        }
                    )
                }
                Err(Error::Einsum { msg, pos }) => format!("err {}", class_of(&msg, pos)),
                Err(e) => panic!("{s:?}: not an einsum error: {e}"),
            };
            // NumPy's view path accepts a lone operand's diagonal whose first axis is empty.
            let quirk = want.starts_with("ok")
                && refs.len() == 1
                && got.starts_with("err diag 0 ")
                && got.split(' ').nth(4) == Some("0");
            if quirk {
                quirks += 1;
                continue;
            }
            assert_eq!(got, want, "{s:?} with shapes {shapes:?}");
            accepted += want.starts_with("ok") as usize;
            checked += 1;
        }
        assert!(
            checked >= 2900 && accepted >= 1000,
            "{checked} checked, {accepted} accepted"
        );
        assert!(
            quirks * 200 < checked,
            "{quirks} cases of NumPy's empty-diagonal quirk"
        );
    }
}
