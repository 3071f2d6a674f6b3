// Arithmetic sequences into a contiguous block: arange and linspace.
//
// out[i] = start + i * step (the host's `seq_value`), computed in the compute type C (f32 for
// f16 and f32, f64 for f64, wrapping integer arithmetic for the integers: i32/u32 for 8-, 16- and
// 32-bit ones, word pairs for 64-bit ones). `last_index` marks the element that must be exactly
// `last` (linspace's endpoint); 0xffffffff disables it. The host prepends `alias C = ..;`, the
// binding `dst` (1) with its `store_dst` (device/element_access.rs) and `fn seq_value(i: u32) -> C`.

override WG: u32 = 256u;
// Elements per invocation: fewer, fuller workgroups (each workgroup costs a coroutine switch on
// lavapipe); consecutive invocations still touch consecutive elements.
override EPT: u32 = 8u;

struct Params {
    start: C,
    step: C,
    last: C,
    count: u32,
    last_index: u32,
    base: u32,          // window-relative index of element 0 of this block
}

@group(0) @binding(0) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let first = (wid.y * nwg.x + wid.x) * WG * EPT + lid;
    for (var e = 0u; e < EPT; e += 1u) {
        let i = first + e * WG;
        if (i >= p.count) {
            return;
        }
        element(i);
    }
}

fn element(i: u32) {
    var v = seq_value(i);
    if (i == p.last_index) {
        v = p.last;
    }
    store_dst(i32(p.base + i), v);
}
