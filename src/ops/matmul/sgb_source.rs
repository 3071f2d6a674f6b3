//! The WGSL of the subgroup-broadcast f32 matmul, generated: one entry point per call.
//!
//! Why generated: the kernel's speed comes from a large register tile whose accumulators are
//! plain SSA values, and from constant `subgroupBroadcast` lane indices; both need the 8-step k
//! chunk unrolled by hand (see `../shared/notes/lavapipe-matmul.md`). WGSL has no macros, so the
//! unrolled body is written out here, for the one tile height a pipeline uses.

use std::fmt::Write;

/// Tile heights (rows of C per invocation) of the subgroup kernels (`families.rs`); every tile
/// is 8 columns wide.
pub(crate) const TILE_ROWS: [u32; 3] = [32, 16, 8];

const HEADER: &str = "\
// f32 matmul C[b] (+)= A[b] @ B[b] for adapters whose subgroup is exactly 8 consecutive
// x-invocations (lavapipe). Each invocation owns a TM x 8 tile of C; the 8 lanes of a subgroup
// run along N. A's values are the same for all 8 lanes, so each lane loads a different element
// of A's row (8 lanes = 8 k-steps) and `subgroupBroadcast` hands them around: no shared memory,
// no barriers (each barrier is a coroutine switch on lavapipe), and B -- the operand whose values
// differ per lane -- is loaded once per TM rows.
//
// Operands are row-major with rows of whole vec4s (all strides below are in vec4 units); any M,
// any K and any N that is a multiple of 4 work: rows and columns past the edge are clamped when
// loading and skipped when storing, and the last partial 8-step chunk of K runs only its live
// steps (so NaN or Inf beyond the edge never leaks in). Batch b = workgroup_id.z adds
// b * *_batch4. Bases are window-relative; A, read as scalars, is indexed at 4 x those units.

override WGY: u32 = 2u;

struct Params {
    a_base: u32,
    b_base: u32,
    c_base: u32,
    lda4: u32,
    ldb4: u32,
    ldc4: u32,
    a_batch4: u32,
    b_batch4: u32,
    c_batch4: u32,
    ksteps: u32,        // whole 8-step chunks of K
    ktail: u32,         // k-steps in the last, partial chunk (0..7)
    accumulate: u32,    // 0: C = A @ B, 1: C += A @ B (a later K chunk), 2: C -= A @ B
    m: u32,             // rows of C
    n4: u32,            // vec4 columns of C
    row_blocks: u32,    // workgroups down M (WGY x TM rows each)
    blocks: u32,        // workgroups of the launch: row_blocks x (64-column blocks)
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> c: array<vec4<f32>>;

// What a tile's sum makes of C: itself (0), C plus it (1: a later K chunk), C minus it (2: a
// blocked factorization's trailing update, A22 -= L21 @ U12, with no temporary and no
// separate pass over A22).
fn store(old: vec4<f32>, sum: vec4<f32>, mode: u32) -> vec4<f32> {
    if (mode == 1u) {
        return old + sum;
    }
    if (mode == 2u) {
        return old - sum;
    }
    return sum;
}
";

/// The complete WGSL for tiles of `rows` x 8: the shared declarations and one entry point.
pub(crate) fn source(rows: u32) -> String {
    let mut s = String::from(HEADER);
    kernel(&mut s, rows);
    s
}

/// One whole 8-step chunk of K at chunk index `ks` (a WGSL name in scope), unrolled: lane l
/// holds k = l of the chunk for each of the tile's rows, and constant-index `subgroupBroadcast`s
/// hand each lane's k-step to all eight.
///
/// Why 8 steps and scalar loads of A, not 32 steps and a vec4 per lane (the kernel until
/// 2026-12-02): the unrolled body is a quarter of the size, and lavapipe compiles a kernel with
/// LLVM at its first dispatch, on the one queue every submit shares, in time that grows with the
/// body. Cold (Mesa's shader cache off), the 32x8, 16x8 and 8x8 kernels took 3.7, 1.6 and
/// 0.76 s with 32-step chunks and take 1.3, 0.5 and 0.25 s now: the tune, which compiles all
/// three, no longer holds a cold start for 6 s. The price is per-lane load overhead (a vec4 load
/// pays llvmpipe's lane-by-lane loop once per 4 components, a scalar load once per component),
/// which the order of the workgroups (down M first, see `kernel`) more than pays back at 2048³;
/// at 512³-1024³ the best tile runs within the noise of before (BENCHMARKS.md, issue 13).
fn chunk(s: &mut String, rows: u32) {
    chunk_operands(s, rows);
    for lane in 0..8 {
        s.push_str("        {\n");
        k_step(s, rows, "subgroupBroadcast", &format!("{lane}u"));
        s.push_str("        }\n");
    }
}

/// The last, partial chunk (`p.ktail` k-steps, 1..7): the same steps in the same order, so the
/// same bits, as a loop over the live k-steps with `subgroupShuffle` (whose lane may vary), so
/// no step past the edge runs and NaN or Inf beyond it never leaks in.
fn tail_chunk(s: &mut String, rows: u32) {
    chunk_operands(s, rows);
    s.push_str("        for (var src_lane = 0u; src_lane < p.ktail; src_lane += 1u) {\n");
    k_step(s, rows, "subgroupShuffle", "src_lane");
    s.push_str("        }\n");
}

/// The start of chunk `ks`: each lane's element of A for every row of the tile, and the index
/// of B's row for the chunk's first k-step.
fn chunk_operands(s: &mut String, rows: u32) {
    for i in 0..rows {
        writeln!(s, "        let a{i} = a[arow{i} + ks * 8u];").unwrap();
    }
    s.push_str("        var kb = b0 + ks * 8u * p.ldb4;\n");
}

/// One k-step: row i's value of A from lane `from` (through `share`, a subgroup built-in), B's
/// two vec4s of the row, and the tile's multiply-adds.
fn k_step(s: &mut String, rows: u32, share: &str, from: &str) {
    for i in 0..rows {
        writeln!(s, "            let s{i} = {share}(a{i}, {from});").unwrap();
    }
    s.push_str("            let b_0 = b[kb + cc0];\n            let b_1 = b[kb + cc1];\n");
    s.push_str("            kb += p.ldb4;\n");
    for i in 0..rows {
        writeln!(s, "            c{i}_0 = fma(vec4<f32>(s{i}), b_0, c{i}_0);").unwrap();
        writeln!(s, "            c{i}_1 = fma(vec4<f32>(s{i}), b_1, c{i}_1);").unwrap();
    }
}

/// The entry point for tiles of `rows` x 8.
fn kernel(s: &mut String, rows: u32) {
    write!(
        s,
        "
@compute @workgroup_size(8, WGY)
fn main_{rows}x8(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {{
    // Workgroups go down M first: consecutive ones share a column panel of B (K x 64 values),
    // which stays in cache while they run, and stream A's rows instead. Across N first, every
    // workgroup row streamed the whole of B: 16x8 at 2048^3 on lavapipe ran at 23-24 GFLOP/s
    // that way, 29-37 this way.
    // The grid folds the launch's blocks into x and y, each within the device's limit.
    let block = wid.y * groups.x + wid.x;
    if (block >= p.blocks) {{
        return;
    }}
    let lane = lid.x;
    let row0 = ((block % p.row_blocks) * WGY + lid.y) * {rows}u;
    let col4 = ((block / p.row_blocks) * 8u + lane) * 2u;
    // Columns past the edge load the last valid vec4 (their results are never stored).
    let cc0 = min(col4, p.n4 - 1u);
    let cc1 = min(col4 + 1u, p.n4 - 1u);
    let abase = (p.a_base + wid.z * p.a_batch4) * 4u + lane;
    let b0 = p.b_base + wid.z * p.b_batch4;
",
    )
    .unwrap();
    for i in 0..rows {
        writeln!(
            s,
            "    let arow{i} = abase + min(row0 + {i}u, p.m - 1u) * p.lda4 * 4u;"
        )
        .unwrap();
    }
    for i in 0..rows {
        writeln!(
            s,
            "    var c{i}_0 = vec4<f32>(0.0);\n    var c{i}_1 = vec4<f32>(0.0);"
        )
        .unwrap();
    }
    s.push_str("    for (var ks = 0u; ks < p.ksteps; ks += 1u) {\n");
    chunk(s, rows);
    s.push_str("    }\n");
    s.push_str("    if (p.ktail > 0u) {\n        let ks = p.ksteps;\n");
    tail_chunk(s, rows);
    s.push_str("    }\n");
    s.push_str("    let cb = p.c_base + wid.z * p.c_batch4 + col4;\n");
    for i in 0..rows {
        writeln!(s, "    if (row0 + {i}u < p.m) {{").unwrap();
        writeln!(s, "        let at = cb + (row0 + {i}u) * p.ldc4;").unwrap();
        for h in 0..2 {
            writeln!(s, "        if (col4 + {h}u < p.n4) {{").unwrap();
            writeln!(
                s,
                "            c[at + {h}u] = store(c[at + {h}u], c{i}_{h}, p.accumulate);"
            )
            .unwrap();
            s.push_str("        }\n");
        }
        s.push_str("    }\n");
    }
    s.push_str("}\n");
}
