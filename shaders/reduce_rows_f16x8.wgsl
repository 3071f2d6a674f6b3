// Load units of reduce_rows.wgsl for f16 elements in stage 1: eight halves read as one
// vec4<u32> (elements 8j..8j+7 of the window are unit j). Lavapipe runs each storage load as a
// loop over the SIMD lanes with one trip per component, so a vec4<f16> moved four elements per
// trip and a packed vec4<u32> moves eight. unpack2x16float widens exactly (subnormals, ±0,
// infinities and NaN included), and the f32 value of a half converts back to f16 exactly.

alias Unit = vec4<u32>;
const UNIT: u32 = 8u;

// Elements 2i and 2i + 1 (the halves of one word) meet first: a pairwise step.
fn pair(w: u32) -> A {
    let h = unpack2x16float(w);
    return combine(load(In(h.x)), load(In(h.y)));
}

fn load_unit(v: Unit) -> A4 {
    return A4(pair(v.x), pair(v.y), pair(v.z), pair(v.w));
}
