//! Writing an 8-bit RGB picture as a PNG file (the `png` crate), for the native demos.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

/// Writes `rgb` (`width` × `height` pixels, three bytes each, rows top to bottom) to `path`.
pub fn write_rgb_png(path: &Path, width: usize, height: usize, rgb: &[u8]) -> std::io::Result<()> {
    assert_eq!(
        rgb.len(),
        width * height * 3,
        "an RGB picture of {width} x {height}"
    );
    let file = BufWriter::new(File::create(path)?);
    let mut encoder = png::Encoder::new(file, width as u32, height as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
    writer
        .write_image_data(rgb)
        .map_err(std::io::Error::other)?;
    writer.finish().map_err(std::io::Error::other)
}
