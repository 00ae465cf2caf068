//! `UdpFramed`: a UDP socket seen as a `Stream` of decoded frames with
//! their senders and a `Sink` of frames to encode, one datagram each way.
//!
//! Receiving, one datagram is one unit of framing: it is copied into the
//! read buffer and the decoder's `decode_eof` is called on it until it
//! yields no frame, as if the datagram were a whole stream. Bytes left over
//! (a frame cut short) are dropped with the buffer before the next datagram
//! arrives; they never join the next datagram's bytes.
//!
//! A decode error is yielded, and decoding resumes on the rest of the same
//! datagram at the next poll, so a decoder that skips a bad frame (as
//! `LinesCodec` skips an over-long line) still delivers the good frames
//! after it. A decoder that fails again without consuming a byte is stuck:
//! that second error is not repeated, the datagram is dropped and the
//! stream goes on with the next one.
//!
//! Sending, each item is encoded into its own datagram, which goes out on
//! the next `poll_flush` (or `poll_ready`, before taking another item).

use crate::{Decoder, Encoder};
use bytes::BytesMut;
use futures_core::Stream;
use futures_sink::Sink;
use rt_io::net::UdpSocket;
use std::borrow::Borrow;
use std::fmt;
use std::io;
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Room for the largest datagram UDP can carry without jumbograms (65,507
/// bytes of payload over IPv4, 65,527 over IPv6); a longer one would be
/// truncated by the kernel.
const MAX_DATAGRAM: usize = 64 * 1024;

/// Initial capacity of the read and write buffers: enough for typical
/// datagrams, grown on demand.
const INITIAL_CAPACITY: usize = 2 * 1024;

/// A [`UdpSocket`] read as a [`Stream`] of `(frame, sender)` pairs and
/// written as a [`Sink`] of `(frame, destination)` pairs, through one
/// codec.
///
/// Every datagram received is decoded on its own, with
/// [`Decoder::decode_eof`], until the decoder finds no more frames in it:
/// a datagram may carry several frames, and a frame cannot span datagrams.
/// What the decoder leaves unread is dropped when the next datagram
/// arrives. An error of the decoder is yielded and decoding goes on with
/// what is left of the datagram; a decoder that fails twice in a row
/// without consuming anything has its datagram dropped (the second error
/// is not yielded). Errors of the socket are yielded too. Either way the
/// stream continues with the next datagram: it never ends by itself.
///
/// Every item sent becomes one datagram, sent on the next flush.
///
/// The socket is held as any `T: Borrow<UdpSocket>`, so an
/// `Arc<UdpSocket>` can be shared between a `UdpFramed` and other code
/// (or two `UdpFramed`s, one receiving and one sending).
///
/// ```
/// use bytes::Bytes;
/// use futures_core::Stream;
/// use rt_codec::{BytesCodec, SinkExt, UdpFramed};
/// use rt_io::net::UdpSocket;
/// use std::future::poll_fn;
/// use std::pin::Pin;
/// # rt_core::runtime::Builder::new_current_thread()
/// #     .base_driver(rt_io::reactor::base_driver())
/// #     .build().unwrap().block_on(async {
///
/// let mut a = UdpFramed::new(UdpSocket::bind("127.0.0.1:0").await?, BytesCodec::new());
/// let mut b = UdpFramed::new(UdpSocket::bind("127.0.0.1:0").await?, BytesCodec::new());
///
/// let b_addr = b.get_ref().local_addr()?;
/// a.send((Bytes::from_static(b"ping"), b_addr)).await?;
/// let (frame, from) = poll_fn(|cx| Pin::new(&mut b).poll_next(cx)).await.unwrap()?;
/// assert_eq!(&frame[..], b"ping");
/// assert_eq!(from, a.get_ref().local_addr()?);
/// # Ok::<_, std::io::Error>(())
/// # }).unwrap();
/// ```
pub struct UdpFramed<C, T = UdpSocket> {
    socket: T,
    codec: C,
    /// The datagram being decoded (or what the decoder left of it).
    rd: BytesMut,
    /// The sender of the datagram in `rd`, while it is being decoded.
    current_sender: Option<SocketAddr>,
    /// After a decode error in the current datagram: how many bytes of it
    /// were left then, to tell a decoder that recovers from one that is
    /// stuck.
    error_left: Option<usize>,
    /// Where datagrams are received before being copied into `rd`:
    /// allocated (zeroed) on the first receive and never handed out, so it
    /// stays initialised memory the socket can write into.
    recv_area: Vec<u8>,
    /// The encoded datagram waiting to be sent.
    wr: BytesMut,
    /// Where the datagram in `wr` goes.
    out_addr: SocketAddr,
    /// No datagram is waiting in `wr`.
    flushed: bool,
}

// No field is structurally pinned: the socket is only ever used through
// `Borrow::borrow(&self)`.
impl<C, T> Unpin for UdpFramed<C, T> {}

impl<C, T: Borrow<UdpSocket>> UdpFramed<C, T> {
    /// Frames `socket` with `codec`.
    pub fn new(socket: T, codec: C) -> UdpFramed<C, T> {
        UdpFramed {
            socket,
            codec,
            rd: BytesMut::with_capacity(INITIAL_CAPACITY),
            current_sender: None,
            error_left: None,
            recv_area: Vec::new(),
            wr: BytesMut::with_capacity(INITIAL_CAPACITY),
            out_addr: SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, 0)),
            flushed: true,
        }
    }

    /// The underlying socket.
    ///
    /// Receiving from it directly takes datagrams away from the stream.
    pub fn get_ref(&self) -> &T {
        &self.socket
    }

    /// The underlying socket, mutably.
    ///
    /// Receiving from it directly takes datagrams away from the stream.
    pub fn get_mut(&mut self) -> &mut T {
        &mut self.socket
    }

    /// The codec.
    pub fn codec(&self) -> &C {
        &self.codec
    }

    /// The codec, mutably.
    pub fn codec_mut(&mut self) -> &mut C {
        &mut self.codec
    }

    /// What the decoder has not yet consumed of the current datagram.
    pub fn read_buffer(&self) -> &BytesMut {
        &self.rd
    }

    /// What the decoder has not yet consumed of the current datagram,
    /// mutably.
    pub fn read_buffer_mut(&mut self) -> &mut BytesMut {
        &mut self.rd
    }

    /// Gives back the socket; a datagram not yet flushed is lost.
    pub fn into_inner(self) -> T {
        self.socket
    }
}

/// Receives one datagram into `area`, waiting for the socket to be
/// readable as often as it takes.
fn poll_recv_from(
    socket: &UdpSocket,
    cx: &mut Context<'_>,
    area: &mut [u8],
) -> Poll<io::Result<(usize, SocketAddr)>> {
    loop {
        ready!(socket.poll_recv_ready(cx))?;
        match socket.try_recv_from(area) {
            // The readiness was stale; `try_recv_from` cleared it, so the
            // next `poll_recv_ready` waits for a new event.
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
            result => return Poll::Ready(result),
        }
    }
}

impl<C: Decoder, T: Borrow<UdpSocket>> Stream for UdpFramed<C, T> {
    type Item = Result<(C::Item, SocketAddr), C::Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let me = self.get_mut();
        loop {
            if let Some(sender) = me.current_sender {
                match me.codec.decode_eof(&mut me.rd) {
                    Ok(Some(frame)) => {
                        me.error_left = None;
                        return Poll::Ready(Some(Ok((frame, sender))));
                    }
                    Ok(None) => me.end_datagram(),
                    // The decoder failed again without consuming anything
                    // since its last error: it is stuck on this datagram,
                    // which was reported already. Drop it.
                    Err(_) if me.error_left == Some(me.rd.len()) => me.end_datagram(),
                    Err(e) => {
                        me.error_left = Some(me.rd.len());
                        return Poll::Ready(Some(Err(e)));
                    }
                }
            }
            if me.recv_area.is_empty() {
                me.recv_area = vec![0; MAX_DATAGRAM];
            }
            let (len, sender) =
                match ready!(poll_recv_from(me.socket.borrow(), cx, &mut me.recv_area)) {
                    Ok(received) => received,
                    Err(e) => return Poll::Ready(Some(Err(e.into()))),
                };
            me.rd.clear();
            me.rd.extend_from_slice(&me.recv_area[..len]);
            me.current_sender = Some(sender);
        }
    }
}

impl<C, T> UdpFramed<C, T> {
    /// Forgets the current datagram, with whatever the decoder left of it.
    fn end_datagram(&mut self) {
        self.current_sender = None;
        self.error_left = None;
        self.rd.clear();
    }
}

impl<I, C: Encoder<I>, T: Borrow<UdpSocket>> Sink<(I, SocketAddr)> for UdpFramed<C, T> {
    type Error = C::Error;

    fn poll_ready(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), C::Error>> {
        // One datagram at a time: send the waiting one first.
        if !self.flushed {
            ready!(<Self as Sink<(I, SocketAddr)>>::poll_flush(self, cx))?;
        }
        Poll::Ready(Ok(()))
    }

    fn start_send(self: Pin<&mut Self>, (item, addr): (I, SocketAddr)) -> Result<(), C::Error> {
        let me = self.get_mut();
        let start = me.wr.len();
        if let Err(e) = me.codec.encode(item, &mut me.wr) {
            // Leave no half-encoded frame behind to be sent later.
            me.wr.truncate(start);
            return Err(e);
        }
        me.out_addr = addr;
        me.flushed = false;
        Ok(())
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), C::Error>> {
        let me = self.get_mut();
        if me.flushed {
            return Poll::Ready(Ok(()));
        }
        let sent = ready!(me.socket.borrow().poll_send_to(cx, &me.wr, me.out_addr));
        // Sent or refused, this datagram is done: a datagram the system
        // refuses (too long, unreachable) would be refused again, so it is
        // not kept to be retried on every later flush.
        let len = me.wr.len();
        me.wr.clear();
        me.flushed = true;
        match sent {
            Ok(n) if n == len => Poll::Ready(Ok(())),
            Ok(_) => Poll::Ready(Err(io::Error::other(
                "failed to write entire datagram to socket",
            )
            .into())),
            Err(e) => Poll::Ready(Err(e.into())),
        }
    }

    fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), C::Error>> {
        <Self as Sink<(I, SocketAddr)>>::poll_flush(self, cx)
    }
}

impl<C: fmt::Debug, T: fmt::Debug> fmt::Debug for UdpFramed<C, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UdpFramed")
            .field("socket", &self.socket)
            .field("codec", &self.codec)
            .field("read_buffer_len", &self.rd.len())
            .field("current_sender", &self.current_sender)
            .field("write_buffer_len", &self.wr.len())
            .field("out_addr", &self.out_addr)
            .field("flushed", &self.flushed)
            .finish()
    }
}
