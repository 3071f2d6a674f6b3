// Sorting short rows: a bitonic sorting network over (key, index) pairs, which makes it stable
// (equal keys keep their order, the index breaking the tie) and fixes where every element goes
// without data-dependent control flow. Rows are padded to a power of two m <= one block of 2 WG;
// each workgroup sorts one block (2 WG / m rows) in workgroup memory, every row in the same launch
// (the network never pairs two rows: partners differ in a bit below m). Longer rows take the
// radix sort (`radix.wgsl`), which `keys` also feeds: the network's stages past a block, run with
// a barrier per step, were the slower kernel on lavapipe at every size measured.
//
// Keys order as the values do (`sort_keys.wgsl`, joined before this file: NaN last, -0.0 equal
// to +0.0); f64 keys take two words, compared high word first. Padding is key 0xffffffff (both
// words) with index 0xffffffff, after every real element, NaN included. f16 and bool arrays are
// sorted as f32/u32 by the host.
//
// The arrays hold `total` pairs: rows x m rounded up to whole blocks of 2 WG (the extra pairs
// are padding too). Entry points, over one thread per element or one workgroup per block, on a
// 2-d grid (workgroups past the 65,535 of one dimension):
// - `keys`: writes the keys and indices of every element (padding past the row's length).
// - `sort_local`: sorts each block of 2 WG in workgroup memory (stages up to m).
// `sort_gather.wgsl` then reads the values in their sorted order.
//
// Bindings are numbered so every entry point uses a prefix of them (index, key_hi, key_lo,
// src): the host binds the first three, or all four for `keys`.

override WG: u32 = 256u;

struct Params {
    // The row's padded length m (a power of two), its real length n, the number of rows, and
    // the pairs held (rows x m rounded up to whole blocks).
    m: u32,
    n: u32,
    rows: u32,
    total: u32,
    // Where the source elements start, in words (keys).
    src_base: u32,
    // Unused (kept so the parameter layout stays one struct for both entry points).
    k: u32,
    j: u32,
    // The block size.
    block: u32,
    // `keys` writes flat indices (row n + i) instead of positions in the row (the radix sort,
    // whose passes need each pair's row).
    flat_index: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read_write> index: array<u32>;
@group(0) @binding(2) var<storage, read_write> key_hi: array<u32>;
// The low words of f64 keys; a one-word placeholder otherwise.
@group(0) @binding(3) var<storage, read_write> key_lo: array<u32>;
@group(0) @binding(4) var<storage, read> src: array<u32>;

var<workgroup> s_hi: array<u32, 512>;
var<workgroup> s_lo: array<u32, 512>;
var<workgroup> s_ix: array<u32, 512>;

fn linear(wid: vec3<u32>, nwg: vec3<u32>, lid: u32) -> u32 {
    return (wid.y * nwg.x + wid.x) * WG + lid;
}

@compute @workgroup_size(WG)
fn keys(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let e = linear(wid, nwg, lid);
    if (e >= p.total) {
        return;
    }
    let r = e / p.m;
    let i = e % p.m;
    if (i >= p.n || r >= p.rows) {
        key_hi[e] = 0xffffffffu;
        if (wide()) {
            key_lo[e] = 0xffffffffu;
        }
        index[e] = 0xffffffffu;
        return;
    }
    let at = r * p.n + i;
    index[e] = select(i, at, p.flat_index != 0u);
    if (wide()) {
        let k = key64(src[p.src_base + 2u * at], src[p.src_base + 2u * at + 1u]);
        key_hi[e] = k.x;
        key_lo[e] = k.y;
    } else {
        key_hi[e] = key32(src[p.src_base + at]);
    }
}

// (ah, al, ai) < (bh, bl, bi), lexicographically (the index makes every pair distinct).
fn before(ah: u32, al: u32, ai: u32, bh: u32, bl: u32, bi: u32) -> bool {
    if (ah != bh) {
        return ah < bh;
    }
    if (wide() && al != bl) {
        return al < bl;
    }
    return ai < bi;
}

// One compare-exchange in workgroup memory between slots a < b, ascending when `up`.
fn exchange_local(a: u32, b: u32, up: bool) {
    let first = before(s_hi[a], s_lo[a], s_ix[a], s_hi[b], s_lo[b], s_ix[b]);
    if (first != up) {
        let h = s_hi[a];
        let l = s_lo[a];
        let x = s_ix[a];
        s_hi[a] = s_hi[b];
        s_lo[a] = s_lo[b];
        s_ix[a] = s_ix[b];
        s_hi[b] = h;
        s_lo[b] = l;
        s_ix[b] = x;
    }
}

fn load_block(base: u32, lid: u32) {
    for (var t = lid; t < p.block; t += WG) {
        s_hi[t] = key_hi[base + t];
        s_lo[t] = select(0u, key_lo[base + t], wide());
        s_ix[t] = index[base + t];
    }
    workgroupBarrier();
}

fn store_block(base: u32, lid: u32) {
    workgroupBarrier();
    for (var t = lid; t < p.block; t += WG) {
        key_hi[base + t] = s_hi[t];
        if (wide()) {
            key_lo[base + t] = s_lo[t];
        }
        index[base + t] = s_ix[t];
    }
}

// Steps of stage k at distances j = j0, j0/2, ..., 1 over the block starting at element `base`
// (position `base % m` of its row). Thread `lid` handles the pairs lid, lid + WG, ...
fn local_steps(base: u32, lid: u32, k: u32, j0: u32) {
    for (var j = j0; j > 0u; j = j >> 1u) {
        for (var q = lid; q < p.block / 2u; q += WG) {
            let a = (q / j) * 2u * j + q % j;
            let b = a + j;
            let up = (((base + a) % p.m) & k) == 0u;
            exchange_local(a, b, up);
        }
        workgroupBarrier();
    }
}

@compute @workgroup_size(WG)
fn sort_local(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let base = (wid.y * nwg.x + wid.x) * p.block;
    if (base >= p.total) {
        return;
    }
    load_block(base, lid);
    for (var k = 2u; k <= min(p.block, p.m); k = k << 1u) {
        local_steps(base, lid, k, k >> 1u);
    }
    store_block(base, lid);
}
