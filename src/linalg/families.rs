//! The kernel families of `linalg`, declared for the device: f32 and (native) f64 variants,
//! compiled on first use, each prelude giving the element type and its machine constants.

use crate::device::{KernelDef, Variant};
use crate::dtype::DType;

/// The variants: f32, and f64 where the adapter has it (an emulating device's f64 is refused
/// before a launch: these kernels have no software path).
fn float_variants(dtypes: &[DType]) -> Vec<Variant> {
    dtypes
        .iter()
        .copied()
        .filter(|&d| d == DType::F32 || d == DType::F64)
        .map(Variant::one)
        .collect()
}

/// `alias T`, `EPS` (the machine epsilon), `TINY` (the smallest normal number) and `is_nan` (by
/// bits: drivers may compile float comparisons assuming no NaN), then `file`.
fn with_type(v: Variant, file: &str) -> String {
    let prelude = if v.a == DType::F64 {
        "alias T = f64;\nconst EPS: T = 2.220446049250313e-16lf;\nconst TINY: T = 2.2250738585072014e-308lf;\n\
         fn is_nan(x: T) -> bool { return (bitcast<u32>(f32(x)) & 0x7fffffffu) > 0x7f800000u; }\n"
    } else {
        "alias T = f32;\nconst EPS: T = 1.1920929e-7f;\nconst TINY: T = 1.1754944e-38f;\n\
         fn is_nan(x: T) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }\n"
    };
    format!("{prelude}{file}")
}

const fn family(name: &'static str, entry: &'static str, wgsl: fn(Variant) -> String) -> KernelDef {
    KernelDef::on_first_use(name, entry, &[("WG", 64)], float_variants, wgsl)
}

/// One panel of the blocked LU with partial pivoting (`shaders/linalg_lu.wgsl`).
pub(crate) static LU_PANEL: KernelDef = family("linalg_lu", "main", |v| {
    with_type(v, include_str!("../../shaders/linalg_lu.wgsl"))
});

/// The block row U12 = L11⁻¹·A12 after each panel of the blocked LU
/// (`shaders/linalg_lu_u12.wgsl`).
pub(crate) static LU_U12: KernelDef = family("linalg_lu_u12", "main", |v| {
    with_type(v, include_str!("../../shaders/linalg_lu_u12.wgsl"))
});

/// The substitutions after LU (`shaders/linalg_lu_solve.wgsl`).
pub(crate) static LU_SOLVE: KernelDef = family("linalg_lu_solve", "main", |v| {
    with_type(v, include_str!("../../shaders/linalg_lu_solve.wgsl"))
});

/// Row interchanges of an LU past one storage binding (`shaders/linalg_swap_rows.wgsl`).
pub(crate) static SWAP_ROWS: KernelDef = family("linalg_swap_rows", "main", |v| {
    with_type(v, include_str!("../../shaders/linalg_swap_rows.wgsl"))
});

/// One panel of the blocked Cholesky (`shaders/linalg_cholesky.wgsl`).
pub(crate) static CHOLESKY_PANEL: KernelDef = family("linalg_cholesky", "main", |v| {
    with_type(v, include_str!("../../shaders/linalg_cholesky.wgsl"))
});

/// Householder QR's reflectors (`shaders/linalg_qr.wgsl`, `factor`).
pub(crate) static QR_FACTOR: KernelDef = family("linalg_qr_factor", "factor", |v| with_type(v, QR));

/// Householder QR's Q (`shaders/linalg_qr.wgsl`, `form_q`).
pub(crate) static QR_FORM_Q: KernelDef = family("linalg_qr_form_q", "form_q", |v| with_type(v, QR));

/// The triangular factor of a panel of reflectors (`shaders/linalg_qr.wgsl`, `block_t`).
pub(crate) static QR_BLOCK_T: KernelDef =
    family("linalg_qr_block_t", "block_t", |v| with_type(v, QR));

/// The signs that make a tall-skinny QR's factors LAPACK's (`shaders/linalg_tsqr_signs.wgsl`).
pub(crate) static TSQR_SIGNS: KernelDef = family("linalg_tsqr_signs", "main", |v| {
    with_type(v, include_str!("../../shaders/linalg_tsqr_signs.wgsl"))
});

const QR: &str = concat!(
    include_str!("../../shaders/linalg_householder.wgsl"),
    include_str!("../../shaders/linalg_qr.wgsl")
);

/// Cyclic Jacobi for symmetric eigenproblems (`shaders/linalg_eigh.wgsl`).
pub(crate) static EIGH_JACOBI: KernelDef = family("linalg_eigh", "main", |v| {
    with_type(
        v,
        concat!(
            include_str!("../../shaders/linalg_jacobi.wgsl"),
            include_str!("../../shaders/linalg_eigh.wgsl")
        ),
    )
});

/// One-sided Jacobi SVD (`shaders/linalg_svd.wgsl`).
pub(crate) static SVD_JACOBI: KernelDef = family("linalg_svd", "main", |v| {
    with_type(
        v,
        concat!(
            include_str!("../../shaders/linalg_jacobi.wgsl"),
            include_str!("../../shaders/linalg_svd.wgsl")
        ),
    )
});

/// Small systems, one invocation per matrix (`shaders/linalg_small_solve.wgsl`).
pub(crate) static SMALL_SOLVE: KernelDef = family("linalg_small_solve", "main", |v| {
    with_type(v, include_str!("../../shaders/linalg_small_solve.wgsl"))
});

/// Small Cholesky factorisations, one invocation per matrix
/// (`shaders/linalg_small_cholesky.wgsl`).
pub(crate) static SMALL_CHOLESKY: KernelDef = family("linalg_small_cholesky", "main", |v| {
    with_type(v, include_str!("../../shaders/linalg_small_cholesky.wgsl"))
});

/// One round of one-sided Jacobi, one workgroup per (matrix, column pair), for large matrices
/// (`shaders/linalg_svd_round.wgsl`).
pub(crate) static SVD_ROUND: KernelDef = family("linalg_svd_round", "main", |v| {
    with_type(
        v,
        concat!(
            include_str!("../../shaders/linalg_jacobi.wgsl"),
            include_str!("../../shaders/linalg_svd_round.wgsl")
        ),
    )
});

/// One round of cyclic Jacobi, one workgroup per (matrix, pair), for large symmetric matrices:
/// the rotations and rows (`shaders/linalg_eigh_round.wgsl`, `rows`) ...
pub(crate) static EIGH_ROUND_ROWS: KernelDef = family("linalg_eigh_round_rows", "rows", |v| {
    with_type(
        v,
        concat!(
            include_str!("../../shaders/linalg_jacobi.wgsl"),
            include_str!("../../shaders/linalg_eigh_round.wgsl")
        ),
    )
});

/// ... then the columns of A and V (`cols`).
pub(crate) static EIGH_ROUND_COLS: KernelDef = family("linalg_eigh_round_cols", "cols", |v| {
    with_type(
        v,
        concat!(
            include_str!("../../shaders/linalg_jacobi.wgsl"),
            include_str!("../../shaders/linalg_eigh_round.wgsl")
        ),
    )
});

/// Blocked Householder tridiagonalisation for large `eigh`: a column corrected by its panel and
/// its reflector (`shaders/linalg_tridiagonal.wgsl`, `column`) ...
pub(crate) static TRIDIAGONAL_COLUMN: KernelDef =
    family("linalg_tridiagonal_column", "column", |v| {
        with_type(v, TRIDIAGONAL)
    });

/// ... then w from A22·v (`correct`).
pub(crate) static TRIDIAGONAL_CORRECT: KernelDef =
    family("linalg_tridiagonal_correct", "correct", |v| {
        with_type(v, TRIDIAGONAL)
    });

/// The blocked reductions' pass over the trailing matrix by columns, Aᵀ·v
/// (`shaders/linalg_atv.wgsl`) ...
pub(crate) static MATRIX_T_TIMES: KernelDef = family("linalg_atv", "atv", |v| {
    with_type(v, include_str!("../../shaders/linalg_atv.wgsl"))
});

/// ... and by rows, A·u (`shaders/linalg_av.wgsl`).
pub(crate) static MATRIX_ROWS_TIMES: KernelDef = family("linalg_av", "av", |v| {
    with_type(v, include_str!("../../shaders/linalg_av.wgsl"))
});

const TRIDIAGONAL: &str = concat!(
    include_str!("../../shaders/linalg_householder.wgsl"),
    include_str!("../../shaders/linalg_tridiagonal.wgsl")
);

/// Blocked Householder bidiagonalisation for large `svd`: column k corrected by its panel and
/// its reflector (`shaders/linalg_bidiagonal.wgsl`, `left`) ...
pub(crate) static BIDIAGONAL_LEFT: KernelDef = family("linalg_bidiagonal_left", "left", |v| {
    with_type(v, BIDIAGONAL)
});

/// ... Y from Aᵀ·v, row k corrected and its reflector (`right`) ...
pub(crate) static BIDIAGONAL_RIGHT: KernelDef = family("linalg_bidiagonal_right", "right", |v| {
    with_type(v, BIDIAGONAL)
});

/// ... and X from A·u (`finish`).
pub(crate) static BIDIAGONAL_FINISH: KernelDef =
    family("linalg_bidiagonal_finish", "finish", |v| {
        with_type(v, BIDIAGONAL)
    });

const BIDIAGONAL: &str = concat!(
    include_str!("../../shaders/linalg_householder.wgsl"),
    include_str!("../../shaders/linalg_bidiagonal.wgsl")
);

/// Implicit QL on tridiagonal matrices, one invocation per matrix, recording its rotations
/// (`shaders/linalg_tql.wgsl`) ...
pub(crate) static TQL_STEPS: KernelDef = family("linalg_tql_steps", "steps", |v| {
    with_type(
        v,
        concat!(
            include_str!("../../shaders/linalg_hypot.wgsl"),
            include_str!("../../shaders/linalg_tql.wgsl")
        ),
    )
});

/// Implicit-shift QR on bidiagonal matrices (Golub–Kahan), one invocation per matrix,
/// recording its rotations (`shaders/linalg_bdsqr.wgsl`) ...
pub(crate) static BDSQR_STEPS: KernelDef = family("linalg_bdsqr_steps", "steps", |v| {
    with_type(
        v,
        concat!(
            include_str!("../../shaders/linalg_hypot.wgsl"),
            include_str!("../../shaders/linalg_bdsqr.wgsl")
        ),
    )
});

/// ... and either's rotations applied to the vectors, one invocation per column of Zᵀ
/// (`shaders/linalg_rotate.wgsl`).
pub(crate) static ROTATE: KernelDef = family("linalg_rotate", "rotate", |v| {
    with_type(v, include_str!("../../shaders/linalg_rotate.wgsl"))
});
