//! The determinism check: the same seed gives the same trace hash, in this
//! process and in two fresh processes (this test binary run again).

use rt_io::io::{AsyncReadExt, AsyncWriteExt};
use rt_sim::net::{TcpListener, TcpStream, UdpSocket};
use rt_sim::{FaultSchedule, Latency, LinkConfig, Sim};
use std::process::Command;
use std::time::Duration;

/// A busy scenario: TCP and UDP clients against a server, over a jittery
/// lossy link, under the seeded fault schedule. Returns the trace hash.
fn scenario(seed: u64) -> u64 {
    let mut sim = Sim::builder()
        .seed(seed)
        .link(LinkConfig {
            latency: Latency::Uniform {
                min: Duration::from_micros(200),
                max: Duration::from_millis(5),
            },
            loss_ppm: 50_000,
            duplicate_ppm: 50_000,
            reorder_ppm: 50_000,
            ..LinkConfig::default()
        })
        .faults(FaultSchedule::default())
        .build();
    sim.host("server", || async {
        let udp = UdpSocket::bind("0.0.0.0:53").await?;
        rt_sim::spawn(async move {
            let mut buf = [0; 64];
            while let Ok((n, from)) = udp.recv_from(&mut buf).await {
                let _ = udp.send_to(&buf[..n], from).await;
            }
        });
        let listener = TcpListener::bind("0.0.0.0:80").await?;
        loop {
            let (mut stream, _) = listener.accept().await?;
            rt_sim::spawn(async move {
                let mut buf = [0; 256];
                while let Ok(n) = stream.read(&mut buf).await {
                    if n == 0 || stream.write_all(&buf[..n]).await.is_err() {
                        break;
                    }
                }
            });
        }
    });
    for c in 0..3u8 {
        sim.client(format!("client{c}"), async move {
            let udp = UdpSocket::bind("0.0.0.0:0").await?;
            for round in 0..40u8 {
                let _ = udp.send_to(&[c, round], "server:53").await;
                if let Ok(mut stream) = TcpStream::connect("server:80").await {
                    let message = [c; 100];
                    let mut back = [0; 100];
                    let exchange = async {
                        stream.write_all(&message).await?;
                        stream.read_exact(&mut back).await?;
                        std::io::Result::Ok(())
                    };
                    let _ = rt_time::timeout(Duration::from_millis(500), exchange).await;
                }
                rt_time::sleep(Duration::from_millis(50)).await;
            }
            Ok(())
        });
    }
    sim.run().expect("the scenario itself never fails").hash
}

const CHILD: &str = "RT_SIM_DETERMINISM_CHILD";

/// The scenario's hash for seed 99, the same in every build profile and on
/// every machine: `cargo test -p rt-sim --test determinism` and the same
/// with `--release` both check it. A change to the network model, the
/// trace's encoding or the generator changes it; update it then, knowing
/// that every recorded seed's replay changes with it.
const SEED_99_HASH: &str = "59aa9ff7da2e28d8";

/// In a child process: prints the scenario's hash for the parent.
#[test]
fn child_prints_the_hash() {
    if let Ok(seed) = std::env::var(CHILD) {
        println!("hash={:016x}", scenario(seed.parse().unwrap()));
    }
}

fn hash_in_child(seed: u64) -> String {
    let output = Command::new(std::env::current_exe().unwrap())
        .args([
            "child_prints_the_hash",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, seed.to_string())
        .env_remove(rt_sim::SEED_ENV)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let (_, hash) = stdout
        .split_once("hash=")
        .unwrap_or_else(|| panic!("{stdout}"));
    hash[..16].to_string()
}

#[test]
fn the_same_seed_gives_the_same_hash_in_two_processes() {
    if std::env::var(CHILD).is_ok() || std::env::var(rt_sim::SEED_ENV).is_ok() {
        return;
    }
    let here = format!("{:016x}", scenario(99));
    assert_eq!(here, format!("{:016x}", scenario(99)));
    let first = hash_in_child(99);
    let second = hash_in_child(99);
    assert_eq!(first, second);
    assert_eq!(here, first);
    assert_eq!(here, SEED_99_HASH);
    assert_ne!(here, format!("{:016x}", scenario(100)));
}
