//! `rt::net` (rt-io's socket types) inside a simulation: the same types
//! that run on the real network take the simulated one, with no change in
//! the code that uses them.

use rt_io::io::{AsyncReadExt, AsyncWriteExt};
use rt_io::net::{lookup_host, TcpListener, TcpSocket, TcpStream, UdpSocket};
use rt_sim::Sim;
use std::io::ErrorKind;
use std::net::SocketAddr;

#[test]
fn tcp_echo_between_hosts_through_rt_net() {
    let mut sim = Sim::new(3);
    sim.host("server", || async {
        let listener = TcpListener::bind("0.0.0.0:7").await?;
        assert_eq!(listener.local_addr()?, "10.0.0.1:7".parse::<SocketAddr>()?);
        loop {
            let (mut stream, peer) = listener.accept().await?;
            assert_eq!(peer, stream.peer_addr()?);
            rt_sim::spawn(async move {
                stream.set_nodelay(true)?;
                let mut buf = [0; 64];
                loop {
                    let n = stream.read(&mut buf).await?;
                    if n == 0 {
                        return stream.shutdown().await;
                    }
                    stream.write_all(&buf[..n]).await?;
                }
            });
        }
    });
    sim.client("client", async {
        let mut stream = TcpStream::connect("server:7").await?;
        assert_eq!(stream.local_addr()?.ip().to_string(), "10.0.0.2");
        stream.write_all(b"hello, simulation").await?;
        stream.shutdown().await?;
        let mut echoed = Vec::new();
        stream.read_to_end(&mut echoed).await?;
        assert_eq!(echoed, b"hello, simulation");
        Ok(())
    });
    sim.run().unwrap();
}

#[test]
fn tcp_socket_binds_and_connects_in_the_simulation() {
    let mut sim = Sim::new(4);
    sim.host("server", || async {
        let socket = TcpSocket::new_v4()?;
        socket.set_reuseaddr(true)?;
        socket.bind("0.0.0.0:80".parse()?)?;
        let listener = socket.listen(16)?;
        let (stream, _) = listener.accept().await?;
        stream.writable().await?;
        stream.try_write(b"hi")?;
        rt_time::sleep(std::time::Duration::from_secs(1)).await;
        Ok(())
    });
    sim.client("client", async {
        let addr = lookup_host("server:80").await?.next().unwrap();
        let stream = TcpSocket::new_v4()?.connect(addr).await?;
        stream.readable().await?;
        let mut buf = [0; 2];
        assert_eq!(stream.try_read(&mut buf)?, 2);
        assert_eq!(&buf, b"hi");
        Ok(())
    });
    sim.run().unwrap();
}

#[test]
fn udp_exchange_through_rt_net() {
    let mut sim = Sim::new(5);
    sim.host("server", || async {
        let socket = UdpSocket::bind("0.0.0.0:53").await?;
        let mut buf = [0; 64];
        loop {
            let (n, from) = socket.recv_from(&mut buf).await?;
            socket.send_to(&buf[..n], from).await?;
        }
    });
    sim.client("client", async {
        let socket = UdpSocket::bind("0.0.0.0:0").await?;
        socket.connect("server:53").await?;
        assert_eq!(socket.peer_addr()?, "10.0.0.1:53".parse::<SocketAddr>()?);
        socket.send(b"query").await?;
        let mut buf = [0; 64];
        let n = socket.recv(&mut buf).await?;
        assert_eq!(&buf[..n], b"query");
        Ok(())
    });
    sim.run().unwrap();
}

#[test]
fn lookup_host_resolves_host_names_inside_the_simulation() {
    let mut sim = Sim::new(6);
    sim.host("db", std::future::pending);
    sim.client("client", async {
        let found: Vec<_> = lookup_host("db:5432").await?.collect();
        assert_eq!(found, ["10.0.0.1:5432".parse::<SocketAddr>()?]);
        let Err(missing) = lookup_host("nowhere:1").await else {
            panic!("an unknown host resolved");
        };
        assert_eq!(missing.kind(), ErrorKind::NotFound);
        Ok(())
    });
    sim.run().unwrap();
}

#[test]
fn a_real_socket_cannot_join_the_simulation() {
    let mut sim = Sim::new(7);
    sim.client("client", async {
        let real = std::net::UdpSocket::bind("127.0.0.1:0")?;
        let error = UdpSocket::from_std(real).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::Unsupported);
        assert!(error.to_string().contains("UdpSocket::from_std"), "{error}");
        let listener = TcpListener::bind("0.0.0.0:9").await?;
        let error = listener.into_std().unwrap_err();
        assert!(error.to_string().contains("into_std"), "{error}");
        Ok(())
    });
    sim.run().unwrap();
}

#[test]
fn split_halves_and_io_copy_work_on_simulated_streams() {
    let mut sim = Sim::new(8);
    sim.host("server", || async {
        let listener = TcpListener::bind("0.0.0.0:7").await?;
        loop {
            let (stream, _) = listener.accept().await?;
            rt_sim::spawn(async move {
                let (mut read, mut write) = stream.into_split();
                rt_io::io::copy(&mut read, &mut write).await?;
                write.shutdown().await
            });
        }
    });
    sim.client("client", async {
        let mut stream = TcpStream::connect("server:7").await?;
        let (mut read, mut write) = stream.split();
        let data = vec![7u8; 200_000];
        let send = async {
            write.write_all(&data).await?;
            write.shutdown().await
        };
        let mut back = Vec::new();
        let (sent, received) = both(send, read.read_to_end(&mut back)).await;
        sent?;
        assert_eq!(received?, data.len());
        assert_eq!(back, data);
        Ok(())
    });
    sim.run().unwrap();
}

/// Both futures to completion, polled in turn on one task.
async fn both<A: std::future::Future, B: std::future::Future>(
    a: A,
    b: B,
) -> (A::Output, B::Output) {
    let (mut a, mut b) = (std::pin::pin!(a), std::pin::pin!(b));
    let (mut ra, mut rb) = (None, None);
    std::future::poll_fn(|cx| {
        if ra.is_none() {
            if let std::task::Poll::Ready(v) = a.as_mut().poll(cx) {
                ra = Some(v);
            }
        }
        if rb.is_none() {
            if let std::task::Poll::Ready(v) = b.as_mut().poll(cx) {
                rb = Some(v);
            }
        }
        if ra.is_some() && rb.is_some() {
            std::task::Poll::Ready((ra.take().unwrap(), rb.take().unwrap()))
        } else {
            std::task::Poll::Pending
        }
    })
    .await
}
