//! `rt-sync` will own runtime-agnostic synchronization: Semaphore, Mutex, RwLock, Notify, oneshot, mpsc, watch, broadcast.
//!
//! The crate is reserved in the workspace and has no public items yet.
