//! The entry points of the sorting shaders (`shaders/sort.wgsl`, `shaders/radix.wgsl`), each
//! a kernel of the registry (`Kernel::Sort`, `Kernel::Radix`).

/// The entry points of `shaders/sort.wgsl`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum SortPass {
    /// Keys and indices of every element, padding included (both sorts start here).
    Keys,
    /// The bitonic network of rows that fit one block of 2 WG, in workgroup memory.
    Local,
}

impl SortPass {
    pub(super) const ALL: [SortPass; 2] = [SortPass::Keys, SortPass::Local];

    pub(super) fn entry(self) -> &'static str {
        match self {
            SortPass::Keys => "keys",
            SortPass::Local => "sort_local",
        }
    }
}

/// The entry points of `shaders/radix.wgsl`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum RadixPass {
    /// Each chunk's digit histogram.
    Count,
    /// Each chunk's pairs to their places.
    Scatter,
}
