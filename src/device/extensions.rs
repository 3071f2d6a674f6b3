//! Per-device state that belongs to an op (the matmul tune's result, and later caches or a
//! profiler), stored on the device by type so that `device/` never names the ops above it.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A map from a state type to the device's one value of it, created on first use.
#[derive(Default)]
pub(crate) struct Extensions {
    map: Mutex<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
}

impl Extensions {
    /// The device's `T`, made with `T::default()` the first time any thread asks.
    pub fn get<T: Any + Send + Sync + Default>(&self) -> Arc<T> {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        let entry = map
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Arc::new(T::default()));
        Arc::clone(entry)
            .downcast::<T>()
            .expect("entries are stored under their own TypeId")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[derive(Default)]
    struct Counter(AtomicU32);

    #[derive(Default)]
    struct Other(u8);

    #[test]
    fn one_value_per_type() {
        let ext = Extensions::default();
        ext.get::<Counter>().0.fetch_add(1, Ordering::SeqCst);
        ext.get::<Counter>().0.fetch_add(1, Ordering::SeqCst);
        assert_eq!(ext.get::<Counter>().0.load(Ordering::SeqCst), 2);
        assert_eq!(ext.get::<Other>().0, 0);
    }
}
