//! Names and addresses: which host an address belongs to, and what a
//! host name resolves to.

use crate::host::{expect_current_host, HostId};
use crate::world::{with_world, World};
use std::io;
use std::net::{IpAddr, SocketAddr};

/// Something that names a socket address in the simulation: a
/// `SocketAddr`, `"host:port"` (a host's name, `localhost` or an IP
/// literal), `(name, port)` or `(IpAddr, port)`.
pub trait ToSimAddr {
    /// The address, looked up among the simulation's hosts.
    fn to_sim_addr(&self) -> io::Result<SocketAddr>;
}

impl ToSimAddr for SocketAddr {
    fn to_sim_addr(&self) -> io::Result<SocketAddr> {
        Ok(*self)
    }
}

impl ToSimAddr for (IpAddr, u16) {
    fn to_sim_addr(&self) -> io::Result<SocketAddr> {
        Ok(SocketAddr::new(self.0, self.1))
    }
}

impl ToSimAddr for (&str, u16) {
    fn to_sim_addr(&self) -> io::Result<SocketAddr> {
        Ok(SocketAddr::new(resolve_name(self.0)?, self.1))
    }
}

impl ToSimAddr for str {
    fn to_sim_addr(&self) -> io::Result<SocketAddr> {
        if let Ok(addr) = self.parse::<SocketAddr>() {
            return Ok(addr);
        }
        let (name, port) = self.rsplit_once(':').ok_or_else(|| invalid(self))?;
        let port = port.parse().map_err(|_| invalid(self))?;
        Ok(SocketAddr::new(resolve_name(name)?, port))
    }
}

impl ToSimAddr for String {
    fn to_sim_addr(&self) -> io::Result<SocketAddr> {
        self.as_str().to_sim_addr()
    }
}

impl<T: ToSimAddr + ?Sized> ToSimAddr for &T {
    fn to_sim_addr(&self) -> io::Result<SocketAddr> {
        (**self).to_sim_addr()
    }
}

fn invalid(addr: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{addr:?} is not an address: write host:port"),
    )
}

fn resolve_name(name: &str) -> io::Result<IpAddr> {
    if let Ok(ip) = name.parse::<IpAddr>() {
        return Ok(ip);
    }
    let here = (name == "localhost").then(expect_current_host);
    with_world(|w| {
        if let Some(host) = here {
            return Ok(w.hosts[host].ip);
        }
        match w.hosts.iter().find(|h| h.name == name) {
            Some(host) => Ok(host.ip),
            None => Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("no simulated host is named {name:?}"),
            )),
        }
    })
}

/// Resolves `addr` as `rt::net::lookup_host` does, among the simulation's
/// hosts: instantly, and without leaving the simulation.
pub async fn lookup_host(addr: impl ToSimAddr) -> io::Result<std::vec::IntoIter<SocketAddr>> {
    Ok(vec![addr.to_sim_addr()?].into_iter())
}

impl World {
    /// The host that owns `ip`; loopback means `from` itself.
    pub(crate) fn host_of(&self, from: HostId, ip: IpAddr) -> Option<HostId> {
        if ip.is_loopback() {
            return Some(from);
        }
        self.hosts.iter().position(|h| h.ip == ip)
    }

    /// The local address a socket of `host` binds for `requested`: the
    /// host's own address for an unspecified, loopback or own IP, and a
    /// fresh port for port 0.
    pub(crate) fn local_addr_for(
        &mut self,
        host: HostId,
        requested: SocketAddr,
        in_use: impl Fn(&World, SocketAddr) -> bool,
    ) -> io::Result<SocketAddr> {
        let ip = self.hosts[host].ip;
        let requested_ip = requested.ip();
        if !(requested_ip.is_unspecified() || requested_ip.is_loopback() || requested_ip == ip) {
            return Err(io::Error::new(
                io::ErrorKind::AddrNotAvailable,
                format!("{requested_ip} is not an address of this simulated host ({ip})"),
            ));
        }
        if requested.port() != 0 {
            let addr = SocketAddr::new(ip, requested.port());
            if in_use(self, addr) {
                return Err(io::Error::new(
                    io::ErrorKind::AddrInUse,
                    format!("{addr} is already bound"),
                ));
            }
            return Ok(addr);
        }
        loop {
            let addr = SocketAddr::new(ip, self.hosts[host].ephemeral_port());
            if !in_use(self, addr) {
                return Ok(addr);
            }
        }
    }
}
