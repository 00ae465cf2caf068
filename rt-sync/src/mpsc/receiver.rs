//! The receiving half of an mpsc channel, written once for both capacity
//! policies. The receive logic itself is generic over the channel's
//! semaphore kind (`chan::Rx<T, S>`); this macro gives
//! [`Receiver`](super::Receiver) and
//! [`UnboundedReceiver`](super::UnboundedReceiver) the same public methods
//! on top of it, so each stays a plain named struct with its own docs.

/// Implements the receiver API shared by both channel kinds, and `Debug`,
/// for `$receiver<T>`, a struct whose field `chan` is a `chan::Rx<T, S>`.
macro_rules! impl_receiver {
    ($receiver:ident) => {
        // A panic while the receiver is borrowed leaves every message
        // either still queued (with its permit) or already handed out, so
        // the channel stays consistent whatever `T` is; tokio promises the
        // same. Without these, the receiver's own queue (raw block
        // pointers) would make it unwind-safe only for unwind-safe `T`.
        impl<T> ::std::panic::UnwindSafe for $receiver<T> {}
        impl<T> ::std::panic::RefUnwindSafe for $receiver<T> {}

        impl<T> $receiver<T> {
            /// Waits for the next message; `None` once every sender is gone (or
            /// the channel was closed) and every message sent has been received.
            ///
            /// # Cancel safety
            ///
            /// Cancel-safe: a message is only taken by the poll that returns it.
            pub async fn recv(&mut self) -> Option<T> {
                ::std::future::poll_fn(|cx| self.chan.poll_recv(cx)).await
            }

            /// Waits for messages and moves up to `limit` of them into `buffer`;
            /// returns how many. Returns 0 only when `limit` is 0 or the channel is
            /// closed and drained.
            ///
            /// # Cancel safety
            ///
            /// Cancel-safe.
            pub async fn recv_many(&mut self, buffer: &mut Vec<T>, limit: usize) -> usize {
                ::std::future::poll_fn(|cx| self.chan.poll_recv_many(cx, buffer, limit)).await
            }

            /// Takes the next message if one is there right now.
            pub fn try_recv(&mut self) -> Result<T, $crate::mpsc::error::TryRecvError> {
                self.chan.try_recv()
            }

            /// Receives from synchronous code, parking the thread while empty.
            ///
            /// Must not be called from inside an asynchronous task.
            #[track_caller]
            pub fn blocking_recv(&mut self) -> Option<T> {
                rt_core::util::block_on(self.recv())
            }

            /// As [`recv_many`](Self::recv_many), parking the thread.
            ///
            /// Must not be called from inside an asynchronous task.
            #[track_caller]
            pub fn blocking_recv_many(&mut self, buffer: &mut Vec<T>, limit: usize) -> usize {
                rt_core::util::block_on(self.recv_many(buffer, limit))
            }

            /// Closes the channel: senders can no longer send (or reserve), but
            /// every message already sent, and every slot already reserved, is
            /// still delivered.
            pub fn close(&mut self) {
                self.chan.close();
            }

            /// Whether the channel is closed (by [`close`](Self::close) or because
            /// every sender is gone). Messages may still be waiting.
            pub fn is_closed(&self) -> bool {
                self.chan.is_closed()
            }

            /// Whether no message is waiting.
            pub fn is_empty(&self) -> bool {
                self.chan.len() == 0
            }

            /// Messages waiting.
            pub fn len(&self) -> usize {
                self.chan.len()
            }

            /// Live (strong) senders of this channel.
            pub fn sender_strong_count(&self) -> usize {
                self.chan.sender_strong_count()
            }

            /// Live weak senders of this channel.
            pub fn sender_weak_count(&self) -> usize {
                self.chan.sender_weak_count()
            }

            /// Polls for the next message, registering `cx`'s waker if none is
            /// there; see [`recv`](Self::recv).
            pub fn poll_recv(
                &mut self,
                cx: &mut ::std::task::Context<'_>,
            ) -> ::std::task::Poll<Option<T>> {
                self.chan.poll_recv(cx)
            }

            /// Polls for up to `limit` messages; see [`recv_many`](Self::recv_many).
            pub fn poll_recv_many(
                &mut self,
                cx: &mut ::std::task::Context<'_>,
                buffer: &mut Vec<T>,
                limit: usize,
            ) -> ::std::task::Poll<usize> {
                self.chan.poll_recv_many(cx, buffer, limit)
            }
        }

        impl<T> std::fmt::Debug for $receiver<T> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($receiver))
                    .field("len", &self.len())
                    .finish()
            }
        }
    };
}

pub(super) use impl_receiver;
