// Load units of reduce_rows.wgsl for every dtype: a vec4 of elements (elements 4j..4j+3 of the
// window are unit j).

alias Unit = vec4<In>;
const UNIT: u32 = 4u;

fn load_unit(v: Unit) -> vec4<A> {
    return vec4<A>(load(v.x), load(v.y), load(v.z), load(v.w));
}
