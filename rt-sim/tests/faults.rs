//! Partitions, crashes and restarts, and clock skew.

use rt_io::io::{AsyncReadExt, AsyncWriteExt};
use rt_sim::net::{TcpListener, TcpStream};
use rt_sim::Sim;
use std::io::ErrorKind;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
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
                        return std::io::Result::Ok(());
                    }
                    stream.write_all(&buf[..n]).await?;
                }
            });
        }
    });
}

#[test]
fn a_partition_stalls_a_connection_and_the_repair_resumes_it() {
    let mut sim = Sim::builder().seed(10).keep_trace(true).build();
    echo_server(&mut sim);
    sim.client("client", async {
        let mut stream = TcpStream::connect("server:7").await?;
        rt_sim::partition("client", "server");
        stream.write_all(b"through the partition").await?;
        let mut buf = [0; 21];
        // Nothing comes back while the partition holds.
        let stalled = rt_time::timeout(Duration::from_secs(5), stream.read_exact(&mut buf)).await;
        assert!(stalled.is_err(), "read across a partition: {stalled:?}");
        rt_sim::repair("client", "server");
        let before = rt_sim::elapsed();
        stream.read_exact(&mut buf).await?;
        assert_eq!(&buf, b"through the partition");
        // The held bytes go out on the repair: one round trip later.
        assert_eq!(rt_sim::elapsed() - before, Duration::from_millis(2));
        Ok(())
    });
    let report = sim.run().unwrap();
    let trace: Vec<&str> = report.events.iter().map(|e| e.what.as_str()).collect();
    assert!(
        trace.iter().any(|e| e.starts_with("tcp stall")),
        "{trace:#?}"
    );
    assert!(trace.contains(&"repair client -> server"), "{trace:#?}");
}

#[test]
fn a_one_way_partition_holds_one_direction_only() {
    let mut sim = Sim::new(11);
    sim.host("server", || async {
        let listener = TcpListener::bind("0.0.0.0:7").await?;
        let (mut stream, _) = listener.accept().await?;
        let mut buf = [0; 2];
        // The client's direction is open: its bytes arrive.
        stream.read_exact(&mut buf).await?;
        assert_eq!(&buf, b"yo");
        stream.write_all(b"hi").await?;
        Ok(())
    });
    sim.client("client", async {
        let mut stream = TcpStream::connect("server:7").await?;
        rt_sim::partition_oneway("server", "client");
        stream.write_all(b"yo").await?;
        let mut buf = [0; 2];
        let held = rt_time::timeout(Duration::from_secs(1), stream.read_exact(&mut buf)).await;
        assert!(held.is_err());
        rt_sim::repair_all();
        stream.read_exact(&mut buf).await?;
        assert_eq!(&buf, b"hi");
        Ok(())
    });
    sim.run().unwrap();
}

#[test]
fn a_crash_resets_connections_and_a_restart_starts_fresh() {
    let starts = Arc::new(AtomicU32::new(0));
    let mut sim = Sim::new(12);
    let counted = starts.clone();
    sim.host("server", move || {
        let counted = counted.clone();
        async move {
            // In-memory state of this incarnation: starts empty each time.
            let mut served = 0u32;
            counted.fetch_add(1, Ordering::SeqCst);
            let listener = TcpListener::bind("0.0.0.0:7").await?;
            loop {
                let (mut stream, _) = listener.accept().await?;
                served += 1;
                stream.write_all(&served.to_be_bytes()).await?;
                // Keep the connection open.
                rt_sim::spawn(async move {
                    let mut buf = [0; 1];
                    let _ = stream.read(&mut buf).await;
                });
            }
        }
    });
    sim.client("client", async {
        let read_count = |mut stream: TcpStream| async move {
            let mut buf = [0; 4];
            stream.read_exact(&mut buf).await?;
            std::io::Result::Ok((u32::from_be_bytes(buf), stream))
        };
        let (first, _) = read_count(TcpStream::connect("server:7").await?).await?;
        let (second, mut open) = read_count(TcpStream::connect("server:7").await?).await?;
        assert_eq!((first, second), (1, 2));

        rt_sim::crash("server");
        let mut buf = [0; 1];
        let error = open.read(&mut buf).await.unwrap_err();
        assert_eq!(error.kind(), ErrorKind::ConnectionReset);
        let error = TcpStream::connect("server:7").await.unwrap_err();
        assert_eq!(error.kind(), ErrorKind::ConnectionRefused);

        rt_sim::restart("server");
        rt_time::sleep(Duration::from_millis(1)).await;
        let (after, _) = read_count(TcpStream::connect("server:7").await?).await?;
        assert_eq!(after, 1, "the restarted server kept its old count");
        Ok(())
    });
    let report = sim.run().unwrap();
    assert_eq!(starts.load(Ordering::SeqCst), 2);
    assert!(report.hash != 0);
}

#[test]
fn a_host_error_or_panic_fails_the_run_and_names_the_host() {
    let mut sim = Sim::new(13);
    sim.host("broken", || async { Err("out of disk".into()) });
    sim.client("client", async {
        rt_time::sleep(Duration::from_secs(1)).await;
        Ok(())
    });
    let error = sim.run().unwrap_err();
    assert!(error.to_string().contains("host broken"), "{error}");
    assert!(error.to_string().contains("out of disk"), "{error}");

    let mut sim = Sim::new(14);
    sim.client("client", async {
        rt_sim::spawn(async { panic!("bad state") });
        rt_time::sleep(Duration::from_secs(1)).await;
        Ok(())
    });
    let error = sim.run().unwrap_err();
    assert!(error.to_string().contains("bad state"), "{error}");
}

#[test]
fn a_skewed_host_clock_runs_fast_or_slow() {
    let mut sim = Sim::new(15);
    sim.client("client", async {
        rt_sim::set_clock_skew("client", 100_000);
        let start = rt_sim::time::now();
        rt_sim::time::sleep(Duration::from_millis(1100)).await;
        assert_eq!(rt_sim::elapsed(), Duration::from_secs(1));
        assert_eq!(rt_sim::time::now() - start, Duration::from_millis(1100));
        Ok(())
    });
    sim.run().unwrap();
}

#[test]
fn the_seeded_fault_schedule_injects_and_undoes_faults() {
    let mut sim = Sim::builder()
        .seed(16)
        .keep_trace(true)
        .faults(rt_sim::FaultSchedule::default())
        .build();
    echo_server(&mut sim);
    sim.client("client", async {
        rt_time::sleep(Duration::from_secs(30)).await;
        Ok(())
    });
    let report = sim.run().unwrap();
    let faults = report
        .events
        .iter()
        .filter(|e| e.what.starts_with("fault partition") || e.what.starts_with("crash "))
        .count();
    let undone = report
        .events
        .iter()
        .filter(|e| e.what.starts_with("fault repair") || e.what.starts_with("restart "))
        .count();
    assert!(faults >= 5, "{:#?}", report.events);
    assert!(undone >= faults - 1);
}
