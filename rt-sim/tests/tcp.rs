//! TCP between simulated hosts: echo, refusals, half-close, backpressure,
//! latency in virtual time.

use rt_io::io::{AsyncReadExt, AsyncWriteExt};
use rt_sim::net::{TcpListener, TcpStream};
use rt_sim::{Latency, LinkConfig, Sim};
use std::io::ErrorKind;
use std::time::Duration;

fn echo_server(sim: &mut Sim) {
    sim.host("server", || async {
        let listener = TcpListener::bind("0.0.0.0:7").await?;
        loop {
            let (mut stream, _) = listener.accept().await?;
            rt_sim::spawn(async move {
                let mut buf = [0; 1024];
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
}

#[test]
fn echo_between_two_hosts_takes_the_links_latency() {
    let mut sim = Sim::builder()
        .seed(1)
        .link(LinkConfig {
            latency: Latency::Fixed(Duration::from_millis(10)),
            ..LinkConfig::default()
        })
        .build();
    echo_server(&mut sim);
    sim.client("client", async {
        let start = rt_sim::elapsed();
        let mut stream = TcpStream::connect("server:7").await?;
        // SYN there, SYN-ACK back.
        assert_eq!(rt_sim::elapsed() - start, Duration::from_millis(20));
        assert_eq!(stream.peer_addr()?, "10.0.0.1:7".parse()?);
        assert_eq!(stream.local_addr()?.ip().to_string(), "10.0.0.2");
        stream.write_all(b"hello, world").await?;
        stream.shutdown().await?;
        let mut echoed = Vec::new();
        stream.read_to_end(&mut echoed).await?;
        assert_eq!(echoed, b"hello, world");
        Ok(())
    });
    let report = sim.run().unwrap();
    assert!(report.elapsed >= Duration::from_millis(40));
}

#[test]
fn a_port_nobody_listens_on_refuses() {
    let mut sim = Sim::new(2);
    echo_server(&mut sim);
    sim.client("client", async {
        let error = TcpStream::connect("server:8").await.unwrap_err();
        assert_eq!(error.kind(), ErrorKind::ConnectionRefused);
        let error = TcpStream::connect("nowhere:7").await.unwrap_err();
        assert_eq!(error.kind(), ErrorKind::NotFound);
        Ok(())
    });
    sim.run().unwrap();
}

#[test]
fn half_close_lets_the_other_direction_go_on() {
    let mut sim = Sim::new(3);
    sim.host("server", || async {
        let listener = TcpListener::bind("0.0.0.0:9").await?;
        let (mut stream, _) = listener.accept().await?;
        let mut request = Vec::new();
        // The client's FIN ends the request...
        stream.read_to_end(&mut request).await?;
        // ...and the answer still flows the other way.
        stream.write_all(&request.repeat(2)).await?;
        Ok(())
    });
    sim.client("client", async {
        let mut stream = TcpStream::connect("server:9").await?;
        stream.write_all(b"ab").await?;
        stream.shutdown().await?;
        let error = stream.write_all(b"late").await.unwrap_err();
        assert_eq!(error.kind(), ErrorKind::BrokenPipe);
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await?;
        assert_eq!(answer, b"abab");
        Ok(())
    });
    sim.run().unwrap();
}

#[test]
fn a_writer_waits_for_the_reader_when_the_buffer_is_full() {
    let mut sim = Sim::builder().seed(4).tcp_buffer(100).build();
    sim.host("server", || async {
        let listener = TcpListener::bind("0.0.0.0:9").await?;
        let (mut stream, _) = listener.accept().await?;
        // Read nothing for a second: the client fills the buffer.
        rt_time::sleep(Duration::from_secs(1)).await;
        let mut all = Vec::new();
        stream.read_to_end(&mut all).await?;
        assert_eq!(all.len(), 1000);
        Ok(())
    });
    sim.client("client", async {
        let mut stream = TcpStream::connect("server:9").await?;
        let data = [7u8; 1000];
        let before = rt_sim::elapsed();
        // At most 100 bytes go before the reader wakes up.
        let n = stream.write(&data).await?;
        assert_eq!(n, 100);
        stream.write_all(&data[n..]).await?;
        assert!(rt_sim::elapsed() - before >= Duration::from_millis(900));
        Ok(())
    });
    sim.run().unwrap();
}

#[test]
fn dropping_a_stream_with_unread_data_resets_the_peer() {
    let mut sim = Sim::new(5);
    sim.host("server", || async {
        let listener = TcpListener::bind("0.0.0.0:9").await?;
        let (stream, _) = listener.accept().await?;
        // Wait for the client's bytes, then drop them unread.
        rt_time::sleep(Duration::from_millis(50)).await;
        drop(stream);
        rt_time::sleep(Duration::from_secs(3600)).await;
        Ok(())
    });
    sim.client("client", async {
        let mut stream = TcpStream::connect("server:9").await?;
        stream.write_all(b"unread").await?;
        let mut buf = [0; 8];
        let error = stream.read(&mut buf).await.unwrap_err();
        assert_eq!(error.kind(), ErrorKind::ConnectionReset);
        Ok(())
    });
    sim.run().unwrap();
}

#[test]
fn a_run_that_waits_forever_fails_at_the_time_limit() {
    let mut sim = Sim::builder()
        .seed(6)
        .time_limit(Duration::from_secs(5))
        .build();
    sim.host("server", || async {
        let _listener = TcpListener::bind("0.0.0.0:9").await?;
        std::future::pending::<()>().await;
        Ok(())
    });
    sim.client("client", async {
        let mut stream = TcpStream::connect("server:9").await?;
        let mut buf = [0; 1];
        stream.read(&mut buf).await?;
        Ok(())
    });
    match sim.run() {
        Err(rt_sim::SimError::TimeLimit { report, .. }) => {
            assert_eq!(report.elapsed, Duration::from_secs(5));
        }
        other => panic!("expected the time limit, got {other:?}"),
    }
}

#[test]
fn readiness_peek_and_try_methods_behave_as_rt_nets() {
    let mut sim = Sim::builder().seed(8).tcp_buffer(4).build();
    sim.host("server", || async {
        let listener = TcpListener::bind("0.0.0.0:9").await?;
        let (stream, _) = listener.accept().await?;
        let mut buf = [0; 8];
        assert_eq!(
            stream.try_read(&mut buf).unwrap_err().kind(),
            ErrorKind::WouldBlock
        );
        stream.readable().await?;
        assert_eq!(stream.peek(&mut buf).await?, 4);
        assert_eq!(stream.try_read(&mut buf)?, 4, "peek took nothing");
        assert_eq!(&buf[..4], b"abcd");
        // The client's buffer has room again; wait for the rest.
        stream.readable().await?;
        assert_eq!(stream.try_read(&mut buf)?, 2);
        assert_eq!(&buf[..2], b"ef");
        Ok(())
    });
    sim.client("client", async {
        let stream = TcpStream::connect("server:9").await?;
        stream.writable().await?;
        assert_eq!(stream.try_write(b"abcdef")?, 4, "the buffer holds 4");
        assert_eq!(
            stream.try_write(b"ef").unwrap_err().kind(),
            ErrorKind::WouldBlock
        );
        stream.writable().await?;
        assert_eq!(stream.try_write(b"ef")?, 2);
        rt_time::sleep(Duration::from_secs(1)).await;
        Ok(())
    });
    sim.run().unwrap();
}
