//! An intrusive doubly linked list.
//!
//! The nodes live inside the values they link (a task cell, a waiter on a
//! future's stack, a timer entry), so pushing and removing never allocates.
//! The list itself owns nothing but two pointers; what "owning" a node means
//! is decided by the [`Link`] implementation through its `Handle` type.
//!
//! Every operation is `unsafe` in spirit: the caller guarantees that a node
//! sits in at most one list at a time and that the list is only touched under
//! whatever lock protects it. Those rules are stated on each method.

use std::cell::UnsafeCell;
use std::fmt;
use std::marker::{PhantomData, PhantomPinned};
use std::ptr::NonNull;

/// Describes how a type is linked into a [`LinkedList`].
///
/// # Safety
///
/// `pointers` must return the same [`Pointers`] for a node for as long as it
/// is linked, and `from_raw(as_raw(h))` must give back an equivalent handle.
/// A node must not move while it is linked.
pub unsafe trait Link {
    /// The owning handle: pushed into the list and returned when popped.
    type Handle;
    /// The node type that carries the [`Pointers`].
    type Target;

    /// Converts a handle into a raw node pointer, giving up its ownership to
    /// the list.
    fn as_raw(handle: &Self::Handle) -> NonNull<Self::Target>;

    /// Converts a raw node pointer back into an owning handle.
    ///
    /// # Safety
    ///
    /// `ptr` must have come from `as_raw` and its ownership must not have
    /// been reclaimed already.
    unsafe fn from_raw(ptr: NonNull<Self::Target>) -> Self::Handle;

    /// Returns the node's link pointers.
    ///
    /// # Safety
    ///
    /// `target` must point at a live node.
    unsafe fn pointers(target: NonNull<Self::Target>) -> NonNull<Pointers<Self::Target>>;
}

/// Implements [`Link`] for a node linked by address: the handle is a plain
/// `NonNull` pointer to the node and the list owns nothing, the node's
/// [`Pointers`] are its field named `$field`. This is how waiters are
/// linked: a future holds its node pinned and unlinks it (under the lock
/// that guards the list) before it moves or is dropped.
///
/// ```ignore
/// // SAFETY: (why a linked `Waiter` never moves or dangles)
/// linked_list::link_by_address!(unsafe Waiter, pointers);
/// ```
///
/// # Safety
///
/// The `unsafe` the invocation spells is the invoker's promise that a
/// linked node does not move and is unlinked before it is dropped; the
/// rest of [`Link`]'s contract the implementation keeps by itself.
#[doc(hidden)]
#[macro_export]
macro_rules! __rt_link_by_address {
    (unsafe $node:ident, $field:ident) => {
        // SAFETY: the handle is the node's address, so `from_raw(as_raw(h))`
        // is `h`; `pointers` gives the node's own `$field` for its whole
        // life; and the invoker's `unsafe` promises that a linked node does
        // not move and is unlinked before it is dropped.
        unsafe impl $crate::util::linked_list::Link for $node {
            type Handle = ::core::ptr::NonNull<$node>;
            type Target = $node;

            fn as_raw(handle: &::core::ptr::NonNull<$node>) -> ::core::ptr::NonNull<$node> {
                *handle
            }

            unsafe fn from_raw(ptr: ::core::ptr::NonNull<$node>) -> ::core::ptr::NonNull<$node> {
                ptr
            }

            unsafe fn pointers(
                target: ::core::ptr::NonNull<$node>,
            ) -> ::core::ptr::NonNull<$crate::util::linked_list::Pointers<$node>> {
                // SAFETY: the caller guarantees `target` is live; taking a
                // field's address creates no reference to the whole node.
                unsafe {
                    ::core::ptr::NonNull::new_unchecked(::core::ptr::addr_of_mut!(
                        (*target.as_ptr()).$field
                    ))
                }
            }
        }
    };
}

#[doc(inline)]
pub use crate::__rt_link_by_address as link_by_address;

/// The previous and next pointers embedded in a node.
pub struct Pointers<T> {
    inner: UnsafeCell<PointersInner<T>>,
}

struct PointersInner<T> {
    prev: Option<NonNull<T>>,
    next: Option<NonNull<T>>,
    /// A linked node is referenced by its neighbours, so it must not move.
    _pin: PhantomPinned,
}

/// An intrusive doubly linked list of `L::Target` nodes.
pub struct LinkedList<L: Link> {
    head: Option<NonNull<L::Target>>,
    tail: Option<NonNull<L::Target>>,
    _marker: PhantomData<*const L>,
}

// SAFETY: the list holds pointers to nodes whose handles are `Send`; moving
// the list moves the right to those handles, nothing else.
unsafe impl<L: Link> Send for LinkedList<L> where L::Target: Send {}
// SAFETY: `&LinkedList` exposes no way to reach the nodes; every method that
// touches them takes `&mut self`.
unsafe impl<L: Link> Sync for LinkedList<L> where L::Target: Sync {}

impl<T> Pointers<T> {
    /// Unlinked pointers.
    pub const fn new() -> Pointers<T> {
        Pointers {
            inner: UnsafeCell::new(PointersInner {
                prev: None,
                next: None,
                _pin: PhantomPinned,
            }),
        }
    }

    fn prev(&self) -> Option<NonNull<T>> {
        // SAFETY: the list's lock serialises every access to the pointers.
        unsafe { (*self.inner.get()).prev }
    }

    fn next(&self) -> Option<NonNull<T>> {
        // SAFETY: as in `prev`.
        unsafe { (*self.inner.get()).next }
    }

    fn set_prev(&self, value: Option<NonNull<T>>) {
        // SAFETY: as in `prev`.
        unsafe { (*self.inner.get()).prev = value }
    }

    fn set_next(&self, value: Option<NonNull<T>>) {
        // SAFETY: as in `prev`.
        unsafe { (*self.inner.get()).next = value }
    }
}

impl<T> Default for Pointers<T> {
    fn default() -> Self {
        Pointers::new()
    }
}

impl<T> fmt::Debug for Pointers<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pointers")
            .field("prev", &self.prev())
            .field("next", &self.next())
            .finish()
    }
}

impl<L: Link> LinkedList<L> {
    /// An empty list.
    pub const fn new() -> LinkedList<L> {
        LinkedList {
            head: None,
            tail: None,
            _marker: PhantomData,
        }
    }

    /// Whether the list has no nodes.
    pub fn is_empty(&self) -> bool {
        debug_assert_eq!(self.head.is_none(), self.tail.is_none());
        self.head.is_none()
    }

    /// The node at the front, without removing it.
    pub fn front(&self) -> Option<NonNull<L::Target>> {
        self.head
    }

    /// The node at the back, without removing it.
    pub fn back(&self) -> Option<NonNull<L::Target>> {
        self.tail
    }

    /// Links `handle` at the front.
    pub fn push_front(&mut self, handle: L::Handle) {
        let node = L::as_raw(&handle);
        std::mem::forget(handle);
        assert_ne!(self.head, Some(node), "node pushed twice");
        // SAFETY: `node` is live (we just took its handle) and is not in any
        // list, which is the caller's contract for a fresh handle.
        unsafe {
            let ptrs = L::pointers(node).as_ref();
            ptrs.set_next(self.head);
            ptrs.set_prev(None);
            if let Some(head) = self.head {
                L::pointers(head).as_ref().set_prev(Some(node));
            }
        }
        self.head = Some(node);
        if self.tail.is_none() {
            self.tail = Some(node);
        }
    }

    /// Links `handle` at the back.
    pub fn push_back(&mut self, handle: L::Handle) {
        let node = L::as_raw(&handle);
        std::mem::forget(handle);
        assert_ne!(self.tail, Some(node), "node pushed twice");
        // SAFETY: as in `push_front`.
        unsafe {
            let ptrs = L::pointers(node).as_ref();
            ptrs.set_prev(self.tail);
            ptrs.set_next(None);
            if let Some(tail) = self.tail {
                L::pointers(tail).as_ref().set_next(Some(node));
            }
        }
        self.tail = Some(node);
        if self.head.is_none() {
            self.head = Some(node);
        }
    }

    /// Unlinks and returns the front node.
    pub fn pop_front(&mut self) -> Option<L::Handle> {
        let head = self.head?;
        // SAFETY: `head` is linked in this list, so it is live and its
        // ownership was given to the list by a push.
        unsafe {
            self.unlink(head);
            Some(L::from_raw(head))
        }
    }

    /// Unlinks and returns the back node.
    pub fn pop_back(&mut self) -> Option<L::Handle> {
        let tail = self.tail?;
        // SAFETY: as in `pop_front`.
        unsafe {
            self.unlink(tail);
            Some(L::from_raw(tail))
        }
    }

    /// Unlinks `node` and returns its handle, or `None` if `node` is plainly
    /// not in this list (unlinked and not the only node).
    ///
    /// # Safety
    ///
    /// `node` must be live and must either be in this list or in no list.
    pub unsafe fn remove(&mut self, node: NonNull<L::Target>) -> Option<L::Handle> {
        // SAFETY: the caller guarantees `node` is live.
        let ptrs = unsafe { L::pointers(node).as_ref() };
        if ptrs.prev().is_none() && self.head != Some(node) {
            return None;
        }
        // SAFETY: `node` is in this list: it has a predecessor (only nodes of
        // this list can be linked, by the caller's contract) or is the head.
        unsafe {
            self.unlink(node);
            Some(L::from_raw(node))
        }
    }

    /// # Safety
    ///
    /// `node` must be linked in this list.
    unsafe fn unlink(&mut self, node: NonNull<L::Target>) {
        // SAFETY: the caller guarantees `node` and its neighbours are live
        // nodes of this list.
        unsafe {
            let ptrs = L::pointers(node).as_ref();
            match ptrs.prev() {
                Some(prev) => L::pointers(prev).as_ref().set_next(ptrs.next()),
                None => self.head = ptrs.next(),
            }
            match ptrs.next() {
                Some(next) => L::pointers(next).as_ref().set_prev(ptrs.prev()),
                None => self.tail = ptrs.prev(),
            }
            ptrs.set_prev(None);
            ptrs.set_next(None);
        }
    }

    /// Visits every node from front to back without unlinking any.
    pub fn for_each(&self, mut f: impl FnMut(NonNull<L::Target>)) {
        let mut cursor = self.head;
        while let Some(node) = cursor {
            // SAFETY: every linked node is live while the list is borrowed.
            cursor = unsafe { L::pointers(node).as_ref().next() };
            f(node);
        }
    }
}

impl<L: Link> Default for LinkedList<L> {
    fn default() -> Self {
        LinkedList::new()
    }
}

impl<L: Link> fmt::Debug for LinkedList<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LinkedList")
            .field("head", &self.head)
            .field("tail", &self.tail)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::pin::Pin;

    struct Entry {
        value: i32,
        pointers: Pointers<Entry>,
    }

    /// Links entries the test owns (pinned in boxes that outlive the
    /// list), so that every entry is freed when the test ends.
    // SAFETY: each entry is pinned and outlives the list it is linked in.
    unsafe impl<'a> Link for &'a Entry {
        type Handle = Pin<&'a Entry>;
        type Target = Entry;

        fn as_raw(handle: &Self::Handle) -> NonNull<Entry> {
            NonNull::from(handle.get_ref())
        }

        unsafe fn from_raw(ptr: NonNull<Entry>) -> Self::Handle {
            // SAFETY: `ptr` came from `as_raw` of a `Pin<&'a Entry>`, so
            // the entry is pinned and lives for 'a.
            unsafe { Pin::new_unchecked(&*ptr.as_ptr()) }
        }

        unsafe fn pointers(target: NonNull<Entry>) -> NonNull<Pointers<Entry>> {
            // SAFETY: `target` is live by the trait's contract.
            unsafe { NonNull::from(&(*target.as_ptr()).pointers) }
        }
    }

    fn entry(value: i32) -> Pin<Box<Entry>> {
        Box::pin(Entry {
            value,
            pointers: Pointers::new(),
        })
    }

    fn values(list: &LinkedList<&Entry>) -> Vec<i32> {
        let mut out = Vec::new();
        // SAFETY: linked entries outlive the list.
        list.for_each(|n| out.push(unsafe { n.as_ref().value }));
        out
    }

    #[test]
    fn push_pop_both_ends() {
        let (one, two, three) = (entry(1), entry(2), entry(3));
        let mut list = LinkedList::<&Entry>::new();
        assert!(list.is_empty());
        list.push_front(two.as_ref());
        list.push_front(one.as_ref());
        list.push_back(three.as_ref());
        assert_eq!(values(&list), [1, 2, 3]);
        assert_eq!(list.pop_front().unwrap().value, 1);
        assert_eq!(list.pop_back().unwrap().value, 3);
        assert_eq!(list.pop_back().unwrap().value, 2);
        assert!(list.pop_front().is_none());
        assert!(list.is_empty());
    }

    #[test]
    fn remove_middle_head_tail_and_stranger() {
        let nodes: Vec<_> = (0..4).map(entry).collect();
        let stranger = entry(9);
        let mut list = LinkedList::<&Entry>::new();
        for n in &nodes {
            list.push_back(n.as_ref());
        }
        let raw = |i: usize| NonNull::from(nodes[i].as_ref().get_ref());
        // SAFETY: every node is live and in this list.
        unsafe {
            assert_eq!(list.remove(raw(1)).unwrap().value, 1);
            assert_eq!(list.remove(raw(0)).unwrap().value, 0);
            assert_eq!(list.remove(raw(3)).unwrap().value, 3);
            assert!(list.remove(raw(1)).is_none(), "already removed");
        }
        assert_eq!(values(&list), [2]);
        // SAFETY: `stranger` is live and in no list.
        assert!(unsafe { list.remove(NonNull::from(stranger.as_ref().get_ref())) }.is_none());
        assert_eq!(list.pop_front().unwrap().value, 2);
        assert!(list.is_empty());
    }
}
