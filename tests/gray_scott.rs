//! The native demo (`examples/gray_scott.rs`): its simulation, written with gpuarray ops, gives
//! the CPU loop's field after many steps; its picture is the host colouring of that field; the
//! PNG it writes decodes (with the `png` crate) to the stated size and the same pixels, and is
//! not blank.

mod common;

#[path = "../examples/support/gray_scott.rs"]
mod gray_scott;
#[path = "../examples/support/png_out.rs"]
mod png_out;

use gray_scott::{CORAL, CpuSimulation, Simulation, colour_host};

#[test]
fn the_field_after_many_steps_is_the_cpu_loops_and_the_png_decodes() {
    let Some(dev) = common::device() else { return };
    let (n, steps) = (64usize, 400usize);
    let mut sim = Simulation::new(&dev, n, 11, CORAL).unwrap();
    let (u0, v0) = (
        sim.u.to_vec::<f32>().unwrap(),
        sim.v.to_vec::<f32>().unwrap(),
    );
    // The seed put spots on the grid, and only there.
    let seeded = v0.iter().filter(|&&v| v > 0.0).count();
    assert!(seeded > 0 && seeded < n * n, "{seeded} seeded cells");
    let mut cpu = CpuSimulation::new(n, u0, v0, CORAL);
    for _ in 0..steps {
        sim.step().unwrap();
        cpu.step();
    }
    // f32 steps in the same order; an adapter that contracts a·b + c into an fma may differ
    // in the last bits, which the reaction keeps small over these steps.
    for (name, got, want) in [
        ("u", sim.u.to_vec::<f32>().unwrap(), &cpu.u),
        ("v", sim.v.to_vec::<f32>().unwrap(), &cpu.v),
    ] {
        let worst = got
            .iter()
            .zip(want)
            .fold(0.0f32, |m, (a, b)| m.max((a - b).abs()));
        assert!(worst <= 1e-4, "{name}: largest difference {worst:e}");
    }
    // The picture: the device's colouring of v is the host's, to one level (the field may
    // differ in its last bits).
    let rgb = sim.image().unwrap();
    assert_eq!(rgb.shape(), &[n, n, 3]);
    let rgb = rgb.to_vec::<u8>().unwrap();
    let want = colour_host(&cpu.v);
    let off = rgb
        .iter()
        .zip(&want)
        .filter(|(a, b)| a.abs_diff(**b) > 1)
        .count();
    assert_eq!(off, 0, "{off} channels differ by more than one level");
    // The PNG: decoded by the png crate, the stated size, RGB8, our pixels, not blank.
    let path = std::env::temp_dir().join(format!("gpuarray_gray_scott_{}.png", std::process::id()));
    png_out::write_rgb_png(&path, n, n, &rgb).unwrap();
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0u8; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!((info.width, info.height), (n as u32, n as u32));
    assert_eq!(
        (info.color_type, info.bit_depth),
        (png::ColorType::Rgb, png::BitDepth::Eight)
    );
    assert_eq!(&pixels[..info.buffer_size()], &rgb[..]);
    let mean = rgb.iter().map(|&b| b as f64).sum::<f64>() / rgb.len() as f64;
    let variance = rgb.iter().map(|&b| (b as f64 - mean).powi(2)).sum::<f64>() / rgb.len() as f64;
    assert!(
        variance > 500.0,
        "the picture is nearly flat (variance {variance:.1})"
    );
}
