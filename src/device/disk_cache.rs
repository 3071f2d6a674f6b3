//! The cache a device keeps on disk between runs: the driver's pipeline binaries (wgpu's
//! `PipelineCache`, where the adapter offers one) and small records of the ops (the matmul
//! tune's choice), in one directory, one file each.
//!
//! Every file is keyed by what could make its content stale — adapter name and ids, driver and
//! its version, backend, wgpu's cache key, this crate's version and a hash of every shader
//! variant it ships — so a changed shader or driver never reads an old file: it reads a file
//! of another name, and the key is checked again inside the file. A file carries its length
//! and a checksum; one that is truncated, altered, of another format version or unreadable is
//! ignored with a warning (and rewritten at the next save), never an error. Writes go to a
//! temporary file of a unique name that is then renamed over the old one, so two processes
//! saving at once each leave a whole file.
//!
//! Location: [`DeviceConfig::cache_dir`](crate::DeviceConfig::cache_dir), else
//! `GPUARRAY_CACHE_DIR`, else the platform cache directory (`dirs::cache_dir()/gpuarray`);
//! `GPUARRAY_CACHE=0` (or `disable_cache`) keeps nothing on disk; the records then live in the
//! process's memory (keyed the same way), so that its devices on one adapter still share them —
//! a second device does not tune again — and nothing outlives the process.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// The first line of every cache file, with the format's version.
const MAGIC: &str = "gpuarray-cache 1";

/// One device's cache files.
pub(crate) struct DiskCache {
    /// `None`: caching is off, or the platform has no cache directory.
    dir: Option<PathBuf>,
    /// Everything the content depends on, written into each file and checked on reading.
    key: String,
    /// A hash of `key`, in the file names.
    stem: String,
}

impl DiskCache {
    /// The cache of a device on adapter `info` with kernel `families`, in `dir` (`None`: the
    /// platform's), or none.
    pub fn new(
        dir: Option<&Path>,
        disabled: bool,
        info: &wgpu::AdapterInfo,
        families: super::Families,
    ) -> DiskCache {
        let dir = if disabled {
            None
        } else {
            dir.map(Path::to_path_buf)
                .or_else(|| dirs::cache_dir().map(|d| d.join("gpuarray")))
        };
        let key = format!(
            "adapter={:?} vendor={} device={} driver={:?} driver_info={:?} backend={:?} wgpu_key={:?} crate={} shaders={:016x}",
            info.name,
            info.vendor,
            info.device,
            info.driver,
            info.driver_info,
            info.backend,
            wgpu::util::pipeline_cache_key(info),
            env!("CARGO_PKG_VERSION"),
            shader_hash(families),
        );
        let stem = format!("{:016x}", fnv1a(key.as_bytes()));
        DiskCache { dir, key, stem }
    }

    /// The directory, when caching is on.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The path of record `what` (e.g. `pipelines`), when caching is on.
    pub fn path(&self, what: &str) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .map(|d| d.join(format!("{what}-{}.bin", self.stem)))
    }

    /// Record `what` as saved by an earlier run (with caching off: by an earlier device of this
    /// process), or `None` (none saved, or a file that fails its checks: that one is reported
    /// with `log::warn!`).
    pub fn load(&self, what: &str) -> Option<Vec<u8>> {
        let Some(path) = self.path(what) else {
            return in_memory(|records| {
                records.get(&(self.key.clone(), what.to_string())).cloned()
            });
        };
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => {
                log::warn!(
                    "gpuarray: cannot read cache file {}: {e}; ignoring it",
                    path.display()
                );
                return None;
            }
        };
        match self.decode(&bytes) {
            Ok(payload) => Some(payload.to_vec()),
            Err(why) => {
                log::warn!(
                    "gpuarray: cache file {} is {why}; ignoring it (it is rewritten at the next save)",
                    path.display()
                );
                None
            }
        }
    }

    /// Saves record `what`, replacing the old one atomically. Returns the bytes written, or
    /// `None` (caching off — the record is then kept in this process's memory —, or the
    /// directory or file could not be written: reported with `log::warn!`, never an error).
    pub fn store(&self, what: &str, payload: &[u8]) -> Option<u64> {
        let Some(path) = self.path(what) else {
            in_memory(|records| {
                records.insert((self.key.clone(), what.to_string()), payload.to_vec())
            });
            return None;
        };
        let dir = self.dir.as_ref()?;
        let bytes = self.encode(payload);
        // Unique per process and save, so concurrent writers never share a temporary file.
        static SAVES: AtomicU64 = AtomicU64::new(0);
        let tmp = dir.join(format!(
            ".{what}-{}.{}.{}.tmp",
            self.stem,
            std::process::id(),
            SAVES.fetch_add(1, Ordering::Relaxed)
        ));
        let written = std::fs::create_dir_all(dir)
            .and_then(|()| std::fs::write(&tmp, &bytes))
            .and_then(|()| std::fs::rename(&tmp, &path));
        match written {
            Ok(()) => Some(bytes.len() as u64),
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                log::warn!(
                    "gpuarray: cannot write cache file {}: {e}; running without it",
                    path.display()
                );
                None
            }
        }
    }

    fn encode(&self, payload: &[u8]) -> Vec<u8> {
        let mut out = format!(
            "{MAGIC}\n{}\n{} {:016x}\n",
            self.key,
            payload.len(),
            fnv1a(payload)
        )
        .into_bytes();
        out.extend_from_slice(payload);
        out
    }

    /// The payload of a file's bytes, or why they are not one of ours for this key.
    fn decode<'b>(&self, bytes: &'b [u8]) -> Result<&'b [u8], &'static str> {
        let mut rest = bytes;
        let mut line = || -> Result<&'b str, &'static str> {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .ok_or("truncated (no header)")?;
            let l = std::str::from_utf8(&rest[..end]).map_err(|_| "not a gpuarray cache file")?;
            rest = &rest[end + 1..];
            Ok(l)
        };
        if line()? != MAGIC {
            return Err("not a gpuarray cache file of this version");
        }
        if line()? != self.key {
            return Err("for another adapter, driver or build");
        }
        let (len, sum) = line()?
            .split_once(' ')
            .ok_or("damaged (no length and checksum)")?;
        let len: usize = len.parse().map_err(|_| "damaged (bad length)")?;
        let sum = u64::from_str_radix(sum, 16).map_err(|_| "damaged (bad checksum)")?;
        if rest.len() < len {
            return Err("truncated");
        }
        if rest.len() > len {
            return Err("longer than recorded");
        }
        if fnv1a(rest) != sum {
            return Err("damaged (checksum mismatch)");
        }
        Ok(rest)
    }
}

/// The records of caches without a directory, by (key, record name).
type MemoryRecords = HashMap<(String, String), Vec<u8>>;

/// `f` on the records of caches without a directory: the ops' small records (the matmul tune,
/// the start-up choice), never pipeline binaries (the driver's cache needs a directory), keyed by
/// the files' key and the record's name.
fn in_memory<T>(f: impl FnOnce(&mut MemoryRecords) -> T) -> T {
    static RECORDS: OnceLock<Mutex<MemoryRecords>> = OnceLock::new();
    let mut records = RECORDS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    f(&mut records)
}

/// FNV-1a, 64 bits: a checksum against damaged files and a name for keys (not a defence
/// against deliberate tampering: whoever can write the cache directory can write the binary).
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A hash of every shader variant's WGSL, computed once per process (whose devices are all
/// handed the one registry).
fn shader_hash(families: super::Families) -> u64 {
    static HASH: OnceLock<u64> = OnceLock::new();
    *HASH.get_or_init(|| {
        let mut all = Vec::new();
        for v in super::variants::shader_variants(families) {
            all.extend_from_slice(v.label.as_bytes());
            all.extend_from_slice(v.wgsl.as_bytes());
        }
        fnv1a(&all)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(dir: &Path) -> DiskCache {
        let info = wgpu::AdapterInfo {
            name: "test adapter".into(),
            vendor: 1,
            device: 2,
            device_type: wgpu::DeviceType::Cpu,
            device_pci_bus_id: String::new(),
            driver: "d".into(),
            driver_info: "1.0".into(),
            backend: wgpu::Backend::Vulkan,
            subgroup_min_size: 8,
            subgroup_max_size: 8,
            transient_saves_memory: None,
            limit_bucket: None,
        };
        DiskCache::new(Some(dir), false, &info, &[])
    }

    #[test]
    fn records_round_trip_and_damage_is_ignored() {
        let dir = std::env::temp_dir().join(format!("gpuarray-cache-unit-{}", std::process::id()));
        let c = cache(&dir);
        assert_eq!(c.load("x"), None);
        assert!(c.store("x", b"hello").is_some());
        assert_eq!(c.load("x").as_deref(), Some(&b"hello"[..]));
        let path = c.path("x").unwrap();
        let good = std::fs::read(&path).unwrap();
        // Truncated, extended, one byte flipped, another key, garbage: each ignored.
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 1;
        let other_key = String::from_utf8(good.clone())
            .unwrap()
            .replace("test adapter", "other adapter");
        for bad in [
            good[..good.len() - 1].to_vec(),
            [good.clone(), b"!".to_vec()].concat(),
            flipped,
            other_key.into_bytes(),
            b"\x00\xffgarbage".to_vec(),
            Vec::new(),
        ] {
            std::fs::write(&path, &bad).unwrap();
            assert_eq!(c.load("x"), None, "{:?}", String::from_utf8_lossy(&bad));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn off_means_nothing_on_disk_and_records_for_this_process_only() {
        let dir = std::env::temp_dir().join(format!("gpuarray-cache-off-{}", std::process::id()));
        let off = |name: &str| {
            let mut c = cache(&dir);
            c.dir = None;
            c.key = c.key.replace("test adapter", name);
            c
        };
        let c = off("test adapter");
        assert_eq!(c.load("off-x"), None);
        assert_eq!(c.store("off-x", b"1"), None);
        assert!(!dir.exists());
        // Another device of this process on the same adapter reads it back; one on another
        // adapter does not.
        assert_eq!(
            off("test adapter").load("off-x").as_deref(),
            Some(&b"1"[..])
        );
        assert_eq!(off("other adapter").load("off-x"), None);
        assert!(!dir.exists());
    }
}
