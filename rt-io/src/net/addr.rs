//! Address arguments in tokio's style: anything [`ToSocketAddrs`], resolved
//! without blocking the runtime, and [`lookup_host`].

use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};

/// Values that can be resolved to one or more socket addresses.
///
/// Literal addresses resolve at once; host names are resolved on the
/// blocking pool so that the DNS lookup never blocks a worker. The trait is
/// sealed: its method is an implementation detail.
pub trait ToSocketAddrs: sealed::ToSocketAddrsPriv {}

/// How an address argument resolves.
#[doc(hidden)]
pub enum Resolution {
    /// Already known.
    Ready(io::Result<Vec<SocketAddr>>),
    /// A `host:port` string to resolve on the blocking pool.
    Lookup(String),
}

impl std::fmt::Debug for Resolution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Resolution::Ready(r) => f.debug_tuple("Ready").field(r).finish(),
            Resolution::Lookup(s) => f.debug_tuple("Lookup").field(s).finish(),
        }
    }
}

pub(crate) mod sealed {
    use super::Resolution;

    /// The resolution step behind [`ToSocketAddrs`](super::ToSocketAddrs).
    pub trait ToSocketAddrsPriv {
        /// Resolves literals now, or names the lookup to run.
        fn resolution(&self) -> Resolution;
    }
}

use sealed::ToSocketAddrsPriv;

fn ready(addrs: impl IntoIterator<Item = SocketAddr>) -> Resolution {
    Resolution::Ready(Ok(addrs.into_iter().collect()))
}

macro_rules! literal_addr {
    ($($ty:ty => |$v:ident| $e:expr;)*) => {$(
        impl ToSocketAddrs for $ty {}
        impl ToSocketAddrsPriv for $ty {
            fn resolution(&self) -> Resolution {
                let $v = self;
                ready([$e])
            }
        }
    )*};
}

literal_addr! {
    SocketAddr => |a| *a;
    SocketAddrV4 => |a| SocketAddr::V4(*a);
    SocketAddrV6 => |a| SocketAddr::V6(*a);
    (IpAddr, u16) => |a| SocketAddr::new(a.0, a.1);
    (Ipv4Addr, u16) => |a| SocketAddr::new(IpAddr::V4(a.0), a.1);
    (Ipv6Addr, u16) => |a| SocketAddr::new(IpAddr::V6(a.0), a.1);
    [SocketAddr; 1] => |a| a[0];
}

impl ToSocketAddrs for &[SocketAddr] {}
impl ToSocketAddrsPriv for &[SocketAddr] {
    fn resolution(&self) -> Resolution {
        ready(self.iter().copied())
    }
}

impl ToSocketAddrs for str {}
impl ToSocketAddrsPriv for str {
    fn resolution(&self) -> Resolution {
        match self.parse::<SocketAddr>() {
            Ok(addr) => ready([addr]),
            Err(_) => Resolution::Lookup(self.to_owned()),
        }
    }
}

impl ToSocketAddrs for String {}
impl ToSocketAddrsPriv for String {
    fn resolution(&self) -> Resolution {
        self.as_str().resolution()
    }
}

impl ToSocketAddrs for (&str, u16) {}
impl ToSocketAddrsPriv for (&str, u16) {
    fn resolution(&self) -> Resolution {
        let (host, port) = *self;
        match host.parse::<IpAddr>() {
            Ok(ip) => ready([SocketAddr::new(ip, port)]),
            Err(_) => Resolution::Lookup(format!("{host}:{port}")),
        }
    }
}

impl ToSocketAddrs for (String, u16) {}
impl ToSocketAddrsPriv for (String, u16) {
    fn resolution(&self) -> Resolution {
        (self.0.as_str(), self.1).resolution()
    }
}

impl<T: ToSocketAddrs + ?Sized> ToSocketAddrs for &T {}
impl<T: ToSocketAddrsPriv + ?Sized> ToSocketAddrsPriv for &T {
    fn resolution(&self) -> Resolution {
        (**self).resolution()
    }
}

/// Resolves `addr`, on the blocking pool when it names a host (inside a
/// simulation, among the simulation's hosts).
pub(crate) async fn resolve(addr: impl ToSocketAddrs) -> io::Result<Vec<SocketAddr>> {
    match addr.resolution() {
        Resolution::Ready(result) => result,
        Resolution::Lookup(host) => {
            if let Some(sim) = crate::net::sim_seam::current() {
                return sim.network().resolve(&host);
            }
            let lookup = rt_core::task::spawn_blocking(move || {
                std::net::ToSocketAddrs::to_socket_addrs(&host).map(|it| it.collect::<Vec<_>>())
            });
            lookup.await.map_err(io::Error::other)?
        }
    }
}

/// Tries `op` on each resolved address in order; returns the first success
/// or the last error.
pub(crate) async fn each_addr<T, F, Fut>(addr: impl ToSocketAddrs, mut op: F) -> io::Result<T>
where
    F: FnMut(SocketAddr) -> Fut,
    Fut: Future<Output = io::Result<T>>,
{
    let mut last_err = None;
    for addr in resolve(addr).await? {
        match op(addr).await {
            Ok(value) => return Ok(value),
            Err(e) => last_err = Some(e),
        }
    }
    Err(last_err.unwrap_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "could not resolve to any address",
        )
    }))
}

/// Resolves `host` (for example `"localhost:8080"`) to its socket
/// addresses, running the system resolver on the blocking pool.
///
/// ```
/// # rt_core::runtime::Builder::new_current_thread()
/// #     .base_driver(rt_io::reactor::base_driver())
/// #     .build().unwrap().block_on(async {
/// let addrs: Vec<_> = rt_io::net::lookup_host("127.0.0.1:80").await.unwrap().collect();
/// assert_eq!(addrs, ["127.0.0.1:80".parse().unwrap()]);
/// # });
/// ```
pub async fn lookup_host<T: ToSocketAddrs>(
    host: T,
) -> io::Result<impl Iterator<Item = SocketAddr>> {
    Ok(resolve(host).await?.into_iter())
}
