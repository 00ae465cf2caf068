//! What one dump records: the bare return addresses of each distinct stack
//! its trace polls reached, and which stacks each trace poll reached.
//! Resolving them into chains of awaits is `symbols.rs`'s.

use super::symbols::Symbols;
use super::Frame;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Arc;

/// A return address as the unwinder gives it: a code pointer, kept a
/// pointer (not an integer) so that the symbolizer is handed back the very
/// pointer, with its provenance, that the unwinder produced. It is never
/// dereferenced; equal addresses compare and hash equal.
pub(super) type ReturnAddress = *mut c_void;

/// Most leaves one trace poll records (a `join!` of many resources).
const MAX_LEAVES_PER_TASK: usize = 16;

/// Most frames one capture keeps.
const MAX_FRAMES: usize = 256;

/// Gathers the stacks of one dump, keyed by their return addresses, so
/// that each distinct stack is resolved once however many tasks share it.
#[derive(Default)]
pub(crate) struct Collector {
    /// Return addresses of a stack to its index in `stacks`.
    by_address: HashMap<Arc<[ReturnAddress]>, usize>,
    /// Each distinct stack of this dump, innermost frame first.
    stacks: Vec<Arc<[ReturnAddress]>>,
    /// Indices into `stacks` recorded by the current trace poll at rt
    /// resources.
    current: Vec<usize>,
    /// As `current`, where the current trace poll cloned the task's waker.
    current_wakers: Vec<usize>,
    /// Where the unwinding of a captured stack may stop: the address of a
    /// local of the dump's frame, above which no frame of the task is.
    stack_limit: usize,
    /// The capture being looked up: a stack seen before allocates nothing.
    scratch: Vec<ReturnAddress>,
}

impl Collector {
    /// Sets where unwinding stops (see `stack_limit`).
    pub(crate) fn set_stack_limit(&mut self, limit: usize) {
        self.stack_limit = limit;
    }

    pub(super) fn record(&mut self, from_waker: bool) {
        let current = if from_waker {
            &self.current_wakers
        } else {
            &self.current
        };
        if current.len() >= MAX_LEAVES_PER_TASK {
            return;
        }
        capture(self.stack_limit, &mut self.scratch);
        let index = match self.by_address.get(self.scratch.as_slice()) {
            Some(&index) => index,
            None => {
                let key: Arc<[ReturnAddress]> = self.scratch.as_slice().into();
                self.stacks.push(key.clone());
                self.by_address.insert(key, self.stacks.len() - 1);
                self.stacks.len() - 1
            }
        };
        if from_waker {
            self.current_wakers.push(index);
        } else {
            self.current.push(index);
        }
    }

    /// The stacks recorded since the last call (by one trace poll).
    /// The chains end at the rt resources reached, or, when none was, at
    /// the futures that kept the task's waker.
    pub(crate) fn take_current(&mut self) -> Vec<usize> {
        let wakers = std::mem::take(&mut self.current_wakers);
        let leaves = std::mem::take(&mut self.current);
        if leaves.is_empty() {
            wakers
        } else {
            leaves
        }
    }

    /// Resolves every distinct stack into its chain of awaits, then frees
    /// what the symbolizer loaded to do so (see `symbols.rs`).
    pub(crate) fn finish(self) -> Vec<Arc<[Frame]>> {
        drop(self.by_address);
        let mut symbols = Symbols::new();
        self.stacks
            .iter()
            .map(|stack| super::chain_of_awaits(symbols.frames(stack)).into())
            .collect()
    }
}

/// Puts the return addresses of the stack above this call into
/// `addresses`, innermost first, down to `limit` (0: no limit). Loom runs
/// its threads on stacks of its own, which are not unwound.
#[inline(never)]
fn capture(limit: usize, addresses: &mut Vec<ReturnAddress>) {
    addresses.clear();
    if cfg!(loom) {
        return;
    }
    // Frames whose CFA is at or below a local of this one are the
    // unwinder's own, called from here: not worth resolving.
    let marker = 0u8;
    let here = std::hint::black_box(&marker) as *const u8 as usize;
    backtrace::trace(|frame| {
        // The CFA where the unwinder knows it (0 where it does not).
        let cfa = frame.sp() as usize;
        if cfa != 0 && cfa <= here {
            return true;
        }
        addresses.push(frame.ip());
        // The stack grows down: a frame whose CFA is above the limit is the
        // dump's or its caller's, the same for every task of the dump.
        addresses.len() < MAX_FRAMES && !(limit != 0 && cfa > limit)
    });
}
