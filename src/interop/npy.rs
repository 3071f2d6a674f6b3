//! NumPy's `.npy` and `.npz` files (feature `npy`), through the `npyz` crate (the archive
//! through `zip`): load and save arrays of every gpuarray dtype (bool as NumPy's `|b1`), C or
//! Fortran order, little- or big-endian. Other dtypes (complex, strings, structured, ...) are
//! `Err(Unsupported)` naming them; a truncated or corrupt file is `Err(InvalidFile)`, never a
//! panic, and data is never allocated for more elements than the file really holds.
//!
//! Native only: reading an array back to write it blocks.

use crate::array::Array;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use npyz::{Deserialize, NpyHeader, TypeChar, WriterBuilder};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

fn io_error(op: &'static str, path: &Path, e: io::Error) -> Error {
    Error::Io {
        op,
        path: path.display().to_string(),
        msg: e.to_string(),
    }
}

fn invalid(op: &'static str, path: &Path, msg: impl Into<String>) -> Error {
    Error::InvalidFile {
        op,
        path: path.display().to_string(),
        msg: msg.into(),
    }
}

/// A reader that counts the bytes taken from it (the header's length).
struct Counting<R> {
    inner: R,
    count: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count += n as u64;
        Ok(n)
    }
}

/// NumPy's name of a `.npy` dtype (`int64`, `complex128`, ...) for error messages.
fn numpy_name(dtype: &npyz::DType) -> String {
    match dtype {
        npyz::DType::Plain(t) => {
            let bits = t.size_field() * 8;
            let kind = match t.type_char() {
                TypeChar::Bool => return "bool".into(),
                TypeChar::Int => "int",
                TypeChar::Uint => "uint",
                TypeChar::Float => "float",
                TypeChar::Complex => "complex",
                TypeChar::TimeDelta => "timedelta",
                TypeChar::DateTime => "datetime",
                TypeChar::ByteStr => "bytes",
                TypeChar::UnicodeStr => "str",
                TypeChar::RawData => "void",
                TypeChar::Object => "object",
                _ => "dtype ",
            };
            format!("{kind}{bits} ({t})")
        }
        other => format!("structured dtype {}", other.descr()),
    }
}

/// gpuarray's dtype for a `.npy` dtype, or `Err(Unsupported)` naming it.
fn dtype_of(op: &'static str, path: &Path, dtype: &npyz::DType) -> Result<DType> {
    if let npyz::DType::Plain(t) = dtype {
        let ours = match (t.type_char(), t.size_field()) {
            (TypeChar::Float, 2) => Some(DType::F16),
            (TypeChar::Float, 4) => Some(DType::F32),
            (TypeChar::Float, 8) => Some(DType::F64),
            (TypeChar::Int, 4) => Some(DType::I32),
            (TypeChar::Uint, 4) => Some(DType::U32),
            (TypeChar::Bool, 1) => Some(DType::Bool),
            (TypeChar::Int, 8) => Some(DType::I64),
            (TypeChar::Uint, 8) => Some(DType::U64),
            (TypeChar::Int, 1) => Some(DType::I8),
            (TypeChar::Uint, 1) => Some(DType::U8),
            (TypeChar::Int, 2) => Some(DType::I16),
            (TypeChar::Uint, 2) => Some(DType::U16),
            (TypeChar::Complex, 8) => Some(DType::C64),
            (TypeChar::Complex, 16) => Some(DType::C128),
            _ => None,
        };
        if let Some(d) = ours {
            return Ok(d);
        }
    }
    Err(Error::Unsupported {
        op,
        feature: format!(
            "{}: dtype {} (gpuarray has float16/32/64, int8/16/32/64, uint8/16/32/64, bool and complex64/128)",
            path.display(),
            numpy_name(dtype)
        ),
    })
}

/// Reads `n` elements, growing the vector only as data arrives (a header that claims more
/// than the file holds cannot make us allocate it).
fn read_elements<T: Deserialize, R: Read>(
    op: &'static str,
    path: &Path,
    header: NpyHeader,
    reader: R,
    n: usize,
) -> Result<Vec<T>> {
    let dtype = header.dtype();
    let data = npyz::NpyFile::with_header(header, reader)
        .data::<T>()
        .map_err(|e| invalid(op, path, format!("dtype {}: {e}", dtype.descr())))?;
    let mut out = Vec::with_capacity(n.min(1 << 20));
    for x in data {
        out.push(x.map_err(|e| {
            if e.kind() == io::ErrorKind::UnexpectedEof {
                invalid(
                    op,
                    path,
                    "the data ends before the header's shape is filled (truncated)",
                )
            } else {
                invalid(op, path, e.to_string())
            }
        })?);
    }
    if out.len() != n {
        return Err(invalid(
            op,
            path,
            format!("{} elements read, the header says {n}", out.len()),
        ));
    }
    Ok(out)
}

/// One array from a reader at the start of a `.npy` stream holding `available` bytes (when
/// known) — a file, or an entry of an `.npz` archive.
fn read_npy(
    op: &'static str,
    path: &Path,
    device: &Device,
    reader: impl Read,
    available: Option<u64>,
) -> Result<Array> {
    let mut counting = Counting {
        inner: reader,
        count: 0,
    };
    let header = NpyHeader::from_reader(&mut counting).map_err(|e| {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            invalid(op, path, "the file ends inside the .npy header (truncated)")
        } else {
            invalid(op, path, format!("not a .npy header: {e}"))
        }
    })?;
    let dtype = dtype_of(op, path, &header.dtype())?;
    let shape: Vec<usize> = header
        .shape()
        .iter()
        .map(|&n| usize::try_from(n))
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| invalid(op, path, format!("shape {:?} does not fit", header.shape())))?;
    let n = shape
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .filter(|&n| n <= isize::MAX as usize)
        .ok_or_else(|| invalid(op, path, format!("shape {shape:?} overflows")))?;
    let item = header.dtype().num_bytes().unwrap_or(0) as u64;
    let need = (n as u64).checked_mul(item);
    if let (Some(have), Some(need)) = (available.map(|a| a.saturating_sub(counting.count)), need) {
        if have < need {
            return Err(invalid(
                op,
                path,
                format!(
                    "the header's shape {shape:?} of {} needs {need} data bytes, the file has \
                     {have} (truncated)",
                    numpy_name(&header.dtype())
                ),
            ));
        }
    }
    let fortran = header.order() == npyz::Order::Fortran;
    // Fortran order is the reversed shape in C order, transposed back.
    let file_shape: Vec<usize> = if fortran {
        shape.iter().rev().copied().collect()
    } else {
        shape.clone()
    };
    let reader = counting.inner;
    // Each dtype's elements through its own host type (npyz swaps big-endian files).
    macro_rules! plain {
        ($t:ty) => {
            Array::from_slice(
                device,
                &read_elements::<$t, _>(op, path, header, reader, n)?,
                &file_shape,
            )
        };
    }
    let a = match dtype {
        DType::C64 => plain!(num_complex::Complex<f32>),
        DType::C128 => plain!(num_complex::Complex<f64>),
        DType::I64 => plain!(i64),
        DType::U64 => plain!(u64),
        DType::I8 => plain!(i8),
        DType::U8 => plain!(u8),
        DType::I16 => plain!(i16),
        DType::U16 => plain!(u16),
        DType::F32 => Array::from_slice(
            device,
            &read_elements::<f32, _>(op, path, header, reader, n)?,
            &file_shape,
        ),
        DType::F64 => Array::from_slice(
            device,
            &read_elements::<f64, _>(op, path, header, reader, n)?,
            &file_shape,
        ),
        DType::F16 => Array::from_slice(
            device,
            &read_elements::<half::f16, _>(op, path, header, reader, n)?,
            &file_shape,
        ),
        DType::I32 => Array::from_slice(
            device,
            &read_elements::<i32, _>(op, path, header, reader, n)?,
            &file_shape,
        ),
        DType::U32 => Array::from_slice(
            device,
            &read_elements::<u32, _>(op, path, header, reader, n)?,
            &file_shape,
        ),
        DType::Bool => Array::from_bools(
            device,
            &read_elements::<bool, _>(op, path, header, reader, n)?,
            &file_shape,
        ),
    }?;
    if fortran && shape.len() > 1 {
        let axes: Vec<usize> = (0..shape.len()).rev().collect();
        a.transpose(&axes)?.contiguous()
    } else {
        Ok(a)
    }
}

impl Array {
    /// Loads a NumPy `.npy` file (feature `npy`): every gpuarray dtype, C or Fortran order,
    /// either byte order. The result is contiguous.
    ///
    /// Errors: `Err(Io)` when the file cannot be read, `Err(InvalidFile)` when it is not a valid
    /// `.npy` file (wrong magic, corrupt header, truncated data), `Err(Unsupported)` naming the
    /// dtype when gpuarray has none like it (complex, datetime, ...), and the device's errors.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// let path = std::env::temp_dir().join(format!("gpuarray-doc-{}.npy", std::process::id()));
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// a.save_npy(&path)?;
    /// let b = gpuarray::Array::load_npy(&dev, &path)?;
    /// assert_eq!((b.shape(), b.to_vec::<f32>()?), (&[2usize, 2][..], vec![1.0, 2.0, 3.0, 4.0]));
    /// # std::fs::remove_file(&path).ok();
    /// # Ok(()) }
    /// ```
    pub fn load_npy(device: &Device, path: impl AsRef<Path>) -> Result<Array> {
        let op = "load_npy";
        let path = path.as_ref();
        let file = File::open(path).map_err(|e| io_error(op, path, e))?;
        let len = file.metadata().map_err(|e| io_error(op, path, e))?.len();
        read_npy(op, path, device, BufReader::new(file), Some(len))
    }

    /// Saves the array as a NumPy `.npy` file (feature `npy`): C order, little-endian, NumPy's
    /// dtype (`<f4`, `<f2`, `<f8`, `<i4`, `<u4`, `|b1`, `<i8`, `<u8`, `|i1`, `|u1`, `<i2`, `<u2`).
    /// `np.load` reads it.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// let path = std::env::temp_dir().join(format!("gpuarray-doc-save-{}.npy", std::process::id()));
    /// gpuarray::Array::from_bools(&dev, &[true, false], &[2])?.save_npy(&path)?;
    /// assert_eq!(gpuarray::Array::load_npy(&dev, &path)?.to_vec_bool()?, vec![true, false]);
    /// # std::fs::remove_file(&path).ok();
    /// # Ok(()) }
    /// ```
    pub fn save_npy(&self, path: impl AsRef<Path>) -> Result<()> {
        let op = "save_npy";
        let path = path.as_ref();
        let file = File::create(path).map_err(|e| io_error(op, path, e))?;
        let mut out = BufWriter::new(file);
        write_to(op, path, self, &mut out)?;
        out.flush().map_err(|e| io_error(op, path, e))
    }
}

/// Writes `a` as one `.npy` stream into `w`: C order, little-endian, NumPy's dtype for it.
fn write_to(op: &'static str, path: &Path, a: &Array, w: impl Write) -> Result<()> {
    fn put<T: npyz::AutoSerialize, W: Write>(w: W, shape: &[u64], v: Vec<T>) -> io::Result<()> {
        let mut out = npyz::WriteOptions::new()
            .default_dtype()
            .shape(shape)
            .writer(w)
            .begin_nd()?;
        out.extend(v)?;
        out.finish()
    }
    let shape: Vec<u64> = a.shape().iter().map(|&n| n as u64).collect();
    let written = match a.dtype() {
        DType::F32 => put(w, &shape, a.to_vec::<f32>()?),
        DType::F64 => put(w, &shape, a.to_vec::<f64>()?),
        DType::F16 => put(w, &shape, a.to_vec::<half::f16>()?),
        DType::I32 => put(w, &shape, a.to_vec::<i32>()?),
        DType::U32 => put(w, &shape, a.to_vec::<u32>()?),
        DType::Bool => put(w, &shape, a.to_vec_bool()?),
        DType::I64 => put(w, &shape, a.to_vec::<i64>()?),
        DType::U64 => put(w, &shape, a.to_vec::<u64>()?),
        DType::I8 => put(w, &shape, a.to_vec::<i8>()?),
        DType::U8 => put(w, &shape, a.to_vec::<u8>()?),
        DType::I16 => put(w, &shape, a.to_vec::<i16>()?),
        DType::U16 => put(w, &shape, a.to_vec::<u16>()?),
        DType::C64 => put(w, &shape, a.to_vec::<num_complex::Complex<f32>>()?),
        DType::C128 => put(w, &shape, a.to_vec::<num_complex::Complex<f64>>()?),
    };
    written.map_err(|e| io_error(op, path, e))
}

/// Saves arrays into an uncompressed `.npz` archive, as `numpy.savez(path, name=a, ...)`
/// (feature `npy`). `np.load(path)` reads it; so does [`load_npz`].
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// let dev = gpuarray::Device::new()?;
/// let path = std::env::temp_dir().join(format!("gpuarray-doc-{}.npz", std::process::id()));
/// let x = gpuarray::Array::arange(&dev, 0.0, 4.0, 1.0, gpuarray::DType::I32)?;
/// let y = gpuarray::Array::from_slice(&dev, &[0.5f64], &[])?;
/// gpuarray::savez(&path, &[("x", &x), ("y", &y)])?;
/// let loaded = gpuarray::load_npz(&dev, &path)?;
/// assert_eq!(loaded.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["x", "y"]);
/// assert_eq!(loaded[0].1.to_vec::<i32>()?, vec![0, 1, 2, 3]);
/// # std::fs::remove_file(&path).ok();
/// # Ok(()) }
/// ```
pub fn savez(path: impl AsRef<Path>, arrays: &[(&str, &Array)]) -> Result<()> {
    save_archive(
        "savez",
        path.as_ref(),
        arrays,
        zip::CompressionMethod::Stored,
    )
}

/// [`savez`] with deflate compression, as `numpy.savez_compressed` (feature `npy`).
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// let dev = gpuarray::Device::new()?;
/// let path = std::env::temp_dir().join(format!("gpuarray-doc-z-{}.npz", std::process::id()));
/// let z = gpuarray::Array::zeros(&dev, &[1000], gpuarray::DType::F32)?;
/// gpuarray::savez_compressed(&path, &[("z", &z)])?;
/// assert!(std::fs::metadata(&path).unwrap().len() < 1000);   // 4000 bytes of zeros, deflated
/// assert_eq!(gpuarray::load_npz(&dev, &path)?[0].1.to_vec::<f32>()?, vec![0.0; 1000]);
/// # std::fs::remove_file(&path).ok();
/// # Ok(()) }
/// ```
pub fn savez_compressed(path: impl AsRef<Path>, arrays: &[(&str, &Array)]) -> Result<()> {
    save_archive(
        "savez_compressed",
        path.as_ref(),
        arrays,
        zip::CompressionMethod::Deflated,
    )
}

fn save_archive(
    op: &'static str,
    path: &Path,
    arrays: &[(&str, &Array)],
    method: zip::CompressionMethod,
) -> Result<()> {
    let mut seen = std::collections::HashSet::new();
    for (name, _) in arrays {
        if name.is_empty() || !seen.insert(*name) {
            return Err(Error::invalid(
                op,
                format!("array names must be non-empty and distinct; {name:?} is not"),
            ));
        }
    }
    let file = File::create(path).map_err(|e| io_error(op, path, e))?;
    let mut zip = zip::ZipWriter::new(BufWriter::new(file));
    let options = zip::write::FileOptions::default()
        .compression_method(method)
        .large_file(
            arrays
                .iter()
                .any(|(_, a)| a.len() as u64 * a.dtype().size_bytes() >= 1 << 32),
        );
    for (name, a) in arrays {
        zip.start_file(npyz::npz::file_name_from_array_name(name), options)
            .map_err(|e| io_error(op, path, e.into()))?;
        write_to(op, path, a, &mut zip)?;
    }
    let mut inner = zip.finish().map_err(|e| io_error(op, path, e.into()))?;
    inner.flush().map_err(|e| io_error(op, path, e))
}

/// Loads every array of a NumPy `.npz` archive (`numpy.savez` or `savez_compressed`), in the
/// archive's order, with their names (feature `npy`). Errors as [`Array::load_npy`]'s, naming
/// the archive and the entry.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// let dev = gpuarray::Device::new()?;
/// let path = std::env::temp_dir().join(format!("gpuarray-doc-load-{}.npz", std::process::id()));
/// let a = gpuarray::Array::eye(&dev, 2, gpuarray::DType::F32)?;
/// gpuarray::savez(&path, &[("eye", &a)])?;
/// let (name, b) = &gpuarray::load_npz(&dev, &path)?[0];
/// assert_eq!((name.as_str(), b.to_vec::<f32>()?), ("eye", vec![1.0, 0.0, 0.0, 1.0]));
/// # std::fs::remove_file(&path).ok();
/// # Ok(()) }
/// ```
pub fn load_npz(device: &Device, path: impl AsRef<Path>) -> Result<Vec<(String, Array)>> {
    let op = "load_npz";
    let path = path.as_ref();
    let file = File::open(path).map_err(|e| io_error(op, path, e))?;
    let mut zip = zip::ZipArchive::new(BufReader::new(file))
        .map_err(|e| invalid(op, path, format!("not a .npz (zip) archive: {e}")))?;
    let mut out = Vec::with_capacity(zip.len());
    for i in 0..zip.len() {
        let mut entry = zip
            .by_index(i)
            .map_err(|e| invalid(op, path, format!("entry {i}: {e}")))?;
        let file_name = entry.name().to_string();
        let Some(name) = npyz::npz::array_name_from_file_name(&file_name) else {
            return Err(invalid(
                op,
                path,
                format!("entry {file_name:?} is not an .npy file"),
            ));
        };
        let name = name.to_string();
        let entry_path = Path::new(&file_name);
        let size = entry.size();
        let a = read_npy(op, &path.join(entry_path), device, &mut entry, Some(size))?;
        out.push((name, a));
    }
    Ok(out)
}
