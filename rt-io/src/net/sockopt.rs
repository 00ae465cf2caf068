//! The IP-level socket options that `TcpSocket`, `TcpStream` and
//! `UdpSocket` share (type of service, traffic class, bound device), as one
//! macro so that each option is written once. Each method goes through
//! `socket2::SockRef` on the type's borrowed descriptor.

/// Implements the shared IP options for `$ty`, which must implement
/// `AsFd`.
macro_rules! ip_options {
    ($ty:ident) => {
        // Type of service: where socket2 has `IP_TOS`.
        #[cfg(not(any(
            target_os = "fuchsia",
            target_os = "redox",
            target_os = "solaris",
            target_os = "illumos",
            target_os = "haiku"
        )))]
        impl $ty {
            /// The IPv4 type-of-service field (`IP_TOS`) of outgoing packets.
            pub fn tos_v4(&self) -> std::io::Result<u32> {
                socket2::SockRef::from(self).tos_v4()
            }

            /// Sets the IPv4 type-of-service field (`IP_TOS`) of outgoing
            /// packets.
            pub fn set_tos_v4(&self, tos: u32) -> std::io::Result<()> {
                socket2::SockRef::from(self).set_tos_v4(tos)
            }

            /// The former name of [`tos_v4`](Self::tos_v4).
            #[deprecated(note = "use `tos_v4` instead")]
            pub fn tos(&self) -> std::io::Result<u32> {
                self.tos_v4()
            }

            /// The former name of [`set_tos_v4`](Self::set_tos_v4).
            #[deprecated(note = "use `set_tos_v4` instead")]
            pub fn set_tos(&self, tos: u32) -> std::io::Result<()> {
                self.set_tos_v4(tos)
            }
        }

        // Traffic class: where socket2 has `IPV6_TCLASS`.
        #[cfg(any(
            target_os = "android",
            target_os = "dragonfly",
            target_os = "freebsd",
            target_os = "fuchsia",
            target_os = "linux",
            target_os = "macos",
            target_os = "netbsd",
            target_os = "openbsd"
        ))]
        impl $ty {
            /// The IPv6 traffic class (`IPV6_TCLASS`) of outgoing packets.
            pub fn tclass_v6(&self) -> std::io::Result<u32> {
                socket2::SockRef::from(self).tclass_v6()
            }

            /// Sets the IPv6 traffic class (`IPV6_TCLASS`) of outgoing
            /// packets.
            pub fn set_tclass_v6(&self, tclass: u32) -> std::io::Result<()> {
                socket2::SockRef::from(self).set_tclass_v6(tclass)
            }
        }

        // Binding to a device: `SO_BINDTODEVICE`.
        #[cfg(any(target_os = "android", target_os = "fuchsia", target_os = "linux"))]
        impl $ty {
            /// The interface the socket is bound to (`SO_BINDTODEVICE`), if
            /// any.
            pub fn device(&self) -> std::io::Result<Option<Vec<u8>>> {
                socket2::SockRef::from(self).device()
            }

            /// Binds the socket to the interface named `interface`
            /// (`SO_BINDTODEVICE`), or unbinds it with `None`. Needs
            /// `CAP_NET_RAW` on most systems.
            pub fn bind_device(&self, interface: Option<&[u8]>) -> std::io::Result<()> {
                socket2::SockRef::from(self).bind_device(interface)
            }
        }
    };
}

pub(crate) use ip_options;
