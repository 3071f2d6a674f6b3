// Cholesky factorisation A = L·Lᵀ (LAPACK's potrf, lower) of the columns [j0, j1) of a panel,
// for a batch of panels, one workgroup per panel, in place in the lower triangle (only the lower
// triangle is read, as NumPy's `cholesky` reads it). A panel is `rows` × `width`, row-major: the
// rows of a matrix from the panel's first column down, its columns [col0, col0 + width). The
// host prepends `alias T = ..;` and splits the columns over launches within the adapter's loop
// budget (see linalg_lu.wgsl).
//
// A small matrix is one panel (col0 = 0, rows = width = n), factored in place. A large one is
// factored in panels, each copied out of the matrix and back (so that one binding holds a panel,
// not the matrix), the host subtracting L21·L21ᵀ from the trailing matrix with the tuned matmul
// between two panels (blocked right-looking Cholesky); each step here scales the whole column
// below the diagonal, so the panel's rows below its square top are L21 when the panel is done.
//
// A diagonal that is not positive (or NaN) sets `info` to its 1-based column in the matrix, as
// potrf does; the host reports the matrix as not positive definite.

override WG: u32 = 64u;

struct Params {
    rows: u32,
    width: u32,
    col0: u32,
    j0: u32,
    j1: u32,
    batch: u32,
    a_base: u32,
    info_base: u32,
}

// The parameters come through a storage binding, not `var<uniform>` (as in shaders/philox.wgsl):
// lavapipe specialises a shader for the uniform values steering it and keeps a variant per
// distinct value, and the window bases here differ from call to call (30 ms and 1 MB a launch).
// Each entry point loads them once, through workgroup memory so that they stay uniform.
@group(0) @binding(0) var<storage, read> params: Params;
var<workgroup> shared_params: Params;
@group(0) @binding(1) var<storage, read_write> a: array<T>;
@group(0) @binding(2) var<storage, read_write> info: array<i32>;

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    if (lid == 0u) {
        shared_params = params;
    }
    let p = workgroupUniformLoad(&shared_params);
    let m = wid.y * nwg.x + wid.x;
    if (m >= p.batch) {
        return;
    }
    let rows = p.rows;
    let w = p.width;
    let base = p.a_base + m * rows * w;
    let lanes = min(WG, 32u);
    let lane = lid % lanes;
    let lane_row = lid / lanes;
    for (var j = p.j0; j < p.j1; j += 1u) {
        let d = a[base + j * w + j];
        if ((is_nan(d) || !(d > T(0.0))) && lid == 0u && info[p.info_base + m] == 0) {
            info[p.info_base + m] = i32(p.col0 + j + 1u);
        }
        let s = sqrt(d);
        storageBarrier();
        for (var r = j + lid; r < rows; r += WG) {
            if (r == j) {
                a[base + j * w + j] = s;
            } else {
                a[base + r * w + j] = a[base + r * w + j] / s;
            }
        }
        storageBarrier();
        // The panel's columns right of j, on and below their diagonal, with the invocations as
        // a grid of `lanes` columns × `WG / lanes` rows: neighbouring invocations touch
        // neighbouring elements of a row, and no index is divided per element.
        for (var c = j + 1u + lane; c < w; c += lanes) {
            let u = a[base + c * w + j];
            for (var r = c + lane_row; r < rows; r += WG / lanes) {
                a[base + r * w + c] -= a[base + r * w + j] * u;
            }
        }
        storageBarrier();
    }
}
