//! Cutting a reduction over contiguous rows into pieces that each fit one storage binding
//! window: whole rows per piece when a row fits, otherwise segments of one row (whole numbers of
//! the kernel's chunks, so every piece's partials line up with the chunks of an uncut row).

/// Elements per row segment: the whole row when it fits `win_elems`, else the largest whole
/// number of `span`-element chunks that fits (at least one chunk).
pub(crate) fn segment_len(k: u64, win_elems: u64, span: u64) -> u64 {
    if k <= win_elems {
        k
    } else {
        (win_elems / span).max(1) * span
    }
}

/// Rows per piece: as many whole rows as fit both the input window and (at 8 bytes per partial,
/// `p_total` partials per row) the output window when rows are not segmented; one otherwise.
pub(crate) fn piece_rows(k: u64, seg: u64, win_elems: u64, out_window: u64, p_total: u64) -> u64 {
    if seg == k {
        (win_elems / k).min(out_window / (8 * p_total)).max(1)
    } else {
        1
    }
}

/// One piece: rows `m0 .. m0 + rows`, elements `k0 .. k0 + kl` of each, and the element offsets
/// of its first and last element in the input (`first ..= last`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Piece {
    pub m0: u64,
    pub rows: u64,
    pub k0: u64,
    pub kl: u64,
    pub first: i64,
    pub last: i64,
}

/// The pieces of `m` rows of `k` elements starting at element `off0`, row by row group and,
/// within it, segment by segment (the order the partials are laid out in).
pub(crate) fn row_pieces(
    off0: i64,
    m: u64,
    k: u64,
    seg: u64,
    rows_per_piece: u64,
) -> impl Iterator<Item = Piece> {
    (0..m.div_ceil(rows_per_piece)).flat_map(move |g| {
        let m0 = g * rows_per_piece;
        let rows = rows_per_piece.min(m - m0);
        (0..k.div_ceil(seg)).map(move |s| {
            let k0 = s * seg;
            let kl = seg.min(k - k0);
            let first = off0 + (m0 * k + k0) as i64;
            Piece {
                m0,
                rows,
                k0,
                kl,
                first,
                last: first + ((rows - 1) * k + kl - 1) as i64,
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_cover_every_element_once_in_partial_order() {
        for (m, k, win) in [
            (1u64, 10u64, 4u64),
            (7, 3, 10),
            (5, 9, 4),
            (3, 8, 8),
            (4, 1, 1),
        ] {
            let span = 2;
            let seg = segment_len(k, win, span);
            let rpp = piece_rows(k, seg, win, 1 << 20, 1);
            let mut seen = vec![0u32; (m * k) as usize];
            let mut last_end = -1i64;
            for p in row_pieces(100, m, k, seg, rpp) {
                assert!(p.kl <= win.max(span) && p.rows >= 1);
                assert!(p.first > last_end, "pieces advance: {p:?}");
                last_end = p.first;
                for r in 0..p.rows {
                    for e in 0..p.kl {
                        let at = ((p.m0 + r) * k + p.k0 + e) as usize;
                        seen[at] += 1;
                        assert!((100 + at as i64) <= p.last);
                    }
                }
            }
            assert!(
                seen.iter().all(|&c| c == 1),
                "m {m} k {k} win {win}: {seen:?}"
            );
        }
    }
}
