//! Resolving return addresses into frames, each distinct address once per
//! dump, and freeing what the symbolizer loaded for it when the dump is
//! done.
//!
//! The `backtrace` crate's symbolizer parses the binary's debug info on
//! its first lookup and keeps it (tens of MB of heap in release) until
//! `backtrace::clear_symbol_cache`, which a dump calls when it has
//! resolved its frames, so that the heap returns to its level before the
//! dump. Loading the debug info is most of a dump's time; so that a later
//! dump of the same stacks need not load it again, each thread keeps a
//! small cache of the addresses it resolved, bounded (see
//! [`MAX_CACHED_ADDRESSES`] and [`MAX_CACHED_BYTES`]: under 64 KiB). It is
//! keyed by the bare address, as the dump's stacks are: code unloaded and
//! other code loaded at the same address (`dlclose`) would be named after
//! the old code until the cache is refilled.

use super::collector::ReturnAddress;
use super::{is_harness, Frame};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Most return addresses the per-thread cache keeps.
pub(super) const MAX_CACHED_ADDRESSES: usize = 256;

/// Most bytes the per-thread cache's entries take (frames, names and file
/// paths); with its hash table (at most 512 slots of 24 bytes) the cache
/// stays under 64 KiB.
pub(super) const MAX_CACHED_BYTES: usize = 48 * 1024;

/// Resolved return addresses, kept across the dumps of one thread.
#[derive(Default)]
struct Cache {
    /// Address to its frames, innermost (inlined) first.
    frames: HashMap<usize, Arc<[Frame]>>,
    /// Bytes the entries of `frames` take (see `entry_bytes`).
    bytes: usize,
}

impl Cache {
    fn insert(&mut self, address: usize, frames: Arc<[Frame]>) {
        let bytes = entry_bytes(&frames);
        if bytes > MAX_CACHED_BYTES {
            return;
        }
        // Full: start afresh rather than track recency; what the current
        // dumps need fills it again.
        if self.frames.len() >= MAX_CACHED_ADDRESSES || self.bytes + bytes > MAX_CACHED_BYTES {
            *self = Cache::default();
        }
        self.bytes += bytes;
        self.frames.insert(address, frames);
    }
}

/// The heap an entry takes: its `Arc`'s counts, frames and strings.
fn entry_bytes(frames: &[Frame]) -> usize {
    let text = |frame: &Frame| {
        frame.name.len() + frame.location.as_ref().map_or(0, |(file, _)| file.len())
    };
    2 * std::mem::size_of::<usize>()
        + frames
            .iter()
            .map(|frame| std::mem::size_of::<Frame>() + text(frame))
            .sum::<usize>()
}

crate::loom::thread_local! {
    /// The addresses this thread's dumps resolved.
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

/// The resolution of one dump's stacks.
pub(super) struct Symbols {
    /// Whether the symbolizer was asked, so that it holds debug info.
    loaded: bool,
    /// Where file paths under it are printed relative to, as std's
    /// backtraces do.
    cwd: Option<PathBuf>,
}

impl Symbols {
    pub(super) fn new() -> Symbols {
        Symbols {
            loaded: false,
            cwd: std::env::current_dir().ok(),
        }
    }

    /// The frames of `stack`'s return addresses, innermost first, down to
    /// the first of the task harness: the frames below it are rt's own
    /// and no chain shows them, so they are not resolved.
    pub(super) fn frames(&mut self, stack: &[ReturnAddress]) -> Vec<Frame> {
        let mut frames = Vec::new();
        for &address in stack {
            let resolved = self.resolve(address);
            frames.extend(resolved.iter().map(|frame| self.relative(frame)));
            if resolved.iter().any(|frame| is_harness(&frame.name)) {
                break;
            }
        }
        frames
    }

    fn resolve(&mut self, pointer: ReturnAddress) -> Arc<[Frame]> {
        // The cache keys by the bare address, as a number.
        let address = pointer as usize;
        // A dump taken while this thread's locals are torn down goes
        // without the cache.
        let cached = CACHE
            .try_with(|cache| cache.borrow().frames.get(&address).cloned())
            .ok()
            .flatten();
        if let Some(frames) = cached {
            return frames;
        }
        self.loaded = true;
        let mut frames = Vec::new();
        backtrace::resolve(pointer, |symbol| {
            let name = match symbol.name() {
                // `{:#}`: demangled, without the hash suffix.
                Some(name) => super::strip_hash(&format!("{name:#}")).to_string(),
                None => "<unknown>".to_string(),
            };
            let location = symbol
                .filename()
                .zip(symbol.lineno())
                .map(|(file, line)| (file.to_string_lossy().into_owned(), line));
            frames.push(Frame { name, location });
        });
        if frames.is_empty() {
            frames.push(Frame {
                name: "<unknown>".to_string(),
                location: None,
            });
        }
        let frames: Arc<[Frame]> = frames.into();
        let _ = CACHE.try_with(|cache| cache.borrow_mut().insert(address, frames.clone()));
        frames
    }

    /// `frame` with its file relative to the working directory where it is
    /// under it.
    fn relative(&self, frame: &Frame) -> Frame {
        let location = frame.location.as_ref().map(|(file, line)| {
            let relative = self
                .cwd
                .as_deref()
                .and_then(|cwd| Path::new(file).strip_prefix(cwd).ok())
                .and_then(Path::to_str);
            (relative.unwrap_or(file).to_string(), *line)
        });
        Frame {
            name: frame.name.clone(),
            location,
        }
    }
}

impl Drop for Symbols {
    fn drop(&mut self) {
        if self.loaded {
            backtrace::clear_symbol_cache();
            release_freed_memory();
        }
    }
}

/// Hands the memory the symbolizer just freed back to the OS: glibc's
/// allocator keeps freed pages of its main heap otherwise, and the debug
/// info is tens of MB. (Miri runs its own allocator and no glibc.)
#[cfg(all(target_os = "linux", target_env = "gnu", not(miri)))]
fn release_freed_memory() {
    // SAFETY: `malloc_trim` only returns free memory at the top of glibc's
    // heaps to the OS; it touches no allocation in use.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Elsewhere the allocator keeps what it keeps.
#[cfg(not(all(target_os = "linux", target_env = "gnu", not(miri))))]
fn release_freed_memory() {}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn the_cache_stays_within_its_bounds() {
        let mut cache = Cache::default();
        for address in 0..4 * MAX_CACHED_ADDRESSES {
            let frames: Arc<[Frame]> = vec![
                Frame {
                    name: "app::a_rather_long_async_fn_name::{{closure}}".repeat(address % 4 + 1),
                    location: Some(("/home/user/src/app/src/main.rs".to_string(), 7)),
                };
                address % 3 + 1
            ]
            .into();
            cache.insert(address, frames);
            assert!(cache.frames.len() <= MAX_CACHED_ADDRESSES);
            assert!(cache.bytes <= MAX_CACHED_BYTES);
            assert!(cache.frames.contains_key(&address));
        }
    }
}
