// y = Aᵀ·v over a trailing block of A, by columns: y_c = Σ_r A[r, c]·v_r for rows r ≥ row_first
// and columns c from col_first. The one pass over the matrix per column of the blocked
// reductions: A22·v of the tridiagonal one (linalg_tridiagonal.wgsl; A symmetric, so Aᵀ·v =
// A·v) and A[k.., k+1..]ᵀ·v of the bidiagonal one (linalg_bidiagonal.wgsl). One invocation per
// four neighbouring columns (one vec4 per row: on lavapipe every lane's scalar access is a load
// of its own), one workgroup row per chunk of `chunk_rows` rows, each chunk's partial sums
// stored for the reduction's next kernel to add in a fixed order (the same bits whatever the
// launch's split). A launch binds a window of whole rows (`row0` its first), so matrices past
// one storage binding take several launches. Rows are `ld` long, a multiple of 4; v is row
// `vec_row` of an array of `vec_rows` rows of `ld` per matrix. The host prepends
// `alias T = ..;`.

override WG: u32 = 64u;

struct Params {
    n: u32,
    // Row length of A, of the vectors and of the partials (a multiple of 4).
    ld: u32,
    batch: u32,
    row_first: u32,
    col_first: u32,
    vec_row: u32,
    vec_rows: u32,
    chunk_rows: u32,
    // The launch's first chunk and how many it runs, and the first row its window of A holds.
    chunk0: u32,
    chunks: u32,
    row0: u32,
    // Workgroups per chunk (over the column quads from col_first / 4).
    quad_groups: u32,
    // In vec4s, then in elements, then in vec4s.
    a_base: u32,
    vec_base: u32,
    part_base: u32,
    // Chunks per matrix in `part`.
    part_chunks: u32,
}

@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read> a: array<vec4<T>>;
@group(0) @binding(2) var<storage, read> vecs: array<T>;
@group(0) @binding(3) var<storage, read_write> part: array<vec4<T>>;

@compute @workgroup_size(WG)
fn atv(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let p = params;
    let flat = wid.y * nwg.x + wid.x;
    let per_matrix = p.chunks * p.quad_groups;
    let mat = flat / per_matrix;
    if (mat >= p.batch) {
        return;
    }
    let chunk = p.chunk0 + (flat % per_matrix) / p.quad_groups;
    let quads = p.ld / 4u;
    let q = p.col_first / 4u + (flat % p.quad_groups) * WG + lid;
    if (q >= quads) {
        return;
    }
    let r0 = max(p.row_first, chunk * p.chunk_rows);
    let r1 = min(p.n, (chunk + 1u) * p.chunk_rows);
    let ab = p.a_base + mat * (p.n - p.row0) * quads;
    let v = p.vec_base + (mat * p.vec_rows + p.vec_row) * p.ld;
    var acc = vec4<T>(T(0.0));
    for (var r = r0; r < r1; r += 1u) {
        acc += a[ab + (r - p.row0) * quads + q] * vecs[v + r];
    }
    part[p.part_base + (mat * p.part_chunks + chunk) * quads + q] = acc;
}
