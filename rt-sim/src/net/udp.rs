//! The UDP model: datagrams that each take their own latency, and may be
//! lost, duplicated or held back (reordered) as their link's
//! configuration says. A datagram that meets a partition, finds no socket
//! or finds its receive queue full is dropped, as on a real network.

use crate::host::HostId;
use crate::world::{Event, World};
use std::collections::{BTreeMap, VecDeque};
use std::net::SocketAddr;
use std::task::Waker;

/// A bound UDP socket's receiving side.
#[derive(Debug)]
pub(crate) struct UdpPort {
    pub(crate) id: u64,
    pub(crate) host: HostId,
    pub(crate) queue: VecDeque<(SocketAddr, Vec<u8>)>,
    pub(crate) waker: Option<Waker>,
}

/// Every bound UDP socket, by address.
#[derive(Debug, Default)]
pub(crate) struct UdpTable {
    pub(crate) ports: BTreeMap<SocketAddr, UdpPort>,
    pub(crate) next_id: u64,
}

impl World {
    /// Sends a datagram from `from` (on `host`) to `to`.
    pub(crate) fn udp_send(&mut self, host: HostId, from: SocketAddr, to: SocketAddr, data: &[u8]) {
        let Some(peer) = self.host_of(host, to.ip()) else {
            self.record(format!("udp drop {from} -> {to} (no such host)"));
            return;
        };
        let to = SocketAddr::new(self.hosts[peer].ip, to.port());
        let link = self.link(host, peer);
        if self.rng.chance(link.loss_ppm) {
            self.record(format!("udp lose {from} -> {to} {} bytes", data.len()));
            return;
        }
        let copies = if self.rng.chance(link.duplicate_ppm) {
            self.record(format!("udp duplicate {from} -> {to} {} bytes", data.len()));
            2
        } else {
            1
        };
        for _ in 0..copies {
            let mut at = self.arrival(host, peer);
            if self.rng.chance(link.reorder_ppm) {
                let most = u64::try_from(link.reorder_delay.as_nanos()).unwrap_or(u64::MAX);
                at += std::time::Duration::from_nanos(self.rng.between(1, most.max(1)));
                self.record(format!("udp delay {from} -> {to} {} bytes", data.len()));
            }
            self.schedule(
                at,
                Event::Datagram {
                    from,
                    to,
                    data: data.to_vec(),
                },
            );
        }
    }

    /// A datagram reaches the far side of its link.
    pub(crate) fn udp_arrive(&mut self, from: SocketAddr, to: SocketAddr, data: Vec<u8>) {
        let (Some(src), Some(dst)) = (self.host_by_ip(from), self.host_by_ip(to)) else {
            return;
        };
        let len = data.len();
        if self.is_blocked(src, dst) {
            self.record(format!("udp drop {from} -> {to} {len} bytes (partition)"));
            return;
        }
        let limit = self.config.udp_queue;
        let Some(port) = self.udp.ports.get_mut(&to) else {
            self.record(format!("udp drop {from} -> {to} {len} bytes (no socket)"));
            return;
        };
        if port.queue.len() >= limit {
            self.record(format!("udp drop {from} -> {to} {len} bytes (queue full)"));
            return;
        }
        port.queue.push_back((from, data));
        self.deferred.wake.extend(port.waker.take());
        self.record(format!("udp deliver {from} -> {to} {len} bytes"));
    }

    fn host_by_ip(&self, addr: SocketAddr) -> Option<HostId> {
        self.hosts.iter().position(|h| h.ip == addr.ip())
    }

    /// `host` crashed: its sockets are gone.
    pub(crate) fn udp_reset_host(&mut self, host: HostId) {
        let mut wake = Vec::new();
        self.udp.ports.retain(|_, port| {
            if port.host == host {
                wake.extend(port.waker.take());
            }
            port.host != host
        });
        self.deferred.wake.extend(wake);
    }
}
