//! UDP datagrams: latency, loss, duplication, reordering, partitions.

use rt_sim::net::UdpSocket;
use rt_sim::{Latency, LinkConfig, Sim};
use std::time::Duration;

/// Sends `count` numbered datagrams from "a" to "b" over a link set up by
/// `link`, and returns the numbers "b" received, in arrival order.
fn transfer(seed: u64, link: LinkConfig, count: u8) -> Vec<u8> {
    let received = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut sim = Sim::new(seed);
    let out = received.clone();
    sim.host("b", move || {
        let out = out.clone();
        async move {
            let socket = UdpSocket::bind("0.0.0.0:53").await?;
            let mut buf = [0; 8];
            loop {
                let (n, from) = socket.recv_from(&mut buf).await?;
                assert_eq!((n, from.to_string().as_str()), (1, "10.0.0.2:5000"));
                out.lock().unwrap().push(buf[0]);
            }
        }
    });
    sim.client("a", async move {
        rt_sim::set_link("a", "b", link);
        let socket = UdpSocket::bind("0.0.0.0:5000").await?;
        for i in 0..count {
            socket.send_to(&[i], "b:53").await?;
            rt_time::sleep(Duration::from_millis(1)).await;
        }
        rt_time::sleep(Duration::from_secs(1)).await;
        Ok(())
    });
    sim.run().unwrap();
    let got = received.lock().unwrap().clone();
    got
}

#[test]
fn a_clean_link_delivers_every_datagram_in_order() {
    let got = transfer(20, LinkConfig::default(), 50);
    assert_eq!(got, (0..50).collect::<Vec<_>>());
}

#[test]
fn loss_and_duplication_follow_the_seed() {
    let link = LinkConfig {
        loss_ppm: 200_000,
        duplicate_ppm: 200_000,
        ..LinkConfig::default()
    };
    let got = transfer(21, link, 100);
    let lost = (0..100).filter(|i| !got.contains(i)).count();
    let doubled = (0..100)
        .filter(|i| got.iter().filter(|g| *g == i).count() == 2)
        .count();
    // About a fifth each way, with this seed.
    assert!((10..=30).contains(&lost), "lost {lost}: {got:?}");
    assert!((10..=30).contains(&doubled), "doubled {doubled}: {got:?}");
    // The same seed loses and duplicates the same datagrams.
    assert_eq!(got, transfer(21, link, 100));
    assert_ne!(got, transfer(22, link, 100));
}

#[test]
fn reordering_and_jitter_let_later_datagrams_overtake() {
    let link = LinkConfig {
        latency: Latency::Uniform {
            min: Duration::from_millis(1),
            max: Duration::from_millis(3),
        },
        reorder_ppm: 300_000,
        reorder_delay: Duration::from_millis(20),
        ..LinkConfig::default()
    };
    let mut got = transfer(23, link, 100);
    assert_ne!(got, (0..100).collect::<Vec<_>>());
    got.sort_unstable();
    assert_eq!(got, (0..100).collect::<Vec<_>>(), "nothing lost");
}

#[test]
fn a_partition_drops_datagrams_until_repaired() {
    let mut sim = Sim::builder().seed(24).keep_trace(true).build();
    sim.host("b", || async {
        let socket = UdpSocket::bind("0.0.0.0:53").await?;
        let mut buf = [0; 8];
        let (_, from) = socket.recv_from(&mut buf).await?;
        assert_eq!(buf[0], 2, "the datagram sent during the partition arrived");
        socket.send_to(b"ok", from).await?;
        Ok(())
    });
    sim.client("a", async {
        let socket = UdpSocket::bind("0.0.0.0:0").await?;
        rt_sim::partition("a", "b");
        socket.send_to(&[1], "b:53").await?;
        rt_time::sleep(Duration::from_millis(10)).await;
        rt_sim::repair("a", "b");
        socket.send_to(&[2], "b:53").await?;
        let mut buf = [0; 8];
        let (n, _) = socket.recv_from(&mut buf).await?;
        assert_eq!(&buf[..n], b"ok");
        Ok(())
    });
    let report = sim.run().unwrap();
    assert!(report
        .events
        .iter()
        .any(|e| e.what.ends_with("(partition)")));
}

#[test]
fn a_connected_socket_talks_to_its_peer_only() {
    let mut sim = Sim::new(25);
    sim.host("b", || async {
        let socket = UdpSocket::bind("0.0.0.0:53").await?;
        socket.connect("a:5000").await?;
        assert_eq!(socket.peer_addr()?, "10.0.0.2:5000".parse()?);
        let mut buf = [0; 8];
        let n = socket.recv(&mut buf).await?;
        assert_eq!(&buf[..n], b"from a", "the stranger's datagram was dropped");
        socket.send(b"back").await?;
        Ok(())
    });
    sim.client("a", async {
        let socket = UdpSocket::bind("0.0.0.0:5000").await?;
        rt_sim::spawn(async {
            let stranger = UdpSocket::bind("0.0.0.0:6000").await.unwrap();
            stranger.send_to(b"stranger", "b:53").await.unwrap();
        });
        rt_time::sleep(Duration::from_millis(5)).await;
        socket.send_to(b"from a", "b:53").await?;
        let mut buf = [0; 8];
        let (n, from) = socket.recv_from(&mut buf).await?;
        assert_eq!((&buf[..n], from), (&b"back"[..], "10.0.0.1:53".parse()?));
        Ok(())
    });
    sim.run().unwrap();
}
