//! The host side of each kernel family: building parameters, splitting launches into blocks
//! that fit the adapter's limits, and recording them.

pub(crate) mod copy;
pub(crate) mod fill;
pub(crate) mod params;
pub(crate) mod take;
