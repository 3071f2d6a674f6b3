//! The WGSL of the subgroup-broadcast f32 matmul, generated: one entry point per call.
//!
//! Why generated: the kernel's speed comes from a large register tile whose accumulators are
//! plain SSA values, and from constant `subgroupBroadcast` lane indices; both need the 32-step k
//! loop unrolled by hand (see `../shared/notes/lavapipe-matmul.md`). WGSL has no macros, so the
//! unrolled body is written out here, for the one tile height a pipeline uses.

use std::fmt::Write;

/// Tile heights (rows of C per invocation) the registry builds; every tile is 8 columns wide.
pub(crate) const TILE_ROWS: [u32; 3] = [32, 16, 8];

const HEADER: &str = "\
// f32 matmul C[b] (+)= A[b] @ B[b] for adapters whose subgroup is exactly 8 consecutive
// x-invocations (lavapipe). Each invocation owns a TM x 8 tile of C; the 8 lanes of a subgroup
// run along N. A's values are the same for all 8 lanes, so each lane loads a different vec4 of
// A's row (8 lanes x 4 = 32 k-steps) and `subgroupBroadcast` hands them around: no shared memory,
// no barriers (each barrier is a coroutine switch on lavapipe), and B -- the operand whose values
// differ per lane -- is loaded once per TM rows.
//
// Operands are row-major with rows of whole vec4s (all strides below are in vec4 units); any M,
// any K and any N that is a multiple of 4 work: rows and columns past the edge are clamped when
// loading and skipped when storing, and the last partial 32-step chunk of K is masked with
// `select` (so NaN or Inf beyond the edge never leaks in). Batch b = workgroup_id.z adds
// b * *_batch4. Bases are window-relative.

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
    ksteps: u32,        // whole 32-step chunks of K
    ktail: u32,         // k-steps in the last, partial chunk (0..31)
    accumulate: u32,    // 1: C += A @ B (a later K chunk), 0: C = A @ B
    m: u32,             // rows of C
    n4: u32,            // vec4 columns of C
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> c: array<vec4<f32>>;
";

/// The entry point of the kernel whose tiles are `rows` x 8 (one of [`TILE_ROWS`]).
pub(crate) fn entry_point(rows: u32) -> &'static str {
    match rows {
        32 => "main_32x8",
        16 => "main_16x8",
        _ => {
            debug_assert_eq!(rows, 8, "tile heights are {TILE_ROWS:?}");
            "main_8x8"
        }
    }
}

/// The complete WGSL for tiles of `rows` x 8: the shared declarations and one entry point.
pub(crate) fn source(rows: u32) -> String {
    let mut s = String::from(HEADER);
    kernel(&mut s, rows);
    s
}

/// One whole 32-step chunk of K at chunk index `ks` (a WGSL name in scope), unrolled: lane l
/// holds k = 4l .. 4l+3 of the chunk, and constant-index `subgroupBroadcast`s hand each lane's
/// four k-steps to all eight.
fn chunk(s: &mut String, rows: u32) {
    for i in 0..rows {
        writeln!(s, "        let a{i} = a[arow{i} + ks * 8u];").unwrap();
    }
    s.push_str("        var kb = b0 + ks * 32u * p.ldb4;\n");
    for lane in 0..8 {
        s.push_str("        {\n");
        for i in 0..rows {
            writeln!(s, "        let s{i} = subgroupBroadcast(a{i}, {lane}u);").unwrap();
        }
        for comp in ["x", "y", "z", "w"] {
            s.push_str("        {\n");
            s.push_str("            let b_0 = b[kb + cc0];\n            let b_1 = b[kb + cc1];\n");
            s.push_str("            kb += p.ldb4;\n");
            fmas(s, rows, comp);
            s.push_str("        }\n");
        }
        s.push_str("        }\n");
    }
}

/// The last, partial chunk (`p.ktail` k-steps): the same steps in the same order, so the same
/// bits, but a loop over the eight lanes with `subgroupShuffle` (whose lane may vary) instead of
/// eight unrolled copies. Unrolled, this chunk was half the kernel's code, and lavapipe's LLVM
/// compile of the kernel at its first dispatch grows with the code (seconds, cold, for 32x8).
/// Steps past the tail are masked with `select`, so NaN or Inf beyond the edge never leaks in.
fn tail_chunk(s: &mut String, rows: u32) {
    s.push_str("        let amask = vec4<u32>(4u * lane) + vec4<u32>(0u, 1u, 2u, 3u) < vec4<u32>(p.ktail);\n");
    for i in 0..rows {
        writeln!(
            s,
            "        let a{i} = select(vec4<f32>(0.0), a[arow{i} + ks * 8u], amask);"
        )
        .unwrap();
    }
    s.push_str("        var kb = b0 + ks * 32u * p.ldb4;\n");
    s.push_str("        for (var src_lane = 0u; src_lane < 8u; src_lane += 1u) {\n");
    for i in 0..rows {
        writeln!(s, "        let s{i} = subgroupShuffle(a{i}, src_lane);").unwrap();
    }
    for (j, comp) in ["x", "y", "z", "w"].into_iter().enumerate() {
        s.push_str("        {\n");
        writeln!(s, "            let live = 4u * src_lane + {j}u < p.ktail;").unwrap();
        s.push_str("            let b_0 = select(vec4<f32>(0.0), b[kb + cc0], live);\n");
        s.push_str("            let b_1 = select(vec4<f32>(0.0), b[kb + cc1], live);\n");
        s.push_str("            kb += p.ldb4;\n");
        fmas(s, rows, comp);
        s.push_str("        }\n");
    }
    s.push_str("        }\n");
}

/// The tile's multiply-adds for one k-step: row i's broadcast component times B's two vec4s.
fn fmas(s: &mut String, rows: u32, comp: &str) {
    for i in 0..rows {
        writeln!(
            s,
            "            c{i}_0 = fma(vec4<f32>(s{i}.{comp}), b_0, c{i}_0);"
        )
        .unwrap();
        writeln!(
            s,
            "            c{i}_1 = fma(vec4<f32>(s{i}.{comp}), b_1, c{i}_1);"
        )
        .unwrap();
    }
}

/// The entry point for tiles of `rows` x 8.
fn kernel(s: &mut String, rows: u32) {
    write!(
        s,
        "
@compute @workgroup_size(8, WGY)
fn {entry}(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {{
    let lane = lid.x;
    let row0 = (wid.y * WGY + lid.y) * {rows}u;
    let col4 = (wid.x * 8u + lane) * 2u;
    // Columns past the edge load the last valid vec4 (their results are never stored).
    let cc0 = min(col4, p.n4 - 1u);
    let cc1 = min(col4 + 1u, p.n4 - 1u);
    let abase = p.a_base + wid.z * p.a_batch4 + lane;
    let b0 = p.b_base + wid.z * p.b_batch4;
",
        entry = entry_point(rows)
    )
    .unwrap();
    for i in 0..rows {
        writeln!(
            s,
            "    let arow{i} = abase + min(row0 + {i}u, p.m - 1u) * p.lda4;"
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
                "            c[at + {h}u] = select(c{i}_{h}, c[at + {h}u] + c{i}_{h}, p.accumulate != 0u);"
            )
            .unwrap();
            s.push_str("        }\n");
        }
        s.push_str("    }\n");
    }
    s.push_str("}\n");
}
