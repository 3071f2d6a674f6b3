//! The software binary64 library (`shaders/f64_soft.wgsl`, for adapters without SHADER_F64)
//! against the host's IEEE f64, bit for bit: add, sub, mul, div, sqrt, the comparisons and the f32
//! conversions on random bit patterns of every class (normal, subnormal, zero, infinity, NaN),
//! operand pairs with nearby exponents (cancellation, carries, halfway cases) and a table of edge
//! values crossed with itself. Run on the test's own wgpu device (the library is not wired into
//! `Device` yet), with the adapter `common::device` would choose.

mod common;

use common::xorshift;

const LIB: &str = concat!(
    include_str!("../shaders/mulhilo.wgsl"),
    include_str!("../shaders/int64.wgsl"),
    include_str!("../shaders/f64_soft.wgsl"),
);

/// One op per launch: `o[i] = OP(a[i], b[i])` over word pairs.
const HARNESS: &str = r#"
override OP: u32 = 0u;
struct Params { n: u32 }
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read> b: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read_write> o: array<vec2<u32>>;
@group(0) @binding(4) var<storage, read> c: array<vec2<u32>>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
    let i = g.x + g.y * nw.x * 64u;
    if (i >= p.n) {
        return;
    }
    let x = a[i];
    let y = b[i];
    // Read by every op (a runtime condition no compiler removes), so every pipeline binds c.
    let z = c[min(i, select(i, 0u, p.n == 0u))];
    switch OP {
        case 0u: { o[i] = f64s_add(x, y); }
        case 1u: { o[i] = f64s_sub(x, y); }
        case 2u: { o[i] = f64s_mul(x, y); }
        case 3u: { o[i] = vec2<u32>(select(0u, 1u, f64s_lt(x, y)), select(0u, 1u, f64s_eq(x, y))); }
        case 4u: { o[i] = f64s_from_f32_bits(x.x); }
        case 6u: { o[i] = f64s_div(x, y); }
        case 7u: { o[i] = f64s_sqrt(x); }
        case 8u: { o[i] = f64s_trunc(x); }
        case 9u: { o[i] = f64s_floor(x); }
        case 10u: { o[i] = f64s_ceil(x); }
        case 11u: { o[i] = f64s_rint(x); }
        case 12u: { o[i] = f64s_from_i64(x); }
        case 13u: { o[i] = f64s_from_u64(x); }
        case 14u: { o[i] = f64s_to_i64(x); }
        case 15u: { o[i] = f64s_maximum(x, y); }
        case 16u: { o[i] = f64s_minimum(x, y); }
        case 17u: { o[i] = f64s_fmax(x, y); }
        case 18u: { o[i] = f64s_fmin(x, y); }
        case 19u: { o[i] = f64s_nextafter(x, y); }
        case 20u: { o[i] = f64s_fma(x, y, z); }
        case 5u: { o[i] = vec2<u32>(f64s_to_f32_bits(x), 0u); }
        default: {}
    }
    if (p.n == 0xffffffffu) {
        o[i] = z;
    }
}
"#;

struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    module: wgpu::ShaderModule,
}

fn gpu() -> Option<Gpu> {
    // Only to learn whether (and which) adapter the suite uses: it prints why it skips.
    let dev = common::device()?;
    let backend = dev.info().backend.to_lowercase();
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    desc.backends = backends_of(&backend);
    let instance = wgpu::Instance::new(desc);
    let adapters = pollster::block_on(instance.enumerate_adapters(backends_of(&backend)));
    let name = dev.info().name.clone();
    let adapter = adapters
        .into_iter()
        .find(|a| a.get_info().name == name)
        .expect("the suite's adapter, enumerated again");
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("soft_f64"),
        required_features: wgpu::Features::empty(),
        required_limits: adapter.limits(),
        experimental_features: wgpu::ExperimentalFeatures::disabled(),
        memory_hints: wgpu::MemoryHints::Performance,
        trace: wgpu::Trace::Off,
    }))
    .expect("a device");
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("f64_soft"),
        source: wgpu::ShaderSource::Wgsl(format!("{LIB}{HARNESS}").into()),
    });
    Some(Gpu {
        device,
        queue,
        module,
    })
}

/// The wgpu backends of a `DeviceInfo::backend` name.
fn backends_of(backend: &str) -> wgpu::Backends {
    match backend {
        "gl" => wgpu::Backends::GL,
        "metal" => wgpu::Backends::METAL,
        "dx12" => wgpu::Backends::DX12,
        _ => wgpu::Backends::VULKAN,
    }
}

impl Gpu {
    /// `OP` over the pairs (a[i], b[i]), as f64 bit patterns.
    fn run(&self, op: u32, a: &[u64], b: &[u64]) -> Vec<u64> {
        self.run3(op, a, b, a)
    }

    /// `OP` over the triples (a[i], b[i], c[i]).
    fn run3(&self, op: u32, a: &[u64], b: &[u64], c: &[u64]) -> Vec<u64> {
        use wgpu::util::DeviceExt;
        let n = a.len();
        let storage = |data: &[u64], usage| {
            self.device
                .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: None,
                    contents: &data
                        .iter()
                        .flat_map(|v| v.to_le_bytes())
                        .collect::<Vec<u8>>(),
                    usage,
                })
        };
        let params = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: &(n as u32).to_le_bytes().repeat(4),
                usage: wgpu::BufferUsages::UNIFORM,
            });
        let ba = storage(a, wgpu::BufferUsages::STORAGE);
        let bb = storage(b, wgpu::BufferUsages::STORAGE);
        let bc = storage(c, wgpu::BufferUsages::STORAGE);
        let bytes = (n * 8) as u64;
        let out = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let read = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let constants = [("OP", f64::from(op))];
        let pipeline = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: None,
                layout: None,
                module: &self.module,
                entry_point: Some("main"),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: &constants,
                    zero_initialize_workgroup_memory: false,
                },
                cache: None,
            });
        let group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: params.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: ba.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: bb.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: out.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: bc.as_entire_binding(),
                },
            ],
        });
        let mut enc = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &group, &[]);
            let groups = (n as u32).div_ceil(64);
            let (x, y) = if groups > 65_535 {
                (65_535, groups.div_ceil(65_535))
            } else {
                (groups, 1)
            };
            pass.dispatch_workgroups(x, y, 1);
        }
        enc.copy_buffer_to_buffer(&out, 0, &read, 0, bytes);
        self.queue.submit([enc.finish()]);
        read.slice(..)
            .map_async(wgpu::MapMode::Read, |r| r.expect("map"));
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: None,
                timeout: None,
            })
            .expect("the GPU finishes");
        let view = read.slice(..).get_mapped_range().expect("mapped");
        view.chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }
}

/// Edge values of every class: zeros, the smallest subnormals, the largest subnormal, the
/// smallest normal, one and its neighbours, the largest finite, infinities, quiet and signalling
/// NaNs with payloads, and values whose sums or products land on rounding boundaries.
fn edges() -> Vec<u64> {
    let mut v: Vec<u64> = vec![
        0,
        1,
        2,
        3,
        0x000f_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
        0x0010_0000_0000_0001,
        0x001f_ffff_ffff_ffff,
        1.0f64.to_bits(),
        1.0f64.to_bits() + 1,
        1.0f64.to_bits() - 1,
        1.5f64.to_bits(),
        2.0f64.to_bits(),
        3.0f64.to_bits(),
        0.1f64.to_bits(),
        (1.0f64 + f64::EPSILON / 2.0).to_bits(),
        2f64.powi(53).to_bits(),
        (2f64.powi(53) + 2.0).to_bits(),
        f64::MAX.to_bits(),
        f64::MAX.to_bits() - 1,
        2f64.powi(1023).to_bits(),
        2f64.powi(-1022).to_bits(),
        2f64.powi(-1074).to_bits(),
        2f64.powi(-537).to_bits(),
        2f64.powi(512).to_bits(),
        f64::INFINITY.to_bits(),
        0x7ff8_0000_0000_0000,
        0x7ff0_0000_0000_0001,
        0x7ff8_dead_beef_0001,
        0x7ff4_0000_0000_0000,
        f32::MAX.to_bits() as u64,
        (f32::MAX as f64).to_bits(),
        ((f32::MAX as f64) * (1.0 + f64::EPSILON * 2f64.powi(28))).to_bits(),
        (f32::MIN_POSITIVE as f64).to_bits(),
        ((f32::MIN_POSITIVE as f64) / 2f64.powi(23)).to_bits(),
        ((f32::MIN_POSITIVE as f64) / 2f64.powi(24)).to_bits(),
        ((f32::MIN_POSITIVE as f64) / 2f64.powi(24) * 1.5).to_bits(),
    ];
    let negatives: Vec<u64> = v.iter().map(|x| x | (1 << 63)).collect();
    v.extend(negatives);
    v
}

/// `n` random pairs: uniformly random bits (every class), and pairs whose exponents differ by
/// at most 3 or by about 53 (cancellation, carries, the sticky bit), with random signs.
fn pairs(n: usize, seed: u64) -> (Vec<u64>, Vec<u64>) {
    let mut next = xorshift(seed);
    let mut a = Vec::with_capacity(n);
    let mut b = Vec::with_capacity(n);
    for i in 0..n {
        let x = next();
        let y = match i % 4 {
            0 => next(),
            1 => {
                let e = ((x >> 52) & 0x7ff) as i64 + (next() % 7) as i64 - 3;
                (x & (1 << 63)) ^ ((next() & 1) << 63)
                    | ((e.clamp(0, 0x7fe) as u64) << 52)
                    | (next() & 0x000f_ffff_ffff_ffff)
            }
            2 => {
                let e = ((x >> 52) & 0x7ff) as i64 - 50 - (next() % 8) as i64;
                ((next() & 1) << 63)
                    | ((e.clamp(0, 0x7fe) as u64) << 52)
                    | (next() & 0x000f_ffff_ffff_ffff)
            }
            // Small exponents: subnormal inputs and results.
            _ => ((next() & 1) << 63) | (next() % (3 << 52)),
        };
        let x = if i % 4 == 3 {
            ((next() & 1) << 63) | (next() % (3 << 52))
        } else {
            x
        };
        a.push(x);
        b.push(y);
    }
    let e = edges();
    for &x in &e {
        for &y in &e {
            a.push(x);
            b.push(y);
        }
    }
    (a, b)
}

fn is_nan(x: u64) -> bool {
    f64::from_bits(x).is_nan()
}

/// The GPU's `got` for `a op b` is x86's `want`: bit for bit, NaN included, except that when both
/// operands are NaN either one's (quieted) may come out (the host's compiler may swap the
/// operands of a commutative op).
fn same_result(a: u64, b: u64, got: u64, want: u64) -> bool {
    if is_nan(a) && is_nan(b) {
        let quiet = 1u64 << 51;
        return got == a | quiet || got == b | quiet;
    }
    got == want
}

/// The host's IEEE op a GPU op is compared with.
type HostOp = fn(f64, f64) -> f64;

#[test]
fn add_sub_mul_div_sqrt_are_correctly_rounded_bit_for_bit() {
    let Some(gpu) = gpu() else { return };
    // 10^7 pairs per op by default (the issue's floor), in chunks that fit one binding.
    let n: usize = std::env::var("GPUARRAY_SOFT_F64_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000_000);
    let chunk = 1 << 21;
    let ops: [(u32, &str, HostOp); 5] = [
        (0, "add", |x, y| x + y),
        (1, "sub", |x, y| x - y),
        (2, "mul", |x, y| x * y),
        (6, "div", |x, y| x / y),
        (7, "sqrt", |x, _| x.sqrt()),
    ];
    let t = std::time::Instant::now();
    let mut checked = 0;
    let mut bad = Vec::new();
    for c in 0..n.div_ceil(chunk) {
        let (a, b) = pairs(chunk.min(n - c * chunk), 0x05ee_df64 + c as u64);
        for (code, name, f) in ops {
            let got = gpu.run(code, &a, &b);
            for i in 0..a.len() {
                let want = f(f64::from_bits(a[i]), f64::from_bits(b[i])).to_bits();
                // sqrt reads only its first operand.
                let other = if code == 7 { a[i] } else { b[i] };
                if !same_result(a[i], other, got[i], want) {
                    bad.push(format!(
                        "{:016x} {name} {:016x}: got {:016x}, want {want:016x}",
                        a[i], b[i], got[i]
                    ));
                }
            }
        }
        checked += a.len();
    }
    println!(
        "add, sub, mul, div, sqrt: {checked} pairs each in {:.2} s, {} wrong",
        t.elapsed().as_secs_f64(),
        bad.len()
    );
    assert!(
        bad.is_empty(),
        "{} wrong, e.g.\n{}",
        bad.len(),
        bad[..bad.len().min(10)].join("\n")
    );
}

#[test]
fn comparisons_follow_ieee() {
    let Some(gpu) = gpu() else { return };
    let (a, b) = pairs(1 << 16, 0xc0de);
    let got = gpu.run(3, &a, &b);
    for i in 0..a.len() {
        let (x, y) = (f64::from_bits(a[i]), f64::from_bits(b[i]));
        let want = (u64::from(x < y)) | (u64::from(x == y) << 32);
        assert_eq!(got[i], want, "{:016x} vs {:016x}", a[i], b[i]);
    }
}

#[test]
fn f32_conversions_round_as_the_host() {
    let Some(gpu) = gpu() else { return };
    // f32 -> f64: every class of f32 bits (exact).
    let mut next = xorshift(0xf32);
    let mut bits: Vec<u64> = (0..1 << 16).map(|_| next() & 0xffff_ffff).collect();
    bits.extend([
        0,
        1,
        0x007f_ffff,
        0x0080_0000,
        0x7f80_0000,
        0x7fc0_0000,
        0x7f80_0001,
        0x7fa0_1234,
    ]);
    let signed: Vec<u64> = bits.iter().map(|b| b | 0x8000_0000).collect();
    bits.extend(signed);
    let zeros = vec![0u64; bits.len()];
    let got = gpu.run(4, &bits, &zeros);
    for (i, &b) in bits.iter().enumerate() {
        let want = (f32::from_bits(b as u32) as f64).to_bits();
        assert_eq!(got[i], want, "f32 {b:08x} -> f64");
    }
    // f64 -> f32: random bits of every class, and values near f32's rounding and range edges.
    let (a, _) = pairs(1 << 18, 0xf64);
    let got = gpu.run(5, &a, &a);
    for (i, &x) in a.iter().enumerate() {
        let want = u64::from((f64::from_bits(x) as f32).to_bits());
        assert_eq!(got[i], want, "f64 {x:016x} -> f32");
    }
}

/// A host op on f64 bits, beside its GPU op.
type BitsOp = fn(u64) -> u64;

/// A host op on two f64 bit patterns.
type PairOp = fn(u64, u64) -> u64;

/// x86's cvttsd2si: truncation, and 0x8000000000000000 for NaN, infinities and out of range.
fn cvttsd2si(x: f64) -> u64 {
    let limit = 2f64.powi(63);
    if x.is_nan() || !(-limit..limit).contains(&x) {
        return 1 << 63;
    }
    (x as i64) as u64
}

#[test]
fn rounding_and_integer_conversions_match_the_host() {
    let Some(gpu) = gpu() else { return };
    let (mut a, _) = pairs(1 << 20, 0x0123);
    // Values near integers, halfway cases and the 2^52/2^63 edges.
    let mut next = xorshift(0x4a1f);
    for _ in 0..(1 << 16) {
        let k = (next() % (1 << 54)) as f64 * if next() & 1 == 0 { 1.0 } else { -1.0 };
        let f = [0.0, 0.5, 0.25, 0.75, 1e-9, -0.5][(next() % 6) as usize];
        a.push((k / 4.0 + f).to_bits());
    }
    for v in [
        0.5f64,
        1.5,
        2.5,
        -0.5,
        -1.5,
        -2.5,
        4503599627370495.5,
        4503599627370496.0,
        -4503599627370495.5,
        9.223372036854775e18,
        -(2f64.powi(63)),
        2f64.powi(63),
        0.49999999999999994,
        -0.0,
        1e300,
        -1e-300,
    ] {
        a.push(f64::to_bits(v));
    }
    let unary: [(u32, &str, BitsOp); 5] = [
        (8, "trunc", |x| f64::from_bits(x).trunc().to_bits()),
        (9, "floor", |x| f64::from_bits(x).floor().to_bits()),
        (10, "ceil", |x| f64::from_bits(x).ceil().to_bits()),
        (11, "rint", |x| {
            f64::from_bits(x).round_ties_even().to_bits()
        }),
        (14, "to_i64", |x| cvttsd2si(f64::from_bits(x))),
    ];
    for (code, name, f) in unary {
        let got = gpu.run(code, &a, &a);
        for (i, &x) in a.iter().enumerate() {
            let want = f(x);
            // NaN in, NaN out (quieted): the payload is the input's.
            let ok = if is_nan(x) && code != 14 {
                got[i] == x | (1 << 51)
            } else {
                got[i] == want
            };
            assert!(
                ok,
                "{name}({x:016x}): got {:016x}, want {want:016x}",
                got[i]
            );
        }
    }
    // int64 and uint64 to f64, correctly rounded: random widths, ties of f64's 53 bits.
    let mut ints: Vec<u64> = (0..(1 << 18)).map(|_| next() >> (next() % 64)).collect();
    ints.extend([
        0,
        1,
        u64::MAX,
        1 << 63,
        (1 << 63) + 1,
        (1 << 53) + 1,
        (1 << 53) + 3,
        (1 << 54) + 2,
    ]);
    let signed: Vec<u64> = ints.iter().map(|v| v.wrapping_neg()).collect();
    ints.extend(signed);
    let got = gpu.run(12, &ints, &ints);
    for (i, &x) in ints.iter().enumerate() {
        assert_eq!(got[i], (x as i64 as f64).to_bits(), "i64 {x:016x} -> f64");
    }
    let got = gpu.run(13, &ints, &ints);
    for (i, &x) in ints.iter().enumerate() {
        assert_eq!(got[i], (x as f64).to_bits(), "u64 {x:016x} -> f64");
    }
}

/// NumPy's maximum/minimum (a NaN operand wins, the first of two; else `a` unless the other is
/// strictly past it), fmax/fmin (a NaN is ignored unless both are) and nextafter, on bits.
#[test]
fn extremes_and_nextafter_follow_numpy() {
    let Some(gpu) = gpu() else { return };
    let (a, b) = pairs(1 << 18, 0x3a3a);
    let cases: [(u32, &str, PairOp); 5] = [
        (15, "maximum", |x, y| {
            if is_nan(x) {
                x
            } else if is_nan(y) || f64::from_bits(x) < f64::from_bits(y) {
                y
            } else {
                x
            }
        }),
        (16, "minimum", |x, y| {
            if is_nan(x) {
                x
            } else if is_nan(y) || f64::from_bits(y) < f64::from_bits(x) {
                y
            } else {
                x
            }
        }),
        (17, "fmax", |x, y| {
            if is_nan(y) {
                x
            } else if is_nan(x) || f64::from_bits(x) < f64::from_bits(y) {
                y
            } else {
                x
            }
        }),
        (18, "fmin", |x, y| {
            if is_nan(y) {
                x
            } else if is_nan(x) || f64::from_bits(y) < f64::from_bits(x) {
                y
            } else {
                x
            }
        }),
        // The host's own neighbours (Rust's next_up/next_down), not a bit recipe.
        (19, "nextafter", |x, y| {
            let (fx, fy) = (f64::from_bits(x), f64::from_bits(y));
            if fx.is_nan() || fy.is_nan() {
                0x7ff8_0000_0000_0000
            } else if fx == fy {
                y
            } else if fy > fx {
                fx.next_up().to_bits()
            } else {
                fx.next_down().to_bits()
            }
        }),
    ];
    for (code, name, f) in cases {
        let got = gpu.run(code, &a, &b);
        for i in 0..a.len() {
            assert_eq!(
                got[i],
                f(a[i], b[i]),
                "{name}({:016x}, {:016x})",
                a[i],
                b[i]
            );
        }
    }
}

/// fma(a, b, c) with one rounding, against the host's `mul_add` (glibc's correctly rounded
/// fma): random triples of every class, products near c (cancellation) and tiny c's (sticky
/// bits), and the edge table; a NaN result only has to be a NaN (the NaN operand x86 picks
/// depends on the instruction form).
#[test]
fn fma_is_correctly_rounded() {
    let Some(gpu) = gpu() else { return };
    let (a, b) = pairs(1 << 20, 0xfa11);
    let mut next = xorshift(0xfa12);
    let c: Vec<u64> = a
        .iter()
        .zip(&b)
        .enumerate()
        .map(|(i, (&x, &y))| {
            let p = f64::from_bits(x) * f64::from_bits(y);
            match i % 4 {
                // About -p: the sum cancels to the product's rounding error.
                0 => (-p).to_bits() ^ (next() & 0xff),
                1 => next(),
                // Far smaller than p: only sticky bits.
                2 => (p * 2f64.powi(-60 - (next() % 20) as i32)).to_bits() ^ (next() & 0xffff),
                _ => (p * 0.5).to_bits() ^ (next() & 0xfff_ffff) ^ ((next() & 1) << 63),
            }
        })
        .collect();
    let got = gpu.run3(20, &a, &b, &c);
    let mut bad = Vec::new();
    for i in 0..a.len() {
        let want = f64::from_bits(a[i])
            .mul_add(f64::from_bits(b[i]), f64::from_bits(c[i]))
            .to_bits();
        let ok = if is_nan(want) {
            is_nan(got[i])
        } else {
            got[i] == want
        };
        if !ok {
            bad.push(format!(
                "fma({:016x}, {:016x}, {:016x}): got {:016x}, want {want:016x}",
                a[i], b[i], c[i], got[i]
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} wrong, e.g.\n{}",
        bad.len(),
        a.len(),
        bad[..bad.len().min(10)].join("\n")
    );
}
