//! `numpy.nan_to_num`: NaN and infinities replaced by finite values, as three `where_`s over
//! masks of the input (so a replacement that is itself infinite or NaN is kept, as in NumPy,
//! whose assignments also read masks of the original array).

use crate::array::Array;
use crate::dtype::DType;
use crate::error::Result;

impl Array {
    /// `numpy.nan_to_num(a, nan=nan, posinf=posinf, neginf=neginf)`: NaN becomes `nan`, +inf
    /// `posinf` and -inf `neginf` (`None`: the dtype's largest or most negative finite value).
    /// Integer and bool arrays come back as a copy, as in NumPy.
    ///
    /// ```
    /// # fn main() -> gpuarray::Result<()> {
    /// # let dev = gpuarray::Device::new()?;
    /// let a = gpuarray::Array::from_slice(&dev, &[f32::NAN, f32::INFINITY, -f32::INFINITY, 1.5], &[4])?;
    /// let r = a.nan_to_num(0.0, None, Some(-1.0))?;
    /// assert_eq!(r.to_vec::<f32>()?, vec![0.0, f32::MAX, -1.0, 1.5]);
    /// # Ok(()) }
    /// ```
    pub fn nan_to_num(&self, nan: f64, posinf: Option<f64>, neginf: Option<f64>) -> Result<Array> {
        let largest = match self.dtype() {
            DType::F64 => f64::MAX,
            DType::F32 => f64::from(f32::MAX),
            DType::F16 => f64::from(crate::f16::MAX),
            // Integers and bool hold no NaN or infinity: a copy, as in NumPy.
            _ => return self.astype(self.dtype()),
        };
        let is_nan = self.isnan()?;
        let is_pos = self.eq(f64::INFINITY)?;
        let is_neg = self.eq(f64::NEG_INFINITY)?;
        let r = super::where_(&is_nan, nan, self)?;
        let r = super::where_(&is_pos, posinf.unwrap_or(largest), &r)?;
        super::where_(&is_neg, neginf.unwrap_or(-largest), &r)
    }
}
