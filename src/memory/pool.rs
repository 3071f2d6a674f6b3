//! A caching pool of whole GPU buffers in size classes (the CuPy/PyTorch caching allocator,
//! simplified to exact class matches because wgpu gives each array its own buffer: binding one
//! buffer twice as read and read_write is a validation error, so arenas shared by arrays would
//! force every binding to be read_write).
//!
//! The pool is generic over [`Backing`] so its accounting is tested without a GPU.

use crate::error::{Error, Result};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// Where pooled buffers come from.
pub(crate) trait Backing: Send + Sync + 'static {
    /// The buffer handle.
    type Buffer: Send + Sync + 'static;
    /// Allocates `bytes` (already a size class). `Err` means the allocator ran out of memory.
    fn alloc(&self, bytes: u64) -> std::result::Result<Self::Buffer, String>;
    /// Gives a buffer back to the allocator for good.
    fn release(&self, buffer: Self::Buffer);
    /// Called after [`Backing::release`] calls so deferred frees happen (wgpu frees on poll).
    fn collect(&self) {}
}

/// Counters of the caching pool, returned by [`Device::memory_stats`](crate::Device::memory_stats).
///
/// Byte counts are of size classes (what the pool really holds), not of requests.
///
/// ```
/// # fn main() -> gpuarray::Result<()> {
/// let dev = gpuarray::Device::new()?;
/// let s = dev.memory_stats();
/// println!("{} bytes in use, {} cached, peak {}", s.in_use_bytes, s.cached_bytes, s.peak_bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemoryStats {
    /// Bytes held by live arrays.
    pub in_use_bytes: u64,
    /// Bytes held in the cache, free for reuse.
    pub cached_bytes: u64,
    /// Highest `in_use_bytes` seen.
    pub peak_bytes: u64,
    /// Buffers created by the allocator (cache misses).
    pub allocations: u64,
    /// Requests served from the cache.
    pub cache_hits: u64,
    /// Times the pool freed its cache and retried after hitting a limit or an allocator failure.
    pub alloc_retries: u64,
    /// Requests that failed with `OutOfMemory`.
    pub ooms: u64,
    /// The pool limit, if one is set.
    pub limit: Option<u64>,
}

/// The size class that serves a request: at least 256 bytes, then steps of one sixteenth of the
/// next power of two, so at most 12.5 % is wasted and nearby sizes share buffers.
pub(crate) fn size_class(bytes: u64, max: u64) -> u64 {
    let bytes = bytes.max(1);
    let class = if bytes <= 256 {
        256
    } else {
        let p = bytes.next_power_of_two();
        let step = (p / 16).max(256);
        bytes.div_ceil(step) * step
    };
    if class <= max {
        class
    } else {
        // A class would exceed the adapter's buffer limit: serve the request exactly.
        bytes.div_ceil(4) * 4
    }
}

struct State<B> {
    free: HashMap<u64, Vec<B>>,
    stats: MemoryStats,
}

pub(crate) struct Pool<K: Backing> {
    backing: K,
    max_buffer: u64,
    state: Mutex<State<K::Buffer>>,
}

/// A buffer on loan from the pool; dropping it returns the buffer to the cache.
pub(crate) struct PoolBlock<K: Backing> {
    pool: Arc<Pool<K>>,
    class: u64,
    buffer: Option<K::Buffer>,
}

impl<K: Backing> PoolBlock<K> {
    pub(crate) fn buffer(&self) -> &K::Buffer {
        self.buffer
            .as_ref()
            .expect("a live block always holds its buffer")
    }
    pub(crate) fn class_bytes(&self) -> u64 {
        self.class
    }
    /// Releases the buffer for good instead of caching it (for a buffer left in an unknown
    /// state, such as a staging buffer whose mapping failed).
    pub(crate) fn discard(mut self) {
        if let Some(buf) = self.buffer.take() {
            self.pool.lock().stats.in_use_bytes -= self.class;
            self.pool.backing.release(buf);
        }
    }
}

impl<K: Backing> Drop for PoolBlock<K> {
    fn drop(&mut self) {
        if let Some(buf) = self.buffer.take() {
            self.pool.give_back(self.class, buf);
        }
    }
}

impl<K: Backing> Pool<K> {
    pub(crate) fn new(backing: K, max_buffer: u64, limit: Option<u64>) -> Arc<Self> {
        Arc::new(Pool {
            backing,
            max_buffer,
            state: Mutex::new(State {
                free: HashMap::new(),
                stats: MemoryStats {
                    limit,
                    ..Default::default()
                },
            }),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State<K::Buffer>> {
        // A panic while holding the lock cannot leave the counters inconsistent (each update
        // is a single statement), so a poisoned lock is still safe to use.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    #[cfg(test)]
    pub(crate) fn backing(&self) -> &K {
        &self.backing
    }

    pub(crate) fn stats(&self) -> MemoryStats {
        self.lock().stats
    }

    pub(crate) fn set_limit(&self, limit: Option<u64>) {
        self.lock().stats.limit = limit;
    }

    /// Frees every cached buffer.
    pub(crate) fn empty_cache(&self) {
        let drained: Vec<K::Buffer> = {
            let mut st = self.lock();
            st.stats.cached_bytes = 0;
            st.free.drain().flat_map(|(_, v)| v).collect()
        };
        let any = !drained.is_empty();
        for b in drained {
            self.backing.release(b);
        }
        if any {
            self.backing.collect();
        }
    }

    /// Lends a buffer of at least `bytes` bytes.
    pub(crate) fn alloc(self: &Arc<Self>, bytes: u64) -> Result<PoolBlock<K>> {
        if bytes > self.max_buffer {
            return Err(Error::TooLarge {
                op: "alloc",
                requested: bytes,
                max: self.max_buffer,
                what: "max_buffer_size",
            });
        }
        let class = size_class(bytes, self.max_buffer);
        let mut retried = false;
        loop {
            // 1. The cache.
            {
                let mut st = self.lock();
                if let Some(buf) = st.free.get_mut(&class).and_then(|v| v.pop()) {
                    st.stats.cached_bytes -= class;
                    st.stats.in_use_bytes += class;
                    st.stats.peak_bytes = st.stats.peak_bytes.max(st.stats.in_use_bytes);
                    st.stats.cache_hits += 1;
                    return Ok(self.block(class, buf));
                }
                // 2. The limit: in-use plus cached plus this request must fit.
                if let Some(limit) = st.stats.limit {
                    let total = st.stats.in_use_bytes + st.stats.cached_bytes + class;
                    if total > limit {
                        let hopeless = st.stats.in_use_bytes + class > limit;
                        if hopeless || retried {
                            st.stats.ooms += 1;
                            return Err(Error::OutOfMemory {
                                requested: class,
                                in_use: st.stats.in_use_bytes,
                                limit,
                            });
                        }
                        st.stats.alloc_retries += 1;
                        drop(st);
                        self.empty_cache();
                        retried = true;
                        continue;
                    }
                }
                // Reserve before allocating so concurrent requests cannot overshoot the limit.
                st.stats.in_use_bytes += class;
            }
            // 3. The allocator.
            match self.backing.alloc(class) {
                Ok(buf) => {
                    let mut st = self.lock();
                    st.stats.allocations += 1;
                    st.stats.peak_bytes = st.stats.peak_bytes.max(st.stats.in_use_bytes);
                    return Ok(self.block(class, buf));
                }
                Err(msg) => {
                    let mut st = self.lock();
                    st.stats.in_use_bytes -= class;
                    if retried {
                        st.stats.ooms += 1;
                        log::warn!("allocation of {class} bytes failed after a retry: {msg}");
                        return Err(Error::OutOfMemory {
                            requested: class,
                            in_use: st.stats.in_use_bytes,
                            limit: st.stats.limit.unwrap_or(u64::MAX),
                        });
                    }
                    st.stats.alloc_retries += 1;
                    drop(st);
                    self.empty_cache();
                    retried = true;
                }
            }
        }
    }

    fn block(self: &Arc<Self>, class: u64, buf: K::Buffer) -> PoolBlock<K> {
        PoolBlock {
            pool: Arc::clone(self),
            class,
            buffer: Some(buf),
        }
    }

    fn give_back(&self, class: u64, buf: K::Buffer) {
        let mut st = self.lock();
        st.stats.in_use_bytes -= class;
        // Keep the cache within the limit: a buffer that would overflow it is released.
        let over = st
            .stats
            .limit
            .is_some_and(|l| st.stats.in_use_bytes + st.stats.cached_bytes + class > l);
        if over {
            drop(st);
            self.backing.release(buf);
            return;
        }
        st.stats.cached_bytes += class;
        st.free.entry(class).or_default().push(buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// An allocator that counts live bytes and can be told to fail.
    #[derive(Default)]
    struct Mock {
        live: AtomicU64,
        fail_next: AtomicU64,
        capacity: Option<u64>,
    }
    impl Backing for Mock {
        type Buffer = u64;
        fn alloc(&self, bytes: u64) -> std::result::Result<u64, String> {
            if self.fail_next.load(Ordering::SeqCst) > 0 {
                self.fail_next.fetch_sub(1, Ordering::SeqCst);
                return Err("mock OOM".into());
            }
            if let Some(cap) = self.capacity {
                if self.live.load(Ordering::SeqCst) + bytes > cap {
                    return Err("mock capacity".into());
                }
            }
            self.live.fetch_add(bytes, Ordering::SeqCst);
            Ok(bytes)
        }
        fn release(&self, b: u64) {
            self.live.fetch_sub(b, Ordering::SeqCst);
        }
    }

    fn invariant(p: &Pool<Mock>) {
        let s = p.stats();
        assert_eq!(
            s.in_use_bytes + s.cached_bytes,
            p.backing().live.load(Ordering::SeqCst)
        );
    }

    #[test]
    fn size_classes() {
        assert_eq!(size_class(0, u64::MAX), 256);
        assert_eq!(size_class(256, u64::MAX), 256);
        assert_eq!(size_class(257, u64::MAX), 512);
        assert_eq!(size_class(1025, u64::MAX), 1280);
        assert_eq!(size_class(1 << 20, u64::MAX), 1 << 20);
        assert_eq!(size_class((1 << 20) + 1, u64::MAX), (1 << 20) + (1 << 17));
        // Rounding never wastes more than 1/8 above 2 KiB.
        for b in [3000u64, 70_000, 5_000_000, 300 << 20] {
            let c = size_class(b, u64::MAX);
            assert!(c >= b && c - b <= b / 8 + 256, "{b} -> {c}");
        }
        // Capped by the adapter's buffer limit.
        assert_eq!(size_class(1000, 1000), 1000);
        assert_eq!(size_class(1001, 1003), 1004);
    }

    #[test]
    fn reuse_and_stats_return_to_baseline() {
        let p = Pool::new(Mock::default(), u64::MAX, None);
        for _ in 0..100 {
            let a = p.alloc(1000).unwrap();
            let b = p.alloc(5000).unwrap();
            invariant(&p);
            drop(a);
            drop(b);
        }
        let s = p.stats();
        assert_eq!(s.in_use_bytes, 0);
        assert_eq!(s.allocations, 2);
        assert_eq!(s.cache_hits, 198);
        assert_eq!(s.peak_bytes, 1024 + 5120);
        p.empty_cache();
        assert_eq!(p.stats().cached_bytes, 0);
        invariant(&p);
    }

    #[test]
    fn limit_flushes_cache_then_fails_and_stays_usable() {
        let p = Pool::new(Mock::default(), u64::MAX, Some(4096));
        let keep = p.alloc(1024).unwrap();
        drop(p.alloc(2048).unwrap()); // cached
        // 2048 fits only after the cached 2048 is freed: a fragmented-limit retry (cupy#7678).
        let c = p.alloc(3072 - 256).unwrap();
        assert_eq!(p.stats().alloc_retries, 1);
        drop(c);
        // Hopeless: more than the limit minus what is in use.
        match p.alloc(4000) {
            Err(Error::OutOfMemory {
                requested,
                in_use,
                limit,
            }) => {
                assert_eq!((requested, in_use, limit), (4096, 1024, 4096));
            }
            other => panic!("expected OOM, got {:?}", other.map(|b| b.class_bytes())),
        }
        assert_eq!(p.stats().ooms, 1);
        invariant(&p);
        drop(keep);
        // After freeing, the same request succeeds.
        assert!(p.alloc(4000).is_ok());
        invariant(&p);
    }

    #[test]
    fn allocator_failure_retries_once_then_ooms() {
        let p = Pool::new(Mock::default(), u64::MAX, None);
        drop(p.alloc(512).unwrap());
        p.backing().fail_next.store(1, Ordering::SeqCst);
        let b = p.alloc(8192).unwrap(); // first try fails, cache flushed, retry works
        assert_eq!(p.stats().alloc_retries, 1);
        assert_eq!(p.stats().cached_bytes, 0);
        p.backing().fail_next.store(2, Ordering::SeqCst);
        assert!(matches!(
            p.alloc(8192),
            Err(Error::OutOfMemory {
                limit: u64::MAX,
                ..
            })
        ));
        invariant(&p);
        drop(b);
        invariant(&p);
    }

    #[test]
    fn too_large_is_an_error() {
        let p = Pool::new(Mock::default(), 1 << 20, None);
        assert!(matches!(
            p.alloc((1 << 20) + 1),
            Err(Error::TooLarge { .. })
        ));
    }

    #[test]
    fn concurrent_alloc_free_keeps_totals_exact() {
        let p = Pool::new(Mock::default(), u64::MAX, Some(1 << 20));
        std::thread::scope(|s| {
            for t in 0..8u64 {
                let p = &p;
                s.spawn(move || {
                    for i in 0..500u64 {
                        let size = 256 + ((t * 977 + i * 131) % 20_000);
                        if let Ok(b) = p.alloc(size) {
                            assert!(b.class_bytes() >= size);
                        }
                    }
                });
            }
        });
        assert_eq!(p.stats().in_use_bytes, 0);
        invariant(&p);
        assert!(p.stats().cached_bytes <= 1 << 20);
    }
}
