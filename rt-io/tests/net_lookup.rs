//! `lookup_host` and the `ToSocketAddrs` argument forms.
// Address lookups: Miri does not emulate getaddrinfo or socket system calls.
#![cfg(not(miri))]
#![cfg(feature = "net")]

use rt_core::runtime::Builder;
use rt_io::net::{lookup_host, TcpListener};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

#[test]
fn literals_names_and_tuples_resolve() {
    let rt = Builder::new_current_thread()
        .base_driver(rt_io::reactor::base_driver())
        .build()
        .unwrap();
    rt.block_on(async {
        let want: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let got: Vec<_> = lookup_host("127.0.0.1:8080").await.unwrap().collect();
        assert_eq!(got, [want]);
        let got: Vec<_> = lookup_host(("127.0.0.1", 8080)).await.unwrap().collect();
        assert_eq!(got, [want]);
        let got: Vec<_> = lookup_host((IpAddr::V4(Ipv4Addr::LOCALHOST), 8080))
            .await
            .unwrap()
            .collect();
        assert_eq!(got, [want]);
        let got: Vec<_> = lookup_host(String::from("127.0.0.1:8080"))
            .await
            .unwrap()
            .collect();
        assert_eq!(got, [want]);
        // A name goes through the system resolver on the blocking pool.
        let got: Vec<_> = lookup_host("localhost:8080").await.unwrap().collect();
        assert!(got.iter().all(|a| a.port() == 8080 && a.ip().is_loopback()));
        assert!(!got.is_empty());
        let listener = TcpListener::bind(("localhost", 0)).await.unwrap();
        assert!(listener.local_addr().unwrap().ip().is_loopback());
        assert!(lookup_host("no port here").await.is_err());
    });
}
