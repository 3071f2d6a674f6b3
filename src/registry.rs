//! The kernel families every device is handed, and the constructors that hand them over.
//!
//! Each family is declared by the module that owns it (`ops/elementwise/families.rs`, ...) as a
//! [`KernelDef`]; this list is the one place that names them all. The device layer compiles,
//! caches and launches what it is given and names no family, so the public constructors of
//! [`Device`] live here, above every family.

use crate::Device;
use crate::device::{DeviceConfig, DeviceOptions, ShaderVariant};
use crate::device::{Families, KernelDef};
use crate::error::Result;
use crate::ops::elementwise::families as ew;
use crate::ops::matmul::families as mm;
use crate::ops::reduce::families as reduce;
use crate::ops::scan::families as scan;
use crate::ops::sort::families as sort;

/// Every kernel family, each declared by the module that owns it. The plans keep this order:
/// what `Device::new` compiles first, the named families (matmul, einsum's contractions on it,
/// then Philox) in the `families` plan, then per dtype the eager ones (element-wise, take,
/// reductions, scans); the rest compile on first use.
static FAMILIES: &[&KernelDef] = &[
    // Before `Device::new` returns.
    &crate::array::copy::COPY,
    &crate::ops::constructors::FILL,
    &crate::ops::constructors::SEQUENCE,
    // Named.
    &mm::MATMUL_SGB32,
    &mm::MATMUL_SGB16,
    &mm::MATMUL_SGB8,
    &mm::MATMUL_TILED,
    &mm::MATMUL_GEMV,
    &crate::random::families::PHILOX64,
    &crate::random::families::PHILOX,
    // Eager.
    &crate::array::copy::CAST,
    &ew::BINARY_FLOAT_VEC4,
    &ew::BINARY_INT_VEC4,
    &ew::COMPARE_VEC4,
    &ew::UNARY_FLOAT_VEC4,
    &ew::UNARY_INT_VEC4,
    &ew::PREDICATE_VEC4,
    &ew::BINARY_FLOAT,
    &ew::BINARY_INT,
    &ew::COMPARE,
    &ew::UNARY_FLOAT,
    &ew::UNARY_INT,
    &ew::PREDICATE,
    &ew::WHERE,
    &ew::WHERE_VEC4,
    &crate::ops::take::TAKE,
    &reduce::REDUCE_ROWS,
    &reduce::REDUCE_ROWS_F16,
    &reduce::REDUCE,
    &reduce::REDUCE_COLS,
    &reduce::ARGREDUCE,
    &scan::SCAN_TOTALS_VEC4,
    &scan::SCAN_BLOCKS_VEC4,
    &scan::SCAN_TOTALS,
    &scan::SCAN_BLOCKS,
    // On first use.
    &mm::MATMUL_NAIVE,
    &mm::MATMUL_PAIRS,
    &mm::OZAKI_EXPONENTS,
    &mm::OZAKI_RESIDUES,
    &mm::OZAKI_COMBINE,
    &sort::SORT_KEYS,
    &sort::SORT_LOCAL,
    &sort::SORT_GATHER,
    &sort::RADIX_COUNT,
    &sort::RADIX_SCATTER,
    &sort::SCATTER,
    &crate::ops::masks::COMPACT,
    &crate::ops::search::SEARCHSORTED,
    &crate::random::families::PHILOX_WIDE_SOFT,
    &crate::ops::elementwise::complex::COMPLEX_UNARY,
    &crate::ops::elementwise::complex::COMPLEX_REAL,
    &crate::ops::elementwise::complex::COMPLEX_PREDICATE,
    &crate::ops::elementwise::complex::COMPLEX_ARITH,
    &crate::ops::elementwise::complex::COMPLEX_COMPARE,
    &crate::fft::kernels::FFT_STOCKHAM,
    &crate::fft::kernels::FFT_CHIRP_PRE,
    &crate::fft::kernels::FFT_CHIRP_MUL,
    &crate::fft::kernels::FFT_CHIRP_POST,
    &crate::fft::kernels::FFT_TWIDDLE_ROWS,
    &crate::fft::kernels::FFT_REAL_POST,
    &crate::fft::kernels::FFT_REAL_PRE,
    &crate::fft::local::FFT_LOCAL,
    &crate::linalg::families::LU_PANEL,
    &crate::linalg::families::LU_U12,
    &crate::linalg::families::LU_SOLVE,
    &crate::linalg::families::CHOLESKY_PANEL,
    &crate::linalg::families::QR_FACTOR,
    &crate::linalg::families::QR_FORM_Q,
    &crate::linalg::families::QR_BLOCK_T,
    &crate::linalg::families::TSQR_SIGNS,
    &crate::linalg::families::TRIDIAGONAL_COLUMN,
    &crate::linalg::families::TRIDIAGONAL_CORRECT,
    &crate::linalg::families::MATRIX_T_TIMES,
    &crate::linalg::families::MATRIX_ROWS_TIMES,
    &crate::linalg::families::TQL_STEPS,
    &crate::linalg::families::BIDIAGONAL_LEFT,
    &crate::linalg::families::BIDIAGONAL_RIGHT,
    &crate::linalg::families::BIDIAGONAL_FINISH,
    &crate::linalg::families::BDSQR_STEPS,
    &crate::linalg::families::ROTATE,
    &crate::linalg::families::EIGH_JACOBI,
    &crate::linalg::families::SVD_JACOBI,
    &crate::linalg::families::SVD_ROUND,
    &crate::linalg::families::EIGH_ROUND_ROWS,
    &crate::linalg::families::EIGH_ROUND_COLS,
    &crate::linalg::families::SMALL_SOLVE,
    &crate::linalg::families::SWAP_ROWS,
    &crate::linalg::families::SMALL_CHOLESKY,
    #[cfg(not(target_arch = "wasm32"))]
    &crate::ops::counting::BINCOUNT,
    #[cfg(not(target_arch = "wasm32"))]
    &crate::ops::counting::weighted::BINCOUNT_WEIGHTS,
];

fn families() -> Families {
    FAMILIES
}

/// The blocking constructors: native only. A browser cannot block its thread, so on wasm32 they
/// do not exist (a compile error, not a run-time panic); use the `_async` versions, which exist
/// on every target.
#[cfg(not(target_arch = "wasm32"))]
impl Device {
    /// The best adapter the environment allows (see [`DeviceConfig::from_env`]): a discrete GPU
    /// before an integrated one, before a CPU adapter such as lavapipe.
    ///
    /// Native only (it blocks); on wasm32 use [`Device::new_async`].
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::new()?;
    /// println!("running on {}", dev.info());
    /// # Ok(()) }
    /// ```
    pub fn new() -> Result<Device> {
        Device::with_config(DeviceConfig::from_env()?)
    }

    /// A device chosen by `options`; other settings from the environment.
    ///
    /// Native only (it blocks); on wasm32 use [`Device::with_options_async`].
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let dev = gpuarray::Device::with_options(gpuarray::DeviceOptions::default())?;
    /// assert!(!dev.info().name.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn with_options(options: DeviceOptions) -> Result<Device> {
        Device::with_config(DeviceConfig {
            options,
            ..DeviceConfig::from_env()?
        })
    }

    /// A device with every setting explicit.
    ///
    /// Native only (it blocks); on wasm32 use [`Device::with_config_async`].
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// let config = gpuarray::DeviceConfig { max_binding_size: Some(1 << 24), ..Default::default() };
    /// let dev = gpuarray::Device::with_config(config)?;
    /// assert!(dev.info().max_storage_buffer_binding_size <= 1 << 24);
    /// # Ok(()) }
    /// ```
    pub fn with_config(config: DeviceConfig) -> Result<Device> {
        // Native wgpu resolves the adapter and device requests at once: this never waits long.
        pollster::block_on(Device::with_config_async(config))
    }
}

impl Device {
    /// [`Device::new`] for async callers, and the constructor on wasm32 (WebGPU in a browser,
    /// where the environment variables read by [`DeviceConfig::from_env`] are simply absent).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// let dev = gpuarray::Device::new_async().await?;
    /// let a = gpuarray::Array::from_slice(&dev, &[1.0f32, 2.0], &[2])?;
    /// assert_eq!(a.add(&a)?.to_vec_async::<f32>().await?, vec![2.0, 4.0]);
    /// dev.synchronize_async().await?;
    /// # Ok(()) }) }
    /// ```
    pub async fn new_async() -> Result<Device> {
        Device::with_config_async(DeviceConfig::from_env()?).await
    }

    /// [`Device::with_options`] for async callers (and wasm32).
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// let opts = gpuarray::DeviceOptions::default();
    /// let dev = gpuarray::Device::with_options_async(opts).await?;
    /// println!("{}", dev.info());
    /// # Ok(()) }) }
    /// ```
    pub async fn with_options_async(options: DeviceOptions) -> Result<Device> {
        Device::with_config_async(DeviceConfig {
            options,
            ..DeviceConfig::from_env()?
        })
        .await
    }

    /// [`Device::with_config`] for async callers (and wasm32). In a browser it also awaits the
    /// start-up kernels' compilation results, so a kernel the browser's WGSL compiler rejects is
    /// an `Err` here.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> { pollster::block_on(async {
    /// let config = gpuarray::DeviceConfig { max_binding_size: Some(1 << 24), ..Default::default() };
    /// let dev = gpuarray::Device::with_config_async(config).await?;
    /// assert!(dev.info().max_storage_buffer_binding_size <= 1 << 24);
    /// # Ok(()) }) }
    /// ```
    pub async fn with_config_async(config: DeviceConfig) -> Result<Device> {
        Device::start(config, families()).await
    }
}

/// Every shader variant the crate ships, for every dtype (what an adapter with every feature
/// compiles at start-up).
///
/// ```
/// let variants = gpuarray::shader_variants();
/// assert!(variants.iter().any(|v| v.label == "cast[f32->f64]"));
/// ```
pub fn shader_variants() -> Vec<ShaderVariant> {
    crate::device::shader_variants(families())
}

/// Every pipeline the eager start-up plan compiles on an adapter with every feature and dtype,
/// as the driver receives it: the variant's WGSL with each `switch` on an override reduced to
/// the case the pipeline's constants select. Labels carry those constants
/// (`binary_float_vec4[f32]{OP=0,SCALAR=0}`). A pipeline the specializer refuses (an `OP` code
/// without a `case`; a unit test keeps the plan free of them) is left out.
///
/// ```
/// let pipelines = gpuarray::shader_pipelines();
/// let add = pipelines
///     .iter()
///     .find(|p| p.label == "binary_float_vec4[f32]{OP=0,SCALAR=0}")
///     .unwrap();
/// // Only `add`'s case of the op switch is left.
/// assert!(add.wgsl.contains("return a + b;") && !add.wgsl.contains("logaddexp_(a, b, true)"));
/// ```
pub fn shader_pipelines() -> Vec<ShaderVariant> {
    crate::device::shader_pipelines(families()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_eager_pipeline_specializes() {
        // An op in the table whose kernel file lacks its `case` fails here.
        let pipelines = crate::device::shader_pipelines(super::families());
        assert!(pipelines.is_ok(), "{}", pipelines.err().unwrap());
    }

    #[test]
    fn the_plans_nest_and_a_saved_choice_leaves_one_subgroup_kernel() {
        use crate::device::startup::background;
        use crate::device::{Adapter, CompileMode};
        use crate::dtype::DType;
        let dtypes = [DType::F32, DType::I32, DType::U32, DType::Bool];
        let a = Adapter {
            dtypes: &dtypes,
            subgroups_of_8: true,
            int64: true,
            is_cpu: true,
            f16_packed: false,
            chosen: None,
        };
        let eager = background(CompileMode::Eager, &a, super::families());
        let named = background(CompileMode::Families, &a, super::families());
        assert!(background(CompileMode::Lazy, &a, super::families()).is_empty());
        assert!(named.len() < eager.len());
        assert!(named.iter().all(|k| eager.contains(k)));
        let distinct: std::collections::HashSet<_> = eager.iter().collect();
        assert_eq!(distinct.len(), eager.len(), "no key twice");
        // Matmul first, then Philox; no element-wise pipeline in the named plan.
        assert_eq!(named[0].label(), "matmul_sgb32x8[f32]{WGY=2}");
        assert!(named.iter().all(|k| !k.label().starts_with("binary_")));
        // A saved tune leaves one subgroup kernel of the three.
        let chosen = ["matmul_sgb16x8".to_string()];
        let tuned = background(
            CompileMode::Families,
            &Adapter {
                chosen: Some(&chosen),
                ..a
            },
            super::families(),
        );
        assert_eq!(tuned.len(), named.len() - 2);
        assert!(
            tuned
                .iter()
                .any(|k| k.label() == "matmul_sgb16x8[f32]{WGY=2}")
        );
    }

    #[test]
    fn family_names_are_distinct() {
        let mut names: Vec<&str> = super::families().iter().map(|f| f.name).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n);
    }
}
