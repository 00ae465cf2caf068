//! What a host's software does with rt's own task APIs inside a
//! simulation: plain `rt::spawn`ed tasks belong to the spawning host, and
//! `spawn_blocking` runs on the simulation's thread.

use rt_io::io::AsyncReadExt;
use rt_io::net::{TcpListener, TcpStream};
use rt_sim::Sim;
use std::io::ErrorKind;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[test]
fn a_plain_spawned_task_is_aborted_by_its_hosts_crash() {
    let mut sim = Sim::new(21);
    let ticking = Arc::new(AtomicBool::new(false));
    let flag = ticking.clone();
    sim.host("server", move || {
        let flag = flag.clone();
        async move {
            let listener = TcpListener::bind("0.0.0.0:7").await?;
            // Plain spawns, two deep: both belong to the server.
            rt_core::task::spawn(async move {
                let (mut stream, _) = listener.accept().await.unwrap();
                rt_core::task::spawn(async move {
                    loop {
                        flag.store(true, Ordering::Relaxed);
                        rt_time::sleep(Duration::from_millis(10)).await;
                    }
                });
                let mut buf = [0; 1];
                let _ = stream.read(&mut buf).await;
            });
            std::future::pending().await
        }
    });
    sim.client("client", async move {
        let mut stream = TcpStream::connect("server:7").await?;
        rt_time::sleep(Duration::from_secs(1)).await;
        assert!(ticking.swap(false, Ordering::Relaxed));
        rt_sim::crash("server");
        // The connection, held by a plain-spawned task, is reset...
        let mut buf = [0; 1];
        let error = stream.read(&mut buf).await.unwrap_err();
        assert_eq!(error.kind(), ErrorKind::ConnectionReset);
        // ...and the grandchild task no longer runs.
        ticking.store(false, Ordering::Relaxed);
        rt_time::sleep(Duration::from_secs(1)).await;
        assert!(
            !ticking.load(Ordering::Relaxed),
            "a task of the crashed host still runs"
        );
        Ok(())
    });
    sim.run().unwrap();
}

#[test]
fn a_panic_in_a_plain_spawned_task_fails_the_run_naming_the_host() {
    let mut sim = Sim::new(22);
    sim.client("client", async {
        rt_core::task::spawn(async { panic!("lost an invariant") });
        rt_time::sleep(Duration::from_secs(1)).await;
        Ok(())
    });
    let error = sim.run().unwrap_err().to_string();
    assert!(error.contains("host client"), "{error}");
    assert!(error.contains("lost an invariant"), "{error}");
}

#[test]
fn spawn_blocking_runs_on_the_simulations_thread() {
    let mut sim = Sim::new(23);
    let here = std::thread::current().id();
    sim.client("client", async move {
        let ran_on = rt_core::task::spawn_blocking(|| std::thread::current().id()).await?;
        assert_eq!(ran_on, here);
        Ok(())
    });
    sim.run().unwrap();
}

#[cfg(unix)]
#[test]
fn a_unix_socket_inside_a_simulation_panics_saying_it_would_leave() {
    let mut sim = Sim::new(24);
    sim.client("client", async {
        let _ = rt_io::net::UnixDatagram::unbound();
        Ok(())
    });
    let error = sim.run().unwrap_err().to_string();
    assert!(error.contains("would leave the simulation"), "{error}");
}
