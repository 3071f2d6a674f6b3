// x = A·u over a trailing block of A, by rows: x_r = Σ_c A[r, c]·u_c for rows r ≥ row_first,
// the columns from col_first rounded down to a multiple of 4 (u is zero before col_first). The
// row-side pass of the blocked bidiagonal reduction (linalg_bidiagonal.wgsl; its column side is
// linalg_atv.wgsl). One invocation per row walking it a vec4 at a time; a launch binds a window
// of whole rows (`row0` its first), so matrices past one storage binding take several
// launches. Rows are `ld` long, a multiple of 4; u is row `vec_row` of an array of `vec_rows`
// rows of `ld` per matrix; x goes to `out` (ld per matrix). The host prepends `alias T = ..;`.

override WG: u32 = 64u;

struct Params {
    n: u32,
    ld: u32,
    batch: u32,
    row_first: u32,
    col_first: u32,
    vec_row: u32,
    vec_rows: u32,
    // The rows this launch runs and the first row its window of A holds.
    rows: u32,
    row0: u32,
    // Workgroups per matrix.
    groups: u32,
    // In vec4s, then in vec4s, then in elements.
    a_base: u32,
    vec_base: u32,
    out_base: u32,
}

@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read> a: array<vec4<T>>;
@group(0) @binding(2) var<storage, read> vecs: array<vec4<T>>;
@group(0) @binding(3) var<storage, read_write> out: array<T>;

@compute @workgroup_size(WG)
fn av(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let p = params;
    let flat = wid.y * nwg.x + wid.x;
    let mat = flat / p.groups;
    if (mat >= p.batch) {
        return;
    }
    let first = max(p.row_first, p.row0);
    let r = first + (flat % p.groups) * WG + lid;
    if (r >= p.row0 + p.rows) {
        return;
    }
    let quads = p.ld / 4u;
    let row = p.a_base + mat * (p.n - p.row0) * quads + (r - p.row0) * quads;
    let u = p.vec_base + (mat * p.vec_rows + p.vec_row) * quads;
    var acc = vec4<T>(T(0.0));
    for (var q = p.col_first / 4u; q < quads; q += 1u) {
        acc += a[row + q] * vecs[u + q];
    }
    out[p.out_base + mat * p.ld + r] = acc.x + acc.y + acc.z + acc.w;
}
