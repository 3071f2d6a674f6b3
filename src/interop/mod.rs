//! Interoperation with the Rust and Python array ecosystems, behind optional cargo features:
//! `ndarray` (`ndarray.rs`: [`Array::from_ndarray`](crate::Array::from_ndarray),
//! [`Array::to_ndarray`](crate::Array::to_ndarray)) and `npy` (`npy.rs`: NumPy's `.npy` and
//! `.npz` files). Both sit above the other layers and use only the public `Array` API.

#[cfg(feature = "ndarray")]
pub(crate) mod ndarray;
#[cfg(all(feature = "npy", not(target_arch = "wasm32")))]
pub(crate) mod npy;
