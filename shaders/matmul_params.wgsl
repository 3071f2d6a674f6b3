// The parameters of the strided matmul kernels (matmul_naive.wgsl, matmul_tiled.wgsl,
// matmul_pairs.wgsl), prepended to each: C[b] (+)= A[b] @ B[b] for an M x K A and a K x N B,
// every operand addressed by its base and its row, column and batch strides in elements.
// `ops/matmul/strided.rs` writes them in this order.

struct Params {
    m: u32,
    n: u32,
    k: u32,
    accumulate: u32,   // 1: C += A @ B (a later K chunk)
    a_base: i32,
    a_rs: i32,
    a_cs: i32,
    a_bs: i32,
    b_base: i32,
    b_rs: i32,
    b_cs: i32,
    b_bs: i32,
    c_base: i32,
    c_rs: i32,
    c_cs: i32,
    c_bs: i32,
}

