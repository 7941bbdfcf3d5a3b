//! The kernels a GPU back end has loaded, by source: each compiled (or read from the kernel
//! cache) and loaded once a back end.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub struct LoadedKernels<K>(Mutex<HashMap<String, Arc<K>>>);

impl<K> Default for LoadedKernels<K> {
    fn default() -> Self {
        LoadedKernels(Mutex::new(HashMap::new()))
    }
}

impl<K> LoadedKernels<K> {
    /// The kernel loaded for `source`, loaded by `load` on first use; `poisoned` is the error
    /// when an earlier panic left the table locked.
    pub fn get_or_load<E>(
        &self,
        source: &str,
        poisoned: impl FnOnce() -> E,
        load: impl FnOnce() -> Result<K, E>,
    ) -> Result<Arc<K>, E> {
        let mut memo = self.0.lock().map_err(|_| poisoned())?;
        if let Some(k) = memo.get(source) {
            return Ok(k.clone());
        }
        let k = Arc::new(load()?);
        memo.insert(source.to_string(), k.clone());
        Ok(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_source_loads_once() {
        let table = LoadedKernels::default();
        let calls = std::cell::Cell::new(0);
        let load = |v: u32| {
            calls.set(calls.get() + 1);
            Ok::<_, ()>(v)
        };
        let a = table.get_or_load("a", || (), || load(1)).unwrap();
        let again = table.get_or_load("a", || (), || load(2)).unwrap();
        let b = table.get_or_load("b", || (), || load(3)).unwrap();
        assert_eq!((*a, *again, *b, calls.get()), (1, 1, 3, 2));
        // A failed load leaves nothing behind.
        assert!(table.get_or_load("c", || (), || Err::<u32, _>(())).is_err());
        assert_eq!(*table.get_or_load("c", || (), || load(4)).unwrap(), 4);
    }
}
