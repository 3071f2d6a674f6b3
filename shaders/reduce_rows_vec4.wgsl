// Load units of reduce_rows.wgsl for every dtype: four elements (elements 4j..4j+3 of the
// window are unit j), `In4` and `load4` of the family's prelude (a vec4, or two vec4<u32> of
// word pairs for software f64).

alias Unit = In4;
const UNIT: u32 = 4u;

fn load_unit(v: Unit) -> A4 {
    return load4(v);
}
