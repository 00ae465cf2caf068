//! The message queue of an mpsc channel: a singly linked list of blocks of
//! [`BLOCK_CAP`] slots.
//!
//! Messages are written at the tail block and read from the head block.
//! Allocation happens once per [`BLOCK_CAP`] messages, and a block the
//! receiver has emptied is kept as a spare and reused for the next tail
//! block, so a channel in a steady state allocates nothing.
//!
//! The queue itself is not concurrent: the channel keeps the shared one
//! under its lock, and the receiver's own one (which it swaps with the shared
//! one to take every queued message at once) is touched by the receiver only.

use std::mem::MaybeUninit;
use std::ptr::NonNull;

/// Slots per block.
pub(super) const BLOCK_CAP: usize = 32;

struct Block<T> {
    slots: [MaybeUninit<T>; BLOCK_CAP],
    next: Option<NonNull<Block<T>>>,
}

impl<T> Block<T> {
    fn allocate() -> NonNull<Block<T>> {
        let block = Box::new(Block {
            slots: [const { MaybeUninit::uninit() }; BLOCK_CAP],
            next: None,
        });
        NonNull::from(Box::leak(block))
    }
}

/// A FIFO of `T` in blocks of [`BLOCK_CAP`].
///
/// Invariants: `head` and `tail` are both `None` or both `Some`; slots
/// `head_index..` of the head block up to `tail_index` of the tail block
/// (exclusive) hold initialised values, `len` of them.
pub(super) struct BlockQueue<T> {
    head: Option<NonNull<Block<T>>>,
    head_index: usize,
    tail: Option<NonNull<Block<T>>>,
    tail_index: usize,
    spare: Option<NonNull<Block<T>>>,
    len: usize,
}

// SAFETY: the queue owns its blocks and the values in them.
unsafe impl<T: Send> Send for BlockQueue<T> {}

impl<T> BlockQueue<T> {
    pub(super) const fn new() -> BlockQueue<T> {
        BlockQueue {
            head: None,
            head_index: 0,
            tail: None,
            tail_index: 0,
            spare: None,
            len: 0,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn fresh_block(&mut self) -> NonNull<Block<T>> {
        match self.spare.take() {
            Some(mut block) => {
                // SAFETY: the spare block is owned by the queue and empty.
                unsafe { block.as_mut().next = None };
                block
            }
            None => Block::allocate(),
        }
    }

    // `push` and `pop` are inlined into the channel's lock sections; the
    // once-per-block work (and the rewind of an emptied queue) is kept out of
    // line so the common case stays a handful of instructions.

    #[inline]
    pub(super) fn push(&mut self, value: T) {
        let mut tail = match self.tail {
            Some(tail) if self.tail_index < BLOCK_CAP => tail,
            _ => self.grow_tail(),
        };
        // SAFETY: `tail` is live and slot `tail_index` is free.
        unsafe { tail.as_mut().slots[self.tail_index].write(value) };
        self.tail_index += 1;
        self.len += 1;
    }

    /// Links a fresh tail block (the first one, or one after a full tail)
    /// and returns it, with `tail_index` at 0.
    #[inline(never)]
    fn grow_tail(&mut self) -> NonNull<Block<T>> {
        let block = self.fresh_block();
        match self.tail {
            Some(mut full) => {
                // SAFETY: `full` is the queue's live tail block.
                unsafe { full.as_mut().next = Some(block) };
            }
            None => {
                self.head = Some(block);
                self.head_index = 0;
            }
        }
        self.tail = Some(block);
        self.tail_index = 0;
        block
    }

    #[inline]
    pub(super) fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let mut head = self.head.expect("non-empty queue has a head");
        // SAFETY: a non-empty queue holds an initialised value at the head.
        let value = unsafe { head.as_mut().slots[self.head_index].assume_init_read() };
        self.head_index += 1;
        self.len -= 1;
        if self.len == 0 || self.head_index == BLOCK_CAP {
            self.after_block_end_or_empty(head);
        }
        Some(value)
    }

    /// After a pop that emptied the queue or consumed the whole head block
    /// `head`: rewinds, or moves on to the next block.
    #[inline(never)]
    fn after_block_end_or_empty(&mut self, mut head: NonNull<Block<T>>) {
        if self.len == 0 {
            // Rewind into the same block: no block changes hands.
            self.head_index = 0;
            self.tail_index = 0;
            self.tail = self.head;
            // SAFETY: the head block is live; blocks after it are empty and
            // only exist if it filled up, so release them.
            let rest = unsafe { head.as_mut().next.take() };
            self.recycle_chain(rest);
        } else if self.head_index == BLOCK_CAP {
            // SAFETY: the head block is live and fully consumed.
            let next = unsafe { head.as_mut().next.take() };
            self.head = next;
            self.head_index = 0;
            self.recycle_chain(Some(head));
        }
    }

    /// Keeps one empty block as the spare and frees the rest of `chain`.
    fn recycle_chain(&mut self, mut chain: Option<NonNull<Block<T>>>) {
        while let Some(mut block) = chain {
            // SAFETY: every block in `chain` is owned by the queue and holds
            // no initialised value.
            chain = unsafe { block.as_mut().next.take() };
            if self.spare.is_none() {
                self.spare = Some(block);
            } else {
                // SAFETY: the block came from `Box::leak` and is unreachable
                // from the queue now.
                drop(unsafe { Box::from_raw(block.as_ptr()) });
            }
        }
    }
}

impl<T> Drop for BlockQueue<T> {
    fn drop(&mut self) {
        while self.pop().is_some() {}
        let head = self.head.take();
        self.tail = None;
        self.recycle_chain(head);
        if let Some(spare) = self.spare.take() {
            // SAFETY: the spare came from `Box::leak` and is owned only here.
            drop(unsafe { Box::from_raw(spare.as_ptr()) });
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn fifo_across_blocks_and_reuse() {
        let mut q = BlockQueue::new();
        for round in 0..3 {
            for i in 0..(BLOCK_CAP * 3 + 5) {
                q.push(round * 1000 + i);
            }
            assert_eq!(q.len(), BLOCK_CAP * 3 + 5);
            for i in 0..(BLOCK_CAP * 3 + 5) {
                assert_eq!(q.pop(), Some(round * 1000 + i));
            }
            assert!(q.pop().is_none());
            assert!(q.is_empty());
        }
    }

    #[test]
    fn interleaved_push_pop() {
        let mut q = BlockQueue::new();
        let mut next_in = 0;
        let mut next_out = 0;
        for step in 0..500 {
            for _ in 0..(step % 7) {
                q.push(next_in);
                next_in += 1;
            }
            for _ in 0..(step % 5) {
                if let Some(v) = q.pop() {
                    assert_eq!(v, next_out);
                    next_out += 1;
                }
            }
        }
        while let Some(v) = q.pop() {
            assert_eq!(v, next_out);
            next_out += 1;
        }
        assert_eq!(next_in, next_out);
    }

    #[test]
    fn drop_frees_pending_values() {
        use std::rc::Rc;
        let marker = Rc::new(());
        let mut q = BlockQueue::new();
        for _ in 0..100 {
            q.push(marker.clone());
        }
        for _ in 0..40 {
            q.pop();
        }
        drop(q);
        assert_eq!(Rc::strong_count(&marker), 1);
    }
}
