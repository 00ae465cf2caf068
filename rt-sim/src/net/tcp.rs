//! The TCP model: connections as two ordered byte streams between two
//! ends, carried by numbered packets through the event queue.
//!
//! **Order and retransmission.** Each end numbers the packets it sends
//! (`send_seq`); the receiving end takes them strictly in that order,
//! holding early arrivals in `reorder` until the gap fills, as TCP does.
//! A packet that reaches a partitioned link is not lost but parked in its
//! sender's `stalled` list and sent again when the link is repaired, which
//! is what TCP's retransmission amounts to once a partition ends. So a
//! connection stalls during a partition and carries on after it, in
//! order, with nothing lost or duplicated.
//!
//! **Backpressure.** The bytes an end has sent that its peer's reader has
//! not taken (in flight, parked, or waiting in the peer's receive buffer)
//! never exceed the connection's buffer size; a writer that finds no room
//! waits until the reader takes some.
//!
//! **Ends and their states.** `Connecting` until the answer to its SYN,
//! then `Open`; `Refused` when no listener took it; `Reset` after a RST
//! (or its own host's crash); `Closed` once its owner dropped it. A
//! packet other than a RST that reaches a `Closed` end is answered with a
//! RST, as a kernel answers a segment for a socket that is gone.

use crate::host::HostId;
use crate::world::{Event, World};
use std::collections::{BTreeMap, VecDeque};
use std::net::SocketAddr;
use std::task::Waker;

/// A connection's number, in the order connections were opened.
pub(crate) type ConnId = u64;

/// The end that connected.
pub(crate) const CLIENT: usize = 0;
/// The end a listener accepted.
pub(crate) const SERVER: usize = 1;

/// What crosses the link.
#[derive(Debug)]
pub(crate) enum Packet {
    Syn,
    SynAck,
    Refuse,
    Data(Vec<u8>),
    Fin,
    Rst,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EndState {
    Connecting,
    Open,
    Refused,
    Reset,
    Closed,
}

/// One end of a connection: what it receives and what it has sent.
#[derive(Debug)]
pub(crate) struct End {
    pub(crate) host: HostId,
    pub(crate) addr: SocketAddr,
    pub(crate) state: EndState,
    /// Bytes arrived and not yet read.
    pub(crate) recv: VecDeque<u8>,
    pub(crate) fin_received: bool,
    /// The task waiting to read (or for `connect` to finish).
    pub(crate) read_waker: Option<Waker>,
    /// Bytes this end sent that have not reached the peer's buffer.
    pub(crate) in_flight: usize,
    pub(crate) fin_sent: bool,
    pub(crate) write_waker: Option<Waker>,
    send_seq: u64,
    recv_seq: u64,
    reorder: BTreeMap<u64, Packet>,
    /// Packets of this end's that met a partition, by number.
    stalled: BTreeMap<u64, Packet>,
    /// The owner dropped its handle (or never took it from the backlog).
    pub(crate) dropped: bool,
}

impl End {
    fn new(host: HostId, addr: SocketAddr, state: EndState) -> End {
        End {
            host,
            addr,
            state,
            recv: VecDeque::new(),
            fin_received: false,
            read_waker: None,
            in_flight: 0,
            fin_sent: false,
            write_waker: None,
            send_seq: 0,
            recv_seq: 0,
            reorder: BTreeMap::new(),
            stalled: BTreeMap::new(),
            dropped: false,
        }
    }

    /// Wakes whoever waits on this end.
    pub(crate) fn wake_all(&mut self, wake: &mut Vec<Waker>) {
        wake.extend(self.read_waker.take());
        wake.extend(self.write_waker.take());
    }
}

/// A connection: `ends[CLIENT]` connected to `ends[SERVER]`.
#[derive(Debug)]
pub(crate) struct Conn {
    pub(crate) ends: [End; 2],
}

/// A listening socket.
#[derive(Debug)]
pub(crate) struct Listener {
    pub(crate) id: u64,
    pub(crate) host: HostId,
    /// Accepted connections not yet taken by `accept`.
    pub(crate) backlog: VecDeque<ConnId>,
    pub(crate) waker: Option<Waker>,
}

/// Every connection and listener.
#[derive(Debug, Default)]
pub(crate) struct TcpTable {
    pub(crate) conns: BTreeMap<ConnId, Conn>,
    pub(crate) listeners: BTreeMap<SocketAddr, Listener>,
    next_conn: ConnId,
    pub(crate) next_listener: u64,
}

impl World {
    /// Opens a connection from `local` (on `host`) to `remote` (on
    /// `peer`) and sends its SYN.
    pub(crate) fn tcp_open(
        &mut self,
        host: HostId,
        local: SocketAddr,
        peer: HostId,
        remote: SocketAddr,
    ) -> ConnId {
        let id = self.tcp.next_conn;
        self.tcp.next_conn += 1;
        let conn = Conn {
            ends: [
                End::new(host, local, EndState::Connecting),
                End::new(peer, remote, EndState::Connecting),
            ],
        };
        self.tcp.conns.insert(id, conn);
        self.record(format!("tcp connect {local} -> {remote}"));
        self.tcp_send(id, CLIENT, Packet::Syn);
        id
    }

    /// Sends `packet` from end `from` of `conn`.
    pub(crate) fn tcp_send(&mut self, conn: ConnId, from: usize, packet: Packet) {
        let Some(c) = self.tcp.conns.get_mut(&conn) else {
            return;
        };
        let (src, dst) = (c.ends[from].host, c.ends[1 - from].host);
        let seq = c.ends[from].send_seq;
        c.ends[from].send_seq += 1;
        if let Packet::Data(data) = &packet {
            c.ends[from].in_flight += data.len();
        }
        let at = self.arrival(src, dst);
        self.schedule(
            at,
            Event::Tcp {
                conn,
                from_end: from,
                seq,
                packet,
            },
        );
    }

    /// A packet arrives at its link's far side.
    pub(crate) fn tcp_arrive(&mut self, conn: ConnId, from: usize, seq: u64, packet: Packet) {
        let Some(c) = self.tcp.conns.get_mut(&conn) else {
            return;
        };
        let to = 1 - from;
        let (src, dst) = (c.ends[from].host, c.ends[to].host);
        let (a, b) = (c.ends[from].addr, c.ends[to].addr);
        if self.blocked.contains(&(src, dst)) {
            c.ends[from].stalled.insert(seq, packet);
            self.record(format!("tcp stall {a} -> {b} #{seq}"));
            return;
        }
        c.ends[to].reorder.insert(seq, packet);
        loop {
            let c = self
                .tcp
                .conns
                .get_mut(&conn)
                .expect("the connection is there");
            let end = &mut c.ends[to];
            let Some(packet) = end.reorder.remove(&end.recv_seq) else {
                break;
            };
            end.recv_seq += 1;
            self.tcp_take(conn, to, packet);
        }
    }

    /// End `to` of `conn` takes `packet`, the next in order.
    fn tcp_take(&mut self, conn: ConnId, to: usize, packet: Packet) {
        let from = 1 - to;
        let c = self
            .tcp
            .conns
            .get_mut(&conn)
            .expect("the connection is there");
        let (a, b) = (c.ends[from].addr, c.ends[to].addr);
        if let Packet::Data(data) = &packet {
            c.ends[from].in_flight -= data.len();
        }
        let state = c.ends[to].state;
        let mut wake = Vec::new();
        let mut reply = None;
        let what = match (packet, state) {
            (Packet::Rst, EndState::Connecting | EndState::Open) => {
                let end = &mut c.ends[to];
                end.state = EndState::Reset;
                end.recv.clear();
                end.wake_all(&mut wake);
                format!("tcp reset {a} -> {b}")
            }
            (Packet::Rst, _) => format!("tcp drop {a} -> {b} rst"),
            (_, EndState::Closed) => {
                reply = Some(Packet::Rst);
                format!("tcp drop {a} -> {b} (closed): rst")
            }
            (Packet::Syn, EndState::Connecting) => {
                if self.tcp_accept(conn, b) {
                    reply = Some(Packet::SynAck);
                    format!("tcp accept {a} -> {b}")
                } else {
                    let c = self
                        .tcp
                        .conns
                        .get_mut(&conn)
                        .expect("the connection is there");
                    c.ends[to].state = EndState::Closed;
                    c.ends[to].dropped = true;
                    reply = Some(Packet::Refuse);
                    format!("tcp refuse {a} -> {b}")
                }
            }
            (Packet::SynAck, EndState::Connecting) => {
                let end = &mut c.ends[to];
                end.state = EndState::Open;
                end.wake_all(&mut wake);
                format!("tcp established {b} -> {a}")
            }
            (Packet::Refuse, EndState::Connecting) => {
                let end = &mut c.ends[to];
                end.state = EndState::Refused;
                end.wake_all(&mut wake);
                format!("tcp refused {b} -> {a}")
            }
            (Packet::Data(data), EndState::Open) => {
                let end = &mut c.ends[to];
                end.recv.extend(&data);
                wake.extend(end.read_waker.take());
                format!("tcp deliver {a} -> {b} {} bytes", data.len())
            }
            (Packet::Fin, EndState::Open) => {
                let end = &mut c.ends[to];
                end.fin_received = true;
                wake.extend(end.read_waker.take());
                format!("tcp fin {a} -> {b}")
            }
            (packet, state) => format!("tcp drop {a} -> {b} {packet:?} ({state:?})"),
        };
        self.deferred.wake.extend(wake);
        self.record(what);
        if let Some(reply) = reply {
            self.tcp_send(conn, to, reply);
        }
    }

    /// Queues the server end of `conn` on the listener at `addr`, if one
    /// is there with room.
    fn tcp_accept(&mut self, conn: ConnId, addr: SocketAddr) -> bool {
        let backlog = self.config.backlog;
        let Some(listener) = self.tcp.listeners.get_mut(&addr) else {
            return false;
        };
        if listener.backlog.len() >= backlog {
            return false;
        }
        listener.backlog.push_back(conn);
        self.deferred.wake.extend(listener.waker.take());
        let c = self
            .tcp
            .conns
            .get_mut(&conn)
            .expect("the connection is there");
        c.ends[SERVER].state = EndState::Open;
        true
    }

    /// Sends again the packets that partitions held back, on every
    /// direction that is open again.
    pub(crate) fn tcp_resend_stalled(&mut self) {
        let mut resend = Vec::new();
        for (&id, c) in &mut self.tcp.conns {
            for from in [CLIENT, SERVER] {
                let (src, dst) = (c.ends[from].host, c.ends[1 - from].host);
                if !c.ends[from].stalled.is_empty() && !self.blocked.contains(&(src, dst)) {
                    for (seq, packet) in std::mem::take(&mut c.ends[from].stalled) {
                        resend.push((id, from, src, dst, seq, packet));
                    }
                }
            }
        }
        for (conn, from_end, src, dst, seq, packet) in resend {
            let at = self.arrival(src, dst);
            self.schedule(
                at,
                Event::Tcp {
                    conn,
                    from_end,
                    seq,
                    packet,
                },
            );
        }
    }

    /// The owner of end `end` let go of it: a FIN (or a RST, when unread
    /// data would be lost) tells the peer; the connection is forgotten
    /// once both ends are gone and nothing of it waits for a link.
    pub(crate) fn tcp_release(&mut self, conn: ConnId, end: usize) {
        let Some(c) = self.tcp.conns.get_mut(&conn) else {
            return;
        };
        let e = &mut c.ends[end];
        e.dropped = true;
        let reply = match e.state {
            EndState::Open if !e.recv.is_empty() => Some(Packet::Rst),
            EndState::Open if !e.fin_sent => Some(Packet::Fin),
            EndState::Connecting => Some(Packet::Rst),
            _ => None,
        };
        e.state = EndState::Closed;
        e.fin_sent = true;
        e.recv.clear();
        let forget = c.ends.iter().all(|e| e.dropped && e.stalled.is_empty());
        if let Some(packet) = reply {
            self.tcp_send(conn, end, packet);
        }
        if forget {
            // Nobody holds either end: packets still in flight find no
            // connection and vanish, as they would reach no reader.
            self.tcp.conns.remove(&conn);
        }
    }

    /// `host` crashed: its ends are reset (their peers get a RST), its
    /// listeners are gone.
    pub(crate) fn tcp_reset_host(&mut self, host: HostId) {
        let mut resets = Vec::new();
        for (&id, c) in &mut self.tcp.conns {
            for side in [CLIENT, SERVER] {
                let e = &mut c.ends[side];
                if e.host == host && matches!(e.state, EndState::Open | EndState::Connecting) {
                    e.state = EndState::Closed;
                    e.recv.clear();
                    e.wake_all(&mut self.deferred.wake);
                    resets.push((id, side));
                }
            }
        }
        for (conn, side) in resets {
            self.tcp_send(conn, side, Packet::Rst);
        }
        let gone: Vec<SocketAddr> = (self.tcp.listeners.iter())
            .filter(|(_, l)| l.host == host)
            .map(|(addr, _)| *addr)
            .collect();
        for addr in gone {
            if let Some(listener) = self.tcp.listeners.remove(&addr) {
                self.tcp_forget_backlog(listener);
            }
        }
    }

    /// A listener is gone: the connections it accepted and nobody took
    /// are released (their peers get a RST), and its waiter is woken.
    pub(crate) fn tcp_forget_backlog(&mut self, mut listener: Listener) {
        self.deferred.wake.extend(listener.waker.take());
        for conn in listener.backlog {
            self.tcp_release(conn, SERVER);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::Host;
    use crate::link::{Latency, LinkConfig};
    use crate::world::{NetConfig, SimHandle};
    use std::time::Duration;

    /// A world of two hosts on instant links, outside any runtime (virtual
    /// time stays at zero, so every event is due at once), with a listener
    /// on host 1 port 80 and a connection to it established.
    fn connected() -> (SimHandle, ConnId) {
        let sim = SimHandle::new(
            1,
            NetConfig {
                default_link: LinkConfig {
                    latency: Latency::Fixed(Duration::ZERO),
                    ..LinkConfig::default()
                },
                tcp_buffer: 1024,
                udp_queue: 8,
                backlog: 8,
            },
            true,
        );
        let conn = sim.with(|w| {
            w.hosts.push(Host::new(0, "a".into(), None));
            w.hosts.push(Host::new(1, "b".into(), None));
            let server: SocketAddr = "10.0.0.2:80".parse().unwrap();
            w.tcp.listeners.insert(
                server,
                Listener {
                    id: 0,
                    host: 1,
                    backlog: VecDeque::new(),
                    waker: None,
                },
            );
            let conn = w.tcp_open(0, "10.0.0.1:5000".parse().unwrap(), 1, server);
            deliver_all(w);
            conn
        });
        (sim, conn)
    }

    fn deliver_all(w: &mut World) {
        while let Some(event) = w.pop_due() {
            w.deliver(event);
        }
    }

    fn received(w: &World, conn: ConnId, end: usize) -> Vec<u8> {
        w.tcp.conns[&conn].ends[end].recv.iter().copied().collect()
    }

    #[test]
    fn the_handshake_opens_both_ends() {
        let (sim, conn) = connected();
        sim.with(|w| {
            let c = &w.tcp.conns[&conn];
            assert_eq!(c.ends[CLIENT].state, EndState::Open);
            assert_eq!(c.ends[SERVER].state, EndState::Open);
            assert_eq!(w.tcp.listeners.values().next().unwrap().backlog.len(), 1);
        });
    }

    #[test]
    fn packets_are_taken_in_send_order_whatever_their_arrival_order() {
        let (sim, conn) = connected();
        sim.with(|w| {
            // The client's numbers so far: 0 was the SYN.
            w.tcp.conns.get_mut(&conn).unwrap().ends[CLIENT].send_seq = 3;
            w.tcp.conns.get_mut(&conn).unwrap().ends[CLIENT].in_flight = 2;
            w.tcp_arrive(conn, CLIENT, 2, Packet::Data(b"b".to_vec()));
            assert_eq!(received(w, conn, SERVER), b"", "held until 1 arrives");
            w.tcp_arrive(conn, CLIENT, 1, Packet::Data(b"a".to_vec()));
            assert_eq!(received(w, conn, SERVER), b"ab");
            assert_eq!(w.tcp.conns[&conn].ends[CLIENT].in_flight, 0);
        });
    }

    #[test]
    fn a_partition_parks_packets_and_the_repair_resends_them_in_order() {
        let (sim, conn) = connected();
        sim.with(|w| {
            w.blocked.insert((0, 1));
            w.tcp_send(conn, CLIENT, Packet::Data(b"x".to_vec()));
            w.tcp_send(conn, CLIENT, Packet::Data(b"y".to_vec()));
            deliver_all(w);
            assert_eq!(received(w, conn, SERVER), b"");
            assert_eq!(w.tcp.conns[&conn].ends[CLIENT].stalled.len(), 2);
            // Still counted against the buffer while parked.
            assert_eq!(w.tcp.conns[&conn].ends[CLIENT].in_flight, 2);
            w.blocked.clear();
            w.tcp_resend_stalled();
            deliver_all(w);
            assert_eq!(received(w, conn, SERVER), b"xy");
        });
    }

    #[test]
    fn data_for_a_closed_end_is_answered_with_a_reset() {
        let (sim, conn) = connected();
        sim.with(|w| {
            w.tcp_release(conn, SERVER);
            deliver_all(w);
            // The FIN reached the client, which has not closed.
            assert!(w.tcp.conns[&conn].ends[CLIENT].fin_received);
            w.tcp_send(conn, CLIENT, Packet::Data(b"late".to_vec()));
            deliver_all(w);
            assert_eq!(w.tcp.conns[&conn].ends[CLIENT].state, EndState::Reset);
        });
    }
}
