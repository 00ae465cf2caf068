//! What the strong and weak senders of both channel kinds share: lifetime
//! bookkeeping, closing and identity, on top of the generic `chan::Tx` and
//! `chan::WeakTx`. How a message is sent differs per kind and lives in
//! `bounded.rs` and `unbounded.rs`.

/// Implements the API shared by both channel kinds for the strong sender
/// `$sender<T>` and the weak sender `$weak<T>`: structs whose field `chan`
/// is a `chan::Tx<T, S>` and a `chan::WeakTx<T, S>`. `Debug` for the weak
/// sender comes with it; the strong sender's differs per kind.
macro_rules! impl_sender {
    ($sender:ident, $weak:ident) => {
        impl<T> $sender<T> {
            /// Waits until the receiver is dropped or closed.
            ///
            /// # Cancel safety
            ///
            /// Cancel-safe.
            pub async fn closed(&self) {
                self.chan.closed().await
            }

            /// Whether the receiver was dropped or closed.
            pub fn is_closed(&self) -> bool {
                self.chan.is_closed()
            }

            /// Whether both senders feed the same channel.
            pub fn same_channel(&self, other: &Self) -> bool {
                self.chan.same_channel(&other.chan)
            }

            #[doc = concat!(
                "A [`", stringify!($weak), "`] for this channel, which does not keep it open."
            )]
            pub fn downgrade(&self) -> $weak<T> {
                $weak {
                    chan: self.chan.downgrade(),
                }
            }

            /// Live (strong) senders of this channel.
            pub fn strong_count(&self) -> usize {
                self.chan.strong_count()
            }

            /// Live weak senders of this channel.
            pub fn weak_count(&self) -> usize {
                self.chan.weak_count()
            }
        }

        impl<T> Clone for $sender<T> {
            fn clone(&self) -> Self {
                $sender {
                    chan: self.chan.clone(),
                }
            }
        }

        impl<T> $weak<T> {
            #[doc = concat!(
                "A strong [`", stringify!($sender), "`], unless every strong sender is gone."
            )]
            pub fn upgrade(&self) -> Option<$sender<T>> {
                self.chan.upgrade().map(|chan| $sender { chan })
            }

            /// Live (strong) senders of this channel.
            pub fn strong_count(&self) -> usize {
                self.chan.strong_count()
            }

            /// Live weak senders of this channel.
            pub fn weak_count(&self) -> usize {
                self.chan.weak_count()
            }
        }

        impl<T> Clone for $weak<T> {
            fn clone(&self) -> Self {
                $weak {
                    chan: self.chan.clone(),
                }
            }
        }

        impl<T> std::fmt::Debug for $weak<T> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($weak)).finish_non_exhaustive()
            }
        }
    };
}

pub(super) use impl_sender;
