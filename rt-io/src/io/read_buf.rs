//! `ReadBuf`: a borrowed buffer that tracks how much of it is filled and how
//! much is initialised, so readers can write into uninitialised memory
//! without ever exposing it as `&[u8]`.
//!
//! The buffer is split in three regions that only ever grow from the left:
//!
//! ```text
//! [ filled | initialised but unfilled | uninitialised ]
//! 0      filled                   initialized     capacity
//! ```
//!
//! Invariant: `filled <= initialized <= buf.len()`, and every byte below
//! `initialized` has been written at least once. All safe methods keep it;
//! the `unsafe` ones state what the caller must promise instead.

use bytes::buf::UninitSlice;
use bytes::BufMut;
use std::fmt;
use std::mem::MaybeUninit;

/// A wrapper around a byte buffer that is being filled by a reader.
///
/// The filled part is what the reader has produced so far; the rest is room
/// that may or may not be initialised. Reading a zero-length growth of
/// [`filled`](ReadBuf::filled) means end of stream only if
/// [`remaining`](ReadBuf::remaining) was non-zero.
///
/// ```
/// use rt_io::io::ReadBuf;
///
/// let mut storage = [0u8; 8];
/// let mut buf = ReadBuf::new(&mut storage);
/// buf.put_slice(b"abc");
/// assert_eq!(buf.filled(), b"abc");
/// assert_eq!(buf.remaining(), 5);
/// ```
pub struct ReadBuf<'a> {
    buf: &'a mut [MaybeUninit<u8>],
    filled: usize,
    initialized: usize,
}

impl<'a> ReadBuf<'a> {
    /// Wraps a fully initialised buffer; nothing is filled yet.
    #[inline]
    pub fn new(buf: &'a mut [u8]) -> ReadBuf<'a> {
        let initialized = buf.len();
        // SAFETY: `[u8]` and `[MaybeUninit<u8>]` have the same layout, and
        // the resulting view is only ever written with initialised bytes
        // (safe methods never de-initialise memory), so the caller's slice
        // stays valid `u8`s.
        let buf = unsafe { &mut *(buf as *mut [u8] as *mut [MaybeUninit<u8>]) };
        ReadBuf {
            buf,
            filled: 0,
            initialized,
        }
    }

    /// Wraps a buffer whose contents may be uninitialised.
    #[inline]
    pub fn uninit(buf: &'a mut [MaybeUninit<u8>]) -> ReadBuf<'a> {
        ReadBuf {
            buf,
            filled: 0,
            initialized: 0,
        }
    }

    /// The total size of the buffer.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.buf.len()
    }

    /// The part of the buffer that has been filled.
    #[inline]
    pub fn filled(&self) -> &[u8] {
        let slice = &self.buf[..self.filled];
        // SAFETY: `filled <= initialized`, so these bytes are initialised.
        unsafe { slice_assume_init(slice) }
    }

    /// The filled part, mutably.
    #[inline]
    pub fn filled_mut(&mut self) -> &mut [u8] {
        let slice = &mut self.buf[..self.filled];
        // SAFETY: `filled <= initialized`, so these bytes are initialised.
        unsafe { slice_assume_init_mut(slice) }
    }

    /// A new `ReadBuf` over at most `n` bytes of the unfilled part.
    ///
    /// What the new buffer fills is not counted here; the caller advances
    /// this buffer by the amount it observed.
    #[inline]
    pub fn take(&mut self, n: usize) -> ReadBuf<'_> {
        let max = n.min(self.remaining());
        let initialized = self.initialized.saturating_sub(self.filled).min(max);
        ReadBuf {
            buf: &mut self.buf[self.filled..self.filled + max],
            filled: 0,
            initialized,
        }
    }

    /// The part of the buffer known to be initialised (filled or not).
    #[inline]
    pub fn initialized(&self) -> &[u8] {
        let slice = &self.buf[..self.initialized];
        // SAFETY: by the type's invariant, bytes below `initialized` are
        // initialised.
        unsafe { slice_assume_init(slice) }
    }

    /// The initialised part, mutably.
    #[inline]
    pub fn initialized_mut(&mut self) -> &mut [u8] {
        let slice = &mut self.buf[..self.initialized];
        // SAFETY: by the type's invariant, bytes below `initialized` are
        // initialised.
        unsafe { slice_assume_init_mut(slice) }
    }

    /// The whole buffer, initialised or not.
    ///
    /// # Safety
    ///
    /// The caller must not de-initialise any byte that was initialised
    /// (for example by writing `MaybeUninit::uninit()` into it).
    #[inline]
    pub unsafe fn inner_mut(&mut self) -> &mut [MaybeUninit<u8>] {
        self.buf
    }

    /// The unfilled part, initialised or not.
    ///
    /// # Safety
    ///
    /// The caller must not de-initialise any byte that was initialised.
    #[inline]
    pub unsafe fn unfilled_mut(&mut self) -> &mut [MaybeUninit<u8>] {
        &mut self.buf[self.filled..]
    }

    /// Initialises (with zeroes, where needed) and returns the whole unfilled
    /// part.
    #[inline]
    pub fn initialize_unfilled(&mut self) -> &mut [u8] {
        self.initialize_unfilled_to(self.remaining())
    }

    /// Initialises (with zeroes, where needed) and returns the first `n`
    /// bytes of the unfilled part.
    ///
    /// # Panics
    ///
    /// If `n` is larger than [`remaining`](ReadBuf::remaining).
    #[inline]
    #[track_caller]
    pub fn initialize_unfilled_to(&mut self, n: usize) -> &mut [u8] {
        assert!(self.remaining() >= n, "n overflows remaining");
        let end = self.filled + n;
        if self.initialized < end {
            let fresh = &mut self.buf[self.initialized..end];
            // SAFETY: `fresh` is a valid, exclusively borrowed slice of
            // `MaybeUninit<u8>`, for which any byte pattern (zero here) is
            // a valid write of `fresh.len()` bytes.
            unsafe { std::ptr::write_bytes(fresh.as_mut_ptr(), 0, fresh.len()) };
            self.initialized = end;
        }
        let slice = &mut self.buf[self.filled..end];
        // SAFETY: everything below `end` is initialised: below
        // `self.initialized` by earlier calls, the rest just above.
        unsafe { slice_assume_init_mut(slice) }
    }

    /// How many bytes can still be filled.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.capacity() - self.filled
    }

    /// Forgets the filled part (initialisation is kept).
    #[inline]
    pub fn clear(&mut self) {
        self.filled = 0;
    }

    /// Marks `n` more bytes as filled.
    ///
    /// # Panics
    ///
    /// If that would fill bytes that are not initialised.
    #[inline]
    #[track_caller]
    pub fn advance(&mut self, n: usize) {
        let new = self.filled.checked_add(n).expect("filled overflow");
        self.set_filled(new);
    }

    /// Sets the filled length to `n`.
    ///
    /// # Panics
    ///
    /// If `n` is larger than the initialised length.
    #[inline]
    #[track_caller]
    pub fn set_filled(&mut self, n: usize) {
        assert!(
            n <= self.initialized,
            "filled must not become larger than initialized"
        );
        self.filled = n;
    }

    /// Declares the first `n` unfilled bytes initialised.
    ///
    /// # Safety
    ///
    /// The caller must have initialised those bytes (for example through
    /// [`unfilled_mut`](ReadBuf::unfilled_mut)).
    #[inline]
    pub unsafe fn assume_init(&mut self, n: usize) {
        let new = self.filled + n;
        if new > self.initialized {
            self.initialized = new;
        }
    }

    /// Appends `src` to the filled part, initialising as it goes.
    ///
    /// # Panics
    ///
    /// If `src` is longer than [`remaining`](ReadBuf::remaining).
    #[inline]
    #[track_caller]
    pub fn put_slice(&mut self, src: &[u8]) {
        assert!(
            self.remaining() >= src.len(),
            "buf.len() must fit in remaining()"
        );
        let end = self.filled + src.len();
        let dst = &mut self.buf[self.filled..end];
        // SAFETY: `dst` and `src` have the same length (checked above), `dst`
        // is exclusively borrowed so the two cannot overlap, and
        // `MaybeUninit<u8>` has `u8`'s layout.
        unsafe {
            std::ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr().cast::<u8>(), src.len())
        };
        if self.initialized < end {
            self.initialized = end;
        }
        self.filled = end;
    }
}

// SAFETY: `chunk_mut` exposes exactly the unfilled part, and
// `advance_mut(cnt)` is only called (per `BufMut`'s contract) after the
// caller initialised `cnt` bytes of it, which is what `assume_init` and
// `advance` record.
unsafe impl BufMut for ReadBuf<'_> {
    fn remaining_mut(&self) -> usize {
        self.remaining()
    }

    unsafe fn advance_mut(&mut self, cnt: usize) {
        // SAFETY: the caller initialised the first `cnt` unfilled bytes.
        unsafe { self.assume_init(cnt) };
        self.advance(cnt);
    }

    fn chunk_mut(&mut self) -> &mut UninitSlice {
        // SAFETY: `UninitSlice` never de-initialises memory, so handing out
        // the unfilled part keeps the initialisation invariant.
        let unfilled = unsafe { self.unfilled_mut() };
        UninitSlice::uninit(unfilled)
    }
}

impl fmt::Debug for ReadBuf<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReadBuf")
            .field("filled", &self.filled)
            .field("initialized", &self.initialized)
            .field("capacity", &self.capacity())
            .finish()
    }
}

/// # Safety
/// Every byte of `slice` must be initialised.
unsafe fn slice_assume_init(slice: &[MaybeUninit<u8>]) -> &[u8] {
    // SAFETY: same layout; the caller promises the bytes are initialised.
    unsafe { &*(slice as *const [MaybeUninit<u8>] as *const [u8]) }
}

/// # Safety
/// Every byte of `slice` must be initialised.
unsafe fn slice_assume_init_mut(slice: &mut [MaybeUninit<u8>]) -> &mut [u8] {
    // SAFETY: same layout; the caller promises the bytes are initialised.
    unsafe { &mut *(slice as *mut [MaybeUninit<u8>] as *mut [u8]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uninit_buffer_initialises_on_demand() {
        let mut storage = [MaybeUninit::<u8>::uninit(); 16];
        let mut buf = ReadBuf::uninit(&mut storage);
        assert_eq!(buf.initialized().len(), 0);
        buf.put_slice(b"hi");
        assert_eq!(buf.initialized(), b"hi");
        let rest = buf.initialize_unfilled_to(4);
        assert_eq!(rest, &[0, 0, 0, 0]);
        rest.copy_from_slice(b"1234");
        buf.advance(4);
        assert_eq!(buf.filled(), b"hi1234");
        assert_eq!(buf.remaining(), 10);
        buf.clear();
        assert_eq!(buf.filled(), b"");
        assert_eq!(buf.initialized().len(), 6);
    }

    #[test]
    #[should_panic(expected = "filled must not become larger than initialized")]
    fn advance_past_initialised_panics() {
        let mut storage = [MaybeUninit::<u8>::uninit(); 4];
        let mut buf = ReadBuf::uninit(&mut storage);
        buf.advance(1);
    }

    #[test]
    fn take_limits_and_inherits_initialisation() {
        let mut storage = [0u8; 8];
        let mut buf = ReadBuf::new(&mut storage);
        buf.put_slice(b"ab");
        let mut sub = buf.take(3);
        assert_eq!(sub.capacity(), 3);
        assert_eq!(sub.initialized().len(), 3);
        sub.put_slice(b"xyz");
        let n = sub.filled().len();
        buf.advance(n);
        assert_eq!(buf.filled(), b"abxyz");
    }

    #[test]
    fn buf_mut_writes_fill_the_buffer() {
        let mut storage = [MaybeUninit::<u8>::uninit(); 6];
        let mut buf = ReadBuf::uninit(&mut storage);
        buf.put_u16(0x6869);
        BufMut::put_slice(&mut buf, b"!!");
        assert_eq!(buf.filled(), b"hi!!");
        assert_eq!(buf.remaining_mut(), 2);
    }

    #[test]
    fn assume_init_after_raw_write() {
        let mut storage = [MaybeUninit::<u8>::uninit(); 4];
        let mut buf = ReadBuf::uninit(&mut storage);
        // SAFETY: we only write initialised values into the slice.
        unsafe {
            buf.unfilled_mut()[0].write(7);
            buf.assume_init(1);
        }
        buf.advance(1);
        assert_eq!(buf.filled(), &[7]);
    }
}
