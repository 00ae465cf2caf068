//! The seed sweep finds the seeds under which a run fails, and those seeds
//! fail again when replayed alone.

use rt_sim::net::UdpSocket;
use rt_sim::{LinkConfig, Sim, SimError};
use std::time::Duration;

/// A run that fails when the lossy link drops any of three datagrams:
/// some seeds do, some do not.
fn lossy(seed: u64) -> Result<rt_sim::Report, SimError> {
    let mut sim = Sim::new(seed);
    sim.host("b", || async {
        let socket = UdpSocket::bind("0.0.0.0:9").await?;
        let mut buf = [0; 1];
        loop {
            let (_, from) = socket.recv_from(&mut buf).await?;
            socket.send_to(&buf, from).await?;
        }
    });
    sim.client("a", async {
        rt_sim::set_link(
            "a",
            "b",
            LinkConfig {
                loss_ppm: 300_000,
                ..LinkConfig::default()
            },
        );
        let socket = UdpSocket::bind("0.0.0.0:0").await?;
        let mut got = 0;
        for i in 0..3u8 {
            socket.send_to(&[i], "b:9").await?;
            let mut buf = [0; 1];
            if rt_time::timeout(Duration::from_millis(10), socket.recv_from(&mut buf))
                .await
                .is_ok()
            {
                got += 1;
            }
        }
        if got < 3 {
            return Err(format!("{} of 3 datagrams lost", 3 - got).into());
        }
        Ok(())
    });
    sim.run()
}

/// The test the sweep runs, once per seed; idle outside a sweep.
#[test]
fn lossy_run() {
    if std::env::var(rt_sim::SWEEP_ENV).is_ok() {
        // `RT_SIM_SEED` overrides the seed given here.
        lossy(0).unwrap();
    }
}

#[test]
fn the_sweep_reports_exactly_the_seeds_that_fail() {
    if std::env::var(rt_sim::SWEEP_ENV).is_ok() || std::env::var(rt_sim::SEED_ENV).is_ok() {
        return;
    }
    let report = rt_sim::sweep("lossy_run", 0..12, 4).unwrap();
    assert_eq!(report.ran, 12);
    assert!(
        !report.failed.is_empty() && report.failed.len() < 12,
        "{report:?}"
    );
    for seed in 0..12 {
        let failed = lossy(seed).is_err();
        assert_eq!(failed, report.failed.contains(&seed), "seed {seed}");
    }
    assert!(report.replay[0].starts_with(&format!("RT_SIM_SEED={} ", report.failed[0])));
}
