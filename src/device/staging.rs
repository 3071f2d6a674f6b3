//! Readback: copy device bytes into pooled `MAP_READ` staging buffers, map, copy out, unmap.
//! Large reads go through fixed-size chunks, so host and staging memory stay bounded and each
//! chunk is awaited with the device's timeout.

use super::DeviceInner;
use super::signal::Signal;
use crate::error::{Error, Result};
use crate::memory::{PoolBlock, WgpuBacking};
#[cfg(not(target_arch = "wasm32"))]
use std::{sync::mpsc, time::Duration, time::Instant};

/// Bytes read back per staging buffer.
const CHUNK: u64 = 64 << 20;

type MapResult = std::result::Result<(), wgpu::BufferAsyncError>;

/// Copies `len` bytes at `offset` (both multiples of 4) into a staging buffer and asks to map it.
fn start_chunk(
    op: &'static str,
    dev: &DeviceInner,
    src: &wgpu::Buffer,
    offset: u64,
    len: u64,
    on_mapped: impl FnOnce(MapResult) + Send + 'static,
) -> Result<(PoolBlock<WgpuBacking>, wgpu::SubmissionIndex)> {
    let staging = dev.staging.alloc(len)?;
    let started = dev.guarded(op, || {
        let index =
            dev.submit_now(|enc| enc.copy_buffer_to_buffer(src, offset, staging.buffer(), 0, len));
        dev.maintainer.context(|| {
            staging
                .buffer()
                .map_async(wgpu::MapMode::Read, 0..len, on_mapped)
        });
        Ok(index)
    });
    match started {
        Ok(index) => Ok((staging, index)),
        Err(e) => {
            // The map may be pending: never hand this buffer out again.
            staging.discard();
            Err(e)
        }
    }
}

/// Copies the mapped bytes of the chunk at `at` (bytes into the read range) into `dst`, which
/// receives the range less its first `skip` bytes, and returns the staging buffer to the pool.
fn finish_chunk(
    dev: &DeviceInner,
    staging: PoolBlock<WgpuBacking>,
    len: u64,
    at: u64,
    skip: u64,
    dst: &mut [u8],
) -> Result<()> {
    // Under the device's lock on GL: mapping and unmapping use the GL context.
    let copied = dev
        .maintainer
        .context(|| match staging.buffer().get_mapped_range(0..len) {
            Ok(view) => {
                // The part of this chunk that lands in dst: [max(at, skip), min(at+len, skip+dst.len())).
                let lo = at.max(skip);
                let hi = (at + len).min(skip + dst.len() as u64);
                if hi > lo {
                    dst[(lo - skip) as usize..(hi - skip) as usize]
                        .copy_from_slice(&view[(lo - at) as usize..(hi - at) as usize]);
                }
                drop(view);
                staging.buffer().unmap();
                Ok(())
            }
            Err(e) => Err(e),
        });
    copied.map_err(|e| {
        staging.discard();
        Error::Gpu(format!("to_vec: mapping the readback buffer failed: {e}"))
    })
}

fn map_failed(dev: &DeviceInner, op: &'static str, e: wgpu::BufferAsyncError) -> Error {
    if dev.is_lost() {
        dev.lost_error(op)
    } else {
        Error::Gpu(format!("{op}: mapping the readback buffer failed: {e}"))
    }
}

/// Reads `len` bytes of `src` from `offset` (both multiples of 4) into `dst`, dropping the first
/// `skip` bytes of the range (the data's offset inside its first 4-byte word); blocking.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn read_bytes(
    dev: &DeviceInner,
    src: &wgpu::Buffer,
    offset: u64,
    len: u64,
    skip: u64,
    dst: &mut [u8],
) -> Result<()> {
    let mut done = 0;
    while done < len {
        let n = CHUNK.min(len - done);
        let (tx, rx) = mpsc::channel();
        let (staging, index) = start_chunk("to_vec", dev, src, offset + done, n, move |r| {
            let _ = tx.send(r);
        })?;
        let waited = dev.wait("to_vec", &index).and_then(|()| {
            // The callback runs inside a poll; keep polling until it has (it always runs).
            let start = Instant::now();
            loop {
                match rx.recv_timeout(Duration::from_millis(10)) {
                    Ok(Ok(())) => return Ok(()),
                    Ok(Err(e)) => return Err(map_failed(dev, "to_vec", e)),
                    Err(_) if start.elapsed() > dev.timeout() => {
                        return Err(Error::Timeout {
                            op: "to_vec",
                            after: start.elapsed(),
                        });
                    }
                    Err(_) => {
                        dev.check_alive("to_vec")?;
                        dev.poll_once();
                    }
                }
            }
        });
        if let Err(e) = waited {
            staging.discard();
            return Err(e);
        }
        finish_chunk(dev, staging, n, done, skip, dst)?;
        done += n;
    }
    Ok(())
}

/// [`read_bytes`], awaiting instead of blocking (the only readback on wasm32).
pub(crate) async fn read_bytes_async(
    dev: &DeviceInner,
    src: &wgpu::Buffer,
    offset: u64,
    len: u64,
    skip: u64,
    dst: &mut [u8],
) -> Result<()> {
    let mut done = 0;
    while done < len {
        let n = CHUNK.min(len - done);
        let (mapped, on_mapped) = Signal::new();
        let (staging, _index) = start_chunk("to_vec_async", dev, src, offset + done, n, on_mapped)?;
        let mapped = match mapped.wait(dev, "to_vec_async").await {
            Ok(r) => r.map_err(|e| map_failed(dev, "to_vec_async", e)),
            Err(e) => Err(e),
        };
        if let Err(e) = mapped {
            staging.discard();
            return Err(e);
        }
        finish_chunk(dev, staging, n, done, skip, dst)?;
        done += n;
    }
    Ok(())
}
